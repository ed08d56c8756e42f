import assert from "node:assert/strict";
import { test } from "node:test";
import { limitRangePrinter, resourceQuotaPrinter } from "./quota.ts";
import type { TableCell, TablePrinter } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");
const metadata = { name: "q", creationTimestamp: "2024-06-01T09:00:00Z" }; // 3h

const cases: {
  name: string;
  printer: TablePrinter;
  object: Record<string, unknown>;
  want: TableCell[];
}[] = [
  {
    name: "resourcequota: used/hard per resource, sorted, limits.* in LIMIT",
    printer: resourceQuotaPrinter,
    object: {
      metadata,
      spec: { hard: { pods: "2", "limits.memory": "2Gi", cpu: "1", "limits.cpu": "2" } },
      status: {
        hard: { pods: "2", "limits.memory": "2Gi", cpu: "1", "limits.cpu": "2" },
        used: { pods: "1", "limits.memory": "512Mi", cpu: "500m", "limits.cpu": "1" },
      },
    },
    want: ["q", "3h", "cpu: 500m/1, pods: 1/2", "limits.cpu: 1/2, limits.memory: 512Mi/2Gi"],
  },
  {
    name: "resourcequota: before the controller ran, used and hard print 0",
    printer: resourceQuotaPrinter,
    object: { metadata, spec: { hard: { pods: "2", "count/deployments.apps": "1" } } },
    want: ["q", "3h", "count/deployments.apps: 0/0, pods: 0/0", ""],
  },
  {
    name: "resourcequota: a resource only in status.hard is not shown",
    printer: resourceQuotaPrinter,
    object: { metadata, spec: { hard: {} }, status: { hard: { pods: "1" }, used: { pods: "1" } } },
    want: ["q", "3h", "", ""],
  },
  {
    name: "limitrange: the creation timestamp itself",
    printer: limitRangePrinter,
    object: { metadata: { name: "limits", creationTimestamp: "2024-06-01T09:00:00Z" } },
    want: ["limits", "2024-06-01T09:00:00Z"],
  },
];

for (const c of cases) {
  test(`printers: ${c.name}`, () => {
    assert.deepEqual(c.printer.printRow(c.object, now).cells, c.want);
  });
}

test("printers: the quota and limit range columns are upstream's", () => {
  assert.deepEqual(
    resourceQuotaPrinter.columns.map((col) => [col.name, col.type, col.priority]),
    [
      ["Name", "string", 0],
      ["Age", "string", 0],
      ["Request", "string", 0],
      ["Limit", "string", 0],
    ],
  );
  assert.deepEqual(
    limitRangePrinter.columns.map((col) => [col.name, col.type]),
    [
      ["Name", "string"],
      ["Created At", "date"],
    ],
  );
});
