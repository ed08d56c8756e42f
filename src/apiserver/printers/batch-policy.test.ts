import assert from "node:assert/strict";
import { test } from "node:test";
import {
  cronJobPrinter,
  jobPrinter,
  leasePrinter,
  podDisruptionBudgetPrinter,
  priorityClassPrinter,
} from "./batch-policy.ts";
import type { TableCell, TablePrinter } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");
const metadata = { name: "x", creationTimestamp: "2024-06-01T11:00:00Z" }; // 60m
const template = { spec: { containers: [{ name: "work", image: "busybox" }] } };
const selector = { matchLabels: { "batch.kubernetes.io/controller-uid": "u1" } };

function job(spec: Record<string, unknown>, status: Record<string, unknown>, meta = {}) {
  return { metadata: { ...metadata, ...meta }, spec: { template, selector, ...spec }, status };
}

const cases: {
  name: string;
  printer: TablePrinter;
  object: Record<string, unknown>;
  want: TableCell[];
}[] = [
  {
    name: "cronjob never scheduled, no time zone: <none> twice, the suspend flag, no active Jobs",
    printer: cronJobPrinter,
    object: {
      metadata,
      spec: { schedule: "*/5 * * * *", suspend: false, jobTemplate: { spec: { template } } },
    },
    want: ["x", "*/5 * * * *", "<none>", "False", 0, "<none>", "60m", "work", "busybox", "<none>"],
  },
  {
    name: "cronjob with a zone, one active Job and a last schedule 2m ago; suspend unset",
    printer: cronJobPrinter,
    object: {
      metadata,
      spec: {
        schedule: "@hourly",
        timeZone: "Europe/Berlin",
        jobTemplate: { spec: { template } },
      },
      status: {
        active: [{ kind: "Job", name: "x-1" }],
        lastScheduleTime: "2024-06-01T11:58:00Z",
      },
    },
    want: ["x", "@hourly", "Europe/Berlin", "<unset>", 1, "2m", "60m", "work", "busybox", "<none>"],
  },
  {
    name: "running job with completions and a live duration",
    printer: jobPrinter,
    object: job(
      { completions: 3, parallelism: 3 },
      { succeeded: 1, startTime: "2024-06-01T11:55:00Z" },
    ),
    want: [
      "x",
      "Running",
      "1/3",
      "5m",
      "60m",
      "work",
      "busybox",
      "batch.kubernetes.io/controller-uid=u1",
    ],
  },
  {
    name: "complete job measures start to completion",
    printer: jobPrinter,
    object: job(
      { completions: 1 },
      {
        succeeded: 1,
        startTime: "2024-06-01T11:00:00Z",
        completionTime: "2024-06-01T11:00:42Z",
        conditions: [
          { type: "SuccessCriteriaMet", status: "True" },
          { type: "Complete", status: "True" },
        ],
      },
    ),
    want: [
      "x",
      "Complete",
      "1/1",
      "42s",
      "60m",
      "work",
      "busybox",
      "batch.kubernetes.io/controller-uid=u1",
    ],
  },
  {
    name: "work queue job with parallelism and no start yet",
    printer: jobPrinter,
    object: job({ parallelism: 4 }, {}),
    want: [
      "x",
      "Running",
      "0/1 of 4",
      "",
      "60m",
      "work",
      "busybox",
      "batch.kubernetes.io/controller-uid=u1",
    ],
  },
  {
    name: "failed job",
    printer: jobPrinter,
    object: job({}, { conditions: [{ type: "Failed", status: "True" }] }),
    want: [
      "x",
      "Failed",
      "0/1",
      "",
      "60m",
      "work",
      "busybox",
      "batch.kubernetes.io/controller-uid=u1",
    ],
  },
  {
    name: "terminating beats suspended",
    printer: jobPrinter,
    object: job(
      {},
      { conditions: [{ type: "Suspended", status: "True" }] },
      { deletionTimestamp: "2024-06-01T11:59:00Z" },
    ),
    want: [
      "x",
      "Terminating",
      "0/1",
      "",
      "60m",
      "work",
      "busybox",
      "batch.kubernetes.io/controller-uid=u1",
    ],
  },
  {
    name: "suspended job; a False condition does not count",
    printer: jobPrinter,
    object: job(
      {},
      {
        conditions: [
          { type: "Complete", status: "False" },
          { type: "Suspended", status: "True" },
        ],
      },
    ),
    want: [
      "x",
      "Suspended",
      "0/1",
      "",
      "60m",
      "work",
      "busybox",
      "batch.kubernetes.io/controller-uid=u1",
    ],
  },
  {
    name: "failure target",
    printer: jobPrinter,
    object: job({}, { conditions: [{ type: "FailureTarget", status: "True" }] }),
    want: [
      "x",
      "FailureTarget",
      "0/1",
      "",
      "60m",
      "work",
      "busybox",
      "batch.kubernetes.io/controller-uid=u1",
    ],
  },
  {
    name: "PDB with minAvailable only shows N/A for maxUnavailable",
    printer: podDisruptionBudgetPrinter,
    object: { metadata, spec: { minAvailable: 2 }, status: { disruptionsAllowed: 1 } },
    want: ["x", "2", "N/A", 1, "60m"],
  },
  {
    name: "PDB with a percentage maxUnavailable",
    printer: podDisruptionBudgetPrinter,
    object: { metadata, spec: { maxUnavailable: "25%" } },
    want: ["x", "N/A", "25%", 0, "60m"],
  },
  {
    name: "lease holder",
    printer: leasePrinter,
    object: { metadata, spec: { holderIdentity: "gantry-scheduler-1" } },
    want: ["x", "gantry-scheduler-1", "60m"],
  },
  {
    name: "lease without holder",
    printer: leasePrinter,
    object: { metadata, spec: {} },
    want: ["x", "", "60m"],
  },
  {
    name: "priority class",
    printer: priorityClassPrinter,
    object: {
      metadata,
      value: 2000001000,
      globalDefault: false,
      preemptionPolicy: "PreemptLowerPriority",
    },
    want: ["x", 2000001000, false, "60m", "PreemptLowerPriority"],
  },
  {
    name: "global default priority class without preemption policy",
    printer: priorityClassPrinter,
    object: { metadata, value: 100, globalDefault: true },
    want: ["x", 100, true, "60m", ""],
  },
];

for (const c of cases) {
  test(`batchPolicyPrinters.printRow: ${c.name}`, () => {
    const row = c.printer.printRow(c.object, now);
    assert.deepEqual(row.cells, c.want);
    assert.equal(row.cells.length, c.printer.columns.length);
  });
}

test("jobPrinter.columns: the 1.30+ STATUS column comes second", () => {
  assert.deepEqual(
    jobPrinter.columns.filter((c) => c.priority === 0).map((c) => c.name),
    ["Name", "Status", "Completions", "Duration", "Age"],
  );
});

test("podDisruptionBudgetPrinter.columns: upstream headers and types", () => {
  assert.deepEqual(
    podDisruptionBudgetPrinter.columns.map((c) => `${c.name}:${c.type}`),
    [
      "Name:string",
      "Min Available:string",
      "Max Unavailable:string",
      "Allowed Disruptions:integer",
      "Age:string",
    ],
  );
});
