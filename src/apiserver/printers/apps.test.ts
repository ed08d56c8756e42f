import assert from "node:assert/strict";
import { test } from "node:test";
import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  statefulSetPrinter,
} from "./apps.ts";
import type { TableCell, TablePrinter } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");
const metadata = { name: "web", creationTimestamp: "2024-06-01T11:58:30Z" }; // 90s
const template = { spec: { containers: [{ name: "app", image: "nginx:1" }] } };
const selector = {
  matchLabels: { app: "web" },
  matchExpressions: [{ key: "tier", operator: "In", values: ["front", "edge"] }],
};

const cases: {
  name: string;
  printer: TablePrinter;
  object: Record<string, unknown>;
  want: TableCell[];
}[] = [
  {
    name: "deployment 2/3 ready",
    printer: deploymentPrinter,
    object: {
      metadata,
      spec: { replicas: 3, selector, template },
      status: { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    },
    want: ["web", "2/3", 3, 2, "90s", "app", "nginx:1", "app=web,tier in (edge,front)"],
  },
  {
    name: "deployment without status or replicas defaults to 1",
    printer: deploymentPrinter,
    object: { metadata, spec: { template } },
    want: ["web", "0/1", 0, 0, "90s", "app", "nginx:1", ""],
  },
  {
    name: "replicaset",
    printer: replicaSetPrinter,
    object: {
      metadata,
      spec: { replicas: 2, selector: { matchLabels: { app: "web" } }, template },
      status: { replicas: 2, readyReplicas: 1 },
    },
    want: ["web", 2, 2, 1, "90s", "app", "nginx:1", "app=web"],
  },
  {
    name: "replicaset scaled to zero with an empty selector",
    printer: replicaSetPrinter,
    object: { metadata, spec: { replicas: 0, selector: {}, template } },
    want: ["web", 0, 0, 0, "90s", "app", "nginx:1", "<none>"],
  },
  {
    name: "statefulset",
    printer: statefulSetPrinter,
    object: { metadata, spec: { replicas: 3, template }, status: { readyReplicas: 3 } },
    want: ["web", "3/3", "90s", "app", "nginx:1"],
  },
  {
    name: "daemonset",
    printer: daemonSetPrinter,
    object: {
      metadata,
      spec: {
        selector: { matchLabels: { app: "agent" } },
        template: { spec: { ...template.spec, nodeSelector: { "kubernetes.io/os": "linux" } } },
      },
      status: {
        desiredNumberScheduled: 4,
        currentNumberScheduled: 4,
        numberReady: 3,
        updatedNumberScheduled: 4,
        numberAvailable: 3,
      },
    },
    want: ["web", 4, 4, 3, 4, 3, "kubernetes.io/os=linux", "90s", "app", "nginx:1", "app=agent"],
  },
  {
    name: "controllerrevision owned by a statefulset",
    printer: controllerRevisionPrinter,
    object: {
      metadata: {
        ...metadata,
        ownerReferences: [
          { apiVersion: "apps/v1", kind: "StatefulSet", name: "web", uid: "u", controller: true },
        ],
      },
      data: {},
      revision: 2,
    },
    want: ["web", "statefulset.apps/web", 2, "90s"],
  },
  {
    name: "controllerrevision without a controller",
    printer: controllerRevisionPrinter,
    object: { metadata, data: {}, revision: 1 },
    want: ["web", "<none>", 1, "90s"],
  },
];

for (const c of cases) {
  test(`appsPrinters.printRow: ${c.name}`, () => {
    const row = c.printer.printRow(c.object, now);
    assert.deepEqual(row.cells, c.want);
    assert.equal(row.cells.length, c.printer.columns.length);
  });
}

test("deploymentPrinter.columns: NAME READY UP-TO-DATE AVAILABLE AGE, wide CONTAINERS IMAGES SELECTOR", () => {
  assert.deepEqual(
    deploymentPrinter.columns.map((c) => `${c.name.toUpperCase()}:${c.priority}`),
    [
      "NAME:0",
      "READY:0",
      "UP-TO-DATE:0",
      "AVAILABLE:0",
      "AGE:0",
      "CONTAINERS:1",
      "IMAGES:1",
      "SELECTOR:1",
    ],
  );
});
