import assert from "node:assert/strict";
import { test } from "node:test";
import { nodePrinter, nodeRoles, printNodeRow } from "./node.ts";
import type { TableCell } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");

type Json = Record<string, unknown>;

function node(labels: Json, spec: Json, status: Json): Json {
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "n1", labels, creationTimestamp: "2024-05-30T12:00:00Z" },
    spec,
    status,
  };
}

const info = {
  kubeletVersion: "v1.32.0-gantry",
  osImage: "gantry emulated",
  kernelVersion: "6.1.0",
  containerRuntimeVersion: "gantry://0.1.0",
};

const cases: { name: string; node: Json; want: TableCell[] }[] = [
  {
    name: "Ready worker without roles",
    node: node(
      {},
      {},
      {
        conditions: [{ type: "Ready", status: "True" }],
        addresses: [{ type: "InternalIP", address: "10.1.0.1" }],
        nodeInfo: info,
      },
    ),
    want: [
      "n1",
      "Ready",
      "<none>",
      "2d",
      "v1.32.0-gantry",
      "10.1.0.1",
      "<none>",
      "gantry emulated",
      "6.1.0",
      "gantry://0.1.0",
    ],
  },
  {
    name: "NotReady and cordoned control plane",
    node: node(
      { "node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/master": "" },
      { unschedulable: true },
      { conditions: [{ type: "Ready", status: "False" }], nodeInfo: info },
    ),
    want: [
      "n1",
      "NotReady,SchedulingDisabled",
      "control-plane,master",
      "2d",
      "v1.32.0-gantry",
      "<none>",
      "<none>",
      "gantry emulated",
      "6.1.0",
      "gantry://0.1.0",
    ],
  },
  {
    name: "Ready Unknown status reads NotReady",
    node: node({}, {}, { conditions: [{ type: "Ready", status: "Unknown" }] }),
    want: [
      "n1",
      "NotReady",
      "<none>",
      "2d",
      "",
      "<none>",
      "<none>",
      "<unknown>",
      "<unknown>",
      "<unknown>",
    ],
  },
  {
    name: "no Ready condition is Unknown",
    node: node(
      {},
      { unschedulable: true },
      { conditions: [{ type: "MemoryPressure", status: "False" }] },
    ),
    want: [
      "n1",
      "Unknown,SchedulingDisabled",
      "<none>",
      "2d",
      "",
      "<none>",
      "<none>",
      "<unknown>",
      "<unknown>",
      "<unknown>",
    ],
  },
];

for (const c of cases) {
  test(`nodePrinter.printRow: ${c.name}`, () => {
    assert.deepEqual(printNodeRow(c.node, now).cells, c.want);
  });
}

test("nodeRoles: role labels and the legacy kubernetes.io/role label, sorted and de-duplicated", () => {
  const labels = {
    "node-role.kubernetes.io/worker": "",
    "node-role.kubernetes.io/": "ignored",
    "kubernetes.io/role": "gpu",
    "node-role.kubernetes.io/gpu": "true",
  };
  assert.deepEqual(nodeRoles(node(labels, {}, {})), ["gpu", "worker"]);
});

test("nodePrinter.columns: kubectl's headers, wide columns at priority 1", () => {
  assert.deepEqual(
    nodePrinter.columns.map((c) => `${c.name}:${c.priority}`),
    [
      "Name:0",
      "Status:0",
      "Roles:0",
      "Age:0",
      "Version:0",
      "Internal-IP:1",
      "External-IP:1",
      "OS-Image:1",
      "Kernel-Version:1",
      "Container-Runtime:1",
    ],
  );
});
