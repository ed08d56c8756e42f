import assert from "node:assert/strict";
import test from "node:test";
import { makePod } from "../../testing/index.ts";
import { parseClusterConfig } from "../config/parse.ts";
import { cadvisorTopologyInterpreter } from "../machine/topology.ts";
import { nodeFromPool } from "../node/emulated-node.ts";
import { configz, machineInfo, podsDocument } from "./documents.ts";

function nodeOf(poolYaml: string) {
  const config = parseClusterConfig(
    `apiVersion: gantry.dev/v1alpha1\nkind: ClusterConfig\nnodePools:\n${poolYaml}`,
  );
  const pool = config.nodePools[0];
  assert.ok(pool !== undefined, "pool !== undefined");
  return nodeFromPool(pool, 0, cadvisorTopologyInterpreter);
}

test("machineInfo: a flat machine of one socket from the cpu count", () => {
  const info = machineInfo(nodeOf("- {name: a, capacity: {cpu: 2, memory: 4Gi}}\n"));
  assert.deepEqual(
    {
      cores: [info.num_cores, info.num_physical_cores, info.num_sockets],
      memory: info.memory_capacity,
      topology: info.topology.map((n) => ({
        node: n.node_id,
        memory: n.memory,
        cores: n.cores.map((c) => [
          c.core_id,
          c.socket_id,
          c.thread_ids,
          c.caches.map((x) => x.level),
        ]),
        caches: n.caches,
      })),
    },
    {
      cores: [2, 2, 1],
      memory: 4 * 2 ** 30,
      topology: [
        {
          node: 0,
          memory: 4 * 2 ** 30,
          cores: [
            [0, 0, [0], [1, 1, 2]],
            [1, 0, [1], [1, 1, 2]],
          ],
          caches: [{ id: 0, size: 32 * 2 ** 20, type: "Unified", level: 3 }],
        },
      ],
    },
  );
});

test("machineInfo: a cAdvisor topology is served as given, with per-node memory filled in", () => {
  const info = machineInfo(
    nodeOf(`- name: smt
  capacity: {memory: 8Gi}
  topology:
    topology:
    - node_id: 0
      cores:
      - core_id: 0
        socket_id: 0
        thread_ids: [0, 2]
        uncore_caches: [{id: 0, size: 16777216, type: Unified, level: 3}]
    - node_id: 1
      cores:
      - {core_id: 0, socket_id: 1, thread_ids: [1, 3]}
`),
  );
  assert.deepEqual(
    {
      cores: [info.num_cores, info.num_physical_cores, info.num_sockets],
      nodes: info.topology.map((n) => [
        n.node_id,
        n.memory,
        n.cores[0]?.thread_ids,
        n.cores[0]?.uncore_caches.length,
      ]),
    },
    {
      cores: [4, 2, 2],
      nodes: [
        [0, 4 * 2 ** 30, [0, 2], 1],
        [1, 4 * 2 ** 30, [1, 3], 0],
      ],
    },
  );
});

test("configz: the pool's kubelet settings under kubeletconfig", () => {
  const doc = configz(
    nodeOf(
      "- name: a\n  kubelet: {cpuManagerPolicy: static, reservedSystemCPUs: '0', maxPods: 50, nodeStatusUpdateFrequency: 1m}\n",
    ),
    10250,
  );
  const k = doc.kubeletconfig;
  assert.deepEqual(
    [
      k["cpuManagerPolicy"],
      k["reservedSystemCPUs"],
      k["maxPods"],
      k["nodeStatusUpdateFrequency"],
      k["nodeStatusReportFrequency"],
      k["port"],
    ],
    ["static", "0", 50, "1m0s", "5m0s", 10250],
  );
});

test("podsDocument: a v1 PodList", () => {
  const pod = makePod("p").obj();
  assert.deepEqual(podsDocument([pod]), {
    kind: "PodList",
    apiVersion: "v1",
    metadata: {},
    items: [pod],
  });
});
