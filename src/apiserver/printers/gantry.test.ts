import assert from "node:assert/strict";
import { test } from "node:test";
import { podGroupPrinter, workloadPrinter } from "./gantry.ts";
import type { TableCell, TablePrinter } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");
const metadata = { name: "train", creationTimestamp: "2024-06-01T11:59:00Z" }; // 60s

const cases: {
  name: string;
  printer: TablePrinter;
  object: Record<string, unknown>;
  want: TableCell[];
}[] = [
  {
    name: "workload with templates (v1alpha2 shape) and a controller",
    printer: workloadPrinter,
    object: {
      metadata,
      spec: {
        controllerRef: { apiGroup: "batch", kind: "Job", name: "train-job" },
        podGroupTemplates: [
          { name: "driver", schedulingPolicy: { basic: {} } },
          { name: "worker", schedulingPolicy: { gang: { minCount: 4 } } },
        ],
      },
    },
    want: ["train", "driver,worker", "60s", "job.batch/train-job", "Basic,Gang(minCount=4)"],
  },
  {
    name: "workload with embedded pod groups (v1alpha1 shape)",
    printer: workloadPrinter,
    object: { metadata, spec: { podGroups: [{ name: "pg1", policy: { gang: { minCount: 2 } } }] } },
    want: ["train", "pg1", "60s", "<none>", "Gang(minCount=2)"],
  },
  {
    name: "empty workload",
    printer: workloadPrinter,
    object: { metadata },
    want: ["train", "<none>", "60s", "<none>", "<none>"],
  },
  {
    name: "pod group waiting for its first attempt",
    printer: podGroupPrinter,
    object: {
      metadata,
      spec: {
        podGroupTemplateRef: {
          workload: { workloadName: "train", podGroupTemplateName: "worker" },
        },
        schedulingPolicy: { gang: { minCount: 4 } },
      },
    },
    want: ["train", "train", "worker", "Unknown", "Pending", "60s", "Gang(minCount=4)"],
  },
  {
    name: "pod group in gantry's v1alpha1 shape",
    printer: podGroupPrinter,
    object: {
      metadata,
      spec: { workloadRef: { name: "train" }, podGroupTemplateName: "worker" },
    },
    want: ["train", "train", "worker", "Unknown", "Pending", "60s", "<none>"],
  },
  {
    name: "scheduled pod group",
    printer: podGroupPrinter,
    object: {
      metadata,
      spec: {
        workloadRef: { workloadName: "train", templateName: "worker" },
        schedulingPolicy: { basic: {} },
      },
      status: { conditions: [{ type: "PodGroupScheduled", status: "True", reason: "Scheduled" }] },
    },
    want: ["train", "train", "worker", "True", "Scheduled", "60s", "Basic"],
  },
  {
    name: "unschedulable user-managed pod group",
    printer: podGroupPrinter,
    object: {
      metadata,
      spec: { schedulingPolicy: { gang: { minCount: 8 } } },
      status: {
        conditions: [{ type: "PodGroupScheduled", status: "False", reason: "Unschedulable" }],
      },
    },
    want: ["train", "<none>", "<none>", "False", "Unschedulable", "60s", "Gang(minCount=8)"],
  },
  {
    name: "terminating pod group",
    printer: podGroupPrinter,
    object: {
      metadata: { ...metadata, deletionTimestamp: "2024-06-01T11:59:30Z" },
      spec: {},
      status: { conditions: [{ type: "PodGroupScheduled", status: "True", reason: "Scheduled" }] },
    },
    want: ["train", "<none>", "<none>", "True", "Terminating", "60s", "<none>"],
  },
];

for (const c of cases) {
  test(`gantryPrinters.printRow: ${c.name}`, () => {
    const row = c.printer.printRow(c.object, now);
    assert.deepEqual(row.cells, c.want);
    assert.equal(row.cells.length, c.printer.columns.length);
  });
}

test("podGroupPrinter.columns: NAME WORKLOAD TEMPLATE SCHEDULED STATUS AGE, wide POLICY", () => {
  assert.deepEqual(
    podGroupPrinter.columns.map((c) => `${c.name.toUpperCase()}:${c.priority}`),
    ["NAME:0", "WORKLOAD:0", "TEMPLATE:0", "SCHEDULED:0", "STATUS:0", "AGE:0", "POLICY:1"],
  );
});
