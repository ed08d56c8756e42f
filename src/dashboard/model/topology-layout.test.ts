import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatCpuList,
  l3Badge,
  layoutTopology,
  type MachineInfo,
  tagOf,
} from "./topology-layout.ts";

/** 1 socket, 2 NUMA nodes, 2 L3 per NUMA node, 2 cores per L3, 2 threads per core (CPU n, n+8). */
const machine: MachineInfo = {
  topology: [0, 1].map((numa) => ({
    node_id: numa,
    cores: [0, 1, 2, 3].map((i) => {
      const core = numa * 4 + i;
      return {
        core_id: core,
        socket_id: 0,
        thread_ids: [core, core + 8],
        uncore_caches: [{ id: numa * 2 + Math.floor(i / 2), level: 3 }],
      };
    }),
  })),
};
const all = Array.from({ length: 16 }, (_, i) => i);

test("layoutTopology: nests sockets, NUMA nodes, L3 caches, cores and threads", () => {
  const layout = layoutTopology(machine, all, {});
  assert.deepEqual(
    layout.sockets.map((s) => ({
      socket: s.id,
      numa: s.numaNodes.map((n) => ({
        id: n.id,
        l3: n.l3.map((l) => ({ id: l.id, cores: l.cores.map((c) => c.threads.map((t) => t.id)) })),
      })),
    })),
    [
      {
        socket: 0,
        numa: [
          {
            id: 0,
            l3: [
              {
                id: 0,
                cores: [
                  [0, 8],
                  [1, 9],
                ],
              },
              {
                id: 1,
                cores: [
                  [2, 10],
                  [3, 11],
                ],
              },
            ],
          },
          {
            id: 1,
            l3: [
              {
                id: 2,
                cores: [
                  [4, 12],
                  [5, 13],
                ],
              },
              {
                id: 3,
                cores: [
                  [6, 14],
                  [7, 15],
                ],
              },
            ],
          },
        ],
      },
    ],
  );
});

test("layoutTopology: marks reserved, shared and pinned CPUs and measures each container's L3s", () => {
  const layout = layoutTopology(
    machine,
    all.filter((c) => c !== 0 && c !== 8),
    {
      pod_resources: [
        {
          namespace: "ml",
          name: "db",
          containers: [{ name: "app", cpu_ids: [1, 9] }, { name: "log" }],
        },
        { namespace: "ml", name: "wide", containers: [{ name: "app", cpu_ids: [3, 4, 11, 12] }] },
      ],
    },
  );
  assert.deepEqual(layout.counts, { total: 16, reserved: 2, shared: 8, pinned: 6 });
  assert.deepEqual(
    layout.containers.map((c) => [
      c.pod,
      c.tag,
      c.cpus.join(","),
      c.l3Count,
      c.numaCount,
      l3Badge(c),
    ]),
    [
      ["db", "A", "1,9", 1, 1, "one L3"],
      ["wide", "B", "3,4,11,12", 2, 2, "spans 2 L3"],
    ],
  );
  assert.deepEqual(layout.sharedContainers, [{ namespace: "ml", pod: "db", container: "log" }]);
  const cells = layout.sockets[0]?.numaNodes[0]?.l3[0]?.cores[0]?.threads ?? [];
  assert.deepEqual(
    cells.map((c) => c.state),
    ["reserved", "reserved"],
  );
  assert.equal(layout.pinning, true);
});

test("layoutTopology: without allocatable CPUs (policy none) nothing is reserved", () => {
  const layout = layoutTopology(machine, [], {});
  assert.deepEqual(layout.counts, { total: 16, reserved: 0, shared: 16, pinned: 0 });
  assert.equal(layout.pinning, false);
});

test("layoutTopology: cores without uncore caches share the socket's L3, as the kubelet aligns them", () => {
  const layout = layoutTopology(
    { topology: [{ node_id: 0, cores: [{ core_id: 0, socket_id: 1, thread_ids: [0] }] }] },
    [0],
    {},
  );
  assert.deepEqual(
    layout.sockets[0]?.numaNodes[0]?.l3.map((l) => [l.id, l.bySocket]),
    [[1, true]],
  );
});

const tags = [
  [0, "A"],
  [25, "Z"],
  [26, "AA"],
  [27, "AB"],
  [701, "ZZ"],
  [702, "AAA"],
] as const;
for (const [index, want] of tags) {
  test(`tagOf: ${index} is ${want}`, () => assert.equal(tagOf(index), want));
}

test("formatCpuList: runs of consecutive CPUs become ranges", () => {
  assert.equal(formatCpuList([8, 0, 1, 2, 3, 5, 6]), "0-3,5-6,8");
  assert.equal(formatCpuList([]), "");
});
