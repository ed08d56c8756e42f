import assert from "node:assert/strict";
import { test } from "node:test";
import { runCpusCommand } from "./cpus-command.ts";
import { type GetText, ShowError, showNode, showTable } from "./cpus-show.ts";

/** A cluster whose node n1 is the split-L3 test machine (L3 groups of 8 cores, SMT2). */
function fakeCluster(responses: Record<string, unknown>): GetText & { paths: string[] } {
  const paths: string[] = [];
  const get = async (path: string): Promise<string> => {
    paths.push(path);
    const body = responses[path];
    if (body === undefined) throw new ShowError(`GET ${path}: 404: not found`);
    return JSON.stringify(body);
  };
  return Object.assign(get, { paths });
}

const base = "/api/v1/nodes/n1/proxy";
const cluster = {
  [`${base}/spec/`]: { preset: "split-l3-2s-16c-smt2" },
  [`${base}/podresources/allocatable`]: {
    cpu_ids: [...Array(64).keys()].filter((c) => c % 32 !== 0),
  },
  [`${base}/podresources`]: {
    pod_resources: [
      { name: "batch", namespace: "jobs", containers: [{ name: "app" }] },
      {
        name: "db",
        namespace: "default",
        containers: [
          { name: "app", cpu_ids: [8, 9, 10, 11, 40, 41, 42, 43] },
          { name: "wide", cpu_ids: [7, 8, 16] },
        ],
      },
    ],
  },
};

test("showNode: joins podresources with the node's topology", async () => {
  const get = fakeCluster(cluster);
  const shown = await showNode(get, "n1");
  assert.deepEqual(shown, {
    node: "n1",
    allocatable: "1-31,33-63",
    containers: [
      { namespace: "jobs", pod: "batch", container: "app", cpus: "", l3: [], numa: [] },
      { namespace: "default", pod: "db", container: "app", cpus: "8-11,40-43", l3: [1], numa: [0] },
      {
        namespace: "default",
        pod: "db",
        container: "wide",
        cpus: "7-8,16",
        l3: [0, 1, 2],
        numa: [0, 1],
      },
    ],
  });
  assert.deepEqual(get.paths.sort(), [
    `${base}/podresources`,
    `${base}/podresources/allocatable`,
    `${base}/spec/`,
  ]);
});

test("showTable: one row per container, shared ones marked", async () => {
  const table = showTable(await showNode(fakeCluster(cluster), "n1"));
  assert.equal(
    table,
    [
      "NAMESPACE   POD     CONTAINER   CPUS         L3 CACHES   NUMA NODES",
      "jobs        batch   app         shared       -           -",
      "default     db      app         8-11,40-43   1           0",
      "default     db      wide        7-8,16       0,1,2       0,1",
      "",
    ].join("\n"),
  );
});

test("showNode: a node the cluster does not know fails with the server's answer", async () => {
  await assert.rejects(showNode(fakeCluster({}), "n1"), /404: not found/);
});

const usageCases = [
  { name: "without a node name", args: ["show"], code: 2, err: /Missing the node name/ },
  {
    name: "with an unknown output format",
    args: ["show", "n1", "-o", "yaml"],
    code: 2,
    err: /--output takes table or json/,
  },
  {
    name: "without a kubeconfig",
    args: ["show", "n1", "--kubeconfig", "/nonexistent/kubeconfig"],
    code: 1,
    err: /Cannot find the kubeconfig \/nonexistent\/kubeconfig: start the cluster with `gantry up` first/,
  },
] as const;

for (const c of usageCases) {
  test(`gantry cpus show: refuses ${c.name}`, async () => {
    let err = "";
    const code = await runCpusCommand(c.args, { out: () => {}, err: (t) => (err += t) });
    assert.equal(code, c.code, err);
    assert.match(err, c.err);
  });
}
