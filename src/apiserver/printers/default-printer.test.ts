import assert from "node:assert/strict";
import { test } from "node:test";
import { type CustomResourceColumn, crdPrinter, defaultPrinter } from "./default-printer.ts";
import type { TableCell } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");

test("defaultPrinter.printRow: NAME and an RFC3339 CREATED AT, not humanized", () => {
  const row = defaultPrinter.printRow(
    { metadata: { name: "widgets.example.com", creationTimestamp: "2024-05-01T10:00:00.000Z" } },
    now,
  );
  assert.deepEqual(row.cells, ["widgets.example.com", "2024-05-01T10:00:00Z"]);
  assert.deepEqual(
    defaultPrinter.columns.map((c) => [c.name, c.type, c.format]),
    [
      ["Name", "string", "name"],
      ["Created At", "date", ""],
    ],
  );
});

test("defaultPrinter.printRow: a missing timestamp prints Go's zero time", () => {
  assert.deepEqual(defaultPrinter.printRow({ metadata: { name: "a" } }, now).cells, [
    "a",
    "0001-01-01T00:00:00Z",
  ]);
});

const widgetColumns: CustomResourceColumn[] = [
  { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
  { name: "Phase", type: "string", jsonPath: ".status.phase", description: "Current phase." },
  { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: "Ratio", type: "number", jsonPath: ".status.ratio", priority: 1 },
  { name: "Paused", type: "boolean", jsonPath: ".spec.paused" },
  { name: "Selector", type: "string", jsonPath: ".spec.selector" },
  { name: "Started", type: "date", jsonPath: ".status.startTime" },
];

const widget = {
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name: "w1", creationTimestamp: "2024-06-01T11:00:00Z" },
  spec: { replicas: 3, paused: false, selector: { app: "w", tier: "x" } },
  status: {
    phase: "Running",
    ratio: 0.5,
    startTime: "2024-06-01T11:30:00Z",
    conditions: [{ type: "Ready", status: "True" }],
  },
};

const crCases: { name: string; object: Record<string, unknown>; want: TableCell[] }[] = [
  {
    name: "typed cells from jsonPath",
    object: widget,
    want: ["w1", 3, "Running", "True", 0.5, false, "map[app:w tier:x]", "30m"],
  },
  {
    name: "missing values are null",
    object: { metadata: { name: "w2" } },
    want: ["w2", null, null, null, null, null, null, null],
  },
  {
    name: "mistyped values are null, unparsable dates <invalid>",
    object: {
      metadata: { name: "w3" },
      spec: { replicas: "three", paused: "no" },
      status: { ratio: "half", startTime: "soon", phase: 7 },
    },
    want: ["w3", null, "7", null, null, null, null, "<invalid>"],
  },
];

for (const c of crCases) {
  test(`crdPrinter.printRow: ${c.name}`, () => {
    assert.deepEqual(crdPrinter(widgetColumns).printRow(c.object, now).cells, c.want);
  });
}

test("crdPrinter.columns: NAME first, descriptions default to the jsonPath, priorities kept", () => {
  const columns = crdPrinter(widgetColumns).columns;
  assert.equal(columns[0]?.name, "Name");
  assert.equal(
    columns[1]?.description,
    "Custom resource definition column (in JSONPath format): .spec.replicas",
  );
  assert.equal(columns[2]?.description, "Current phase.");
  assert.equal(columns[4]?.priority, 1);
  assert.equal(columns.length, widgetColumns.length + 1);
});

test("crdPrinter: no columns means a single humanized Age date column", () => {
  const printer = crdPrinter([]);
  assert.deepEqual(
    printer.columns.map((c) => [c.name, c.type]),
    [
      ["Name", "string"],
      ["Age", "date"],
    ],
  );
  assert.deepEqual(printer.printRow(widget, now).cells, ["w1", "60m"]);
});

test("crdPrinter: a malformed jsonPath throws SyntaxError at construction", () => {
  assert.throws(
    () => crdPrinter([{ name: "Bad", type: "string", jsonPath: ".spec[" }]),
    SyntaxError,
  );
});
