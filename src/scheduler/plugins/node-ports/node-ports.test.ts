import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../../api/index.ts";
import { makeNode, makePod, minimalPlugins, newTestFramework } from "../../../testing/index.ts";
import { name } from "./node-ports.ts";

const conflict = "Unschedulable: node(s) didn't have free ports for the requested pod ports";

const cases: readonly { name: string; existing: Pod; pod: Pod; want: string }[] = [
  {
    name: "the same port and protocol on every address conflicts",
    existing: makePod("e").nodeName("n1").hostPort(8080).obj(),
    pod: makePod("p").hostPort(8080).obj(),
    want: conflict,
  },
  {
    name: "another protocol does not conflict",
    existing: makePod("e").nodeName("n1").hostPort(53, "UDP").obj(),
    pod: makePod("p").hostPort(53, "TCP").obj(),
    want: "Success",
  },
  {
    name: "two specific addresses do not conflict",
    existing: makePod("e").nodeName("n1").hostPort(80, "TCP", "10.0.0.1").obj(),
    pod: makePod("p").hostPort(80, "TCP", "10.0.0.2").obj(),
    want: "Success",
  },
  {
    name: "0.0.0.0 conflicts with a specific address",
    existing: makePod("e").nodeName("n1").hostPort(80, "TCP", "10.0.0.1").obj(),
    pod: makePod("p").hostPort(80).obj(),
    want: conflict,
  },
  {
    name: "a pod without host ports always fits",
    existing: makePod("e").nodeName("n1").hostPort(80).obj(),
    pod: makePod("p").obj(),
    want: "Success",
  },
];

for (const c of cases) {
  test(`NodePorts.filter: ${c.name}`, () => {
    const tf = newTestFramework({
      plugins: minimalPlugins(name),
      nodes: [makeNode("n1").obj()],
      pods: [c.existing],
    });
    assert.equal(tf.filter(c.pod)["n1"], c.want);
  });
}
