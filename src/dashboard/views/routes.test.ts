import assert from "node:assert/strict";
import { test } from "node:test";
import { parseRoute, type Route, routePath } from "./routes.ts";

const cases: readonly { path: string; route: Route; canonical: string }[] = [
  { path: "/ui/", route: { view: "cluster" }, canonical: "/ui/cluster" },
  { path: "/ui/cluster", route: { view: "cluster" }, canonical: "/ui/cluster" },
  { path: "/ui/nonsense/x", route: { view: "cluster" }, canonical: "/ui/cluster" },
  { path: "/ui/topology", route: { view: "topology", node: "" }, canonical: "/ui/topology" },
  {
    path: "/ui/topology/node%201",
    route: { view: "topology", node: "node 1" },
    canonical: "/ui/topology/node%201",
  },
  {
    path: "/ui/disruption/n-2",
    route: { view: "disruption", node: "n-2" },
    canonical: "/ui/disruption/n-2",
  },
  { path: "/ui/gangs", route: { view: "gangs" }, canonical: "/ui/gangs" },
  { path: "/ui/queues", route: { view: "queues" }, canonical: "/ui/queues" },
];

for (const c of cases) {
  test(`parseRoute: ${c.path} shows ${c.route.view}, and routePath gives it back`, () => {
    assert.deepEqual(parseRoute(c.path, "/ui/"), c.route);
    assert.equal(routePath(c.route, "/ui/"), c.canonical);
  });
}
