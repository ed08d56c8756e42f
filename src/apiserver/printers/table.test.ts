import assert from "node:assert/strict";
import { test } from "node:test";
import { podPrinter } from "./pod.ts";
import { type TablePrinter, toTable, watchEventTable } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");

const namePrinter: TablePrinter = {
  columns: [{ name: "Name", type: "string", format: "name", description: "", priority: 0 }],
  printRow: (object) => ({ cells: [String((object["metadata"] as { name: string }).name)] }),
};

const pod = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    name: "web-1",
    namespace: "default",
    resourceVersion: "42",
    labels: { app: "web" },
    creationTimestamp: "2024-06-01T11:55:00Z",
  },
  spec: { containers: [{ name: "app" }] },
  status: { phase: "Succeeded" },
};

test("toTable: the meta.k8s.io/v1 shape with PartialObjectMetadata rows by default", () => {
  const table = toTable(namePrinter, [pod], {
    now,
    listMeta: { resourceVersion: "100", continue: "abc", remainingItemCount: 3 },
  });
  assert.deepEqual(table, {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: { resourceVersion: "100", continue: "abc", remainingItemCount: 3 },
    columnDefinitions: namePrinter.columns,
    rows: [
      {
        cells: ["web-1"],
        object: {
          kind: "PartialObjectMetadata",
          apiVersion: "meta.k8s.io/v1",
          metadata: pod.metadata,
        },
      },
    ],
  });
});

const policyCases = [
  {
    name: "Metadata",
    policy: "Metadata",
    want: { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: pod.metadata },
  },
  { name: "Object", policy: "Object", want: pod },
  { name: "None", policy: "None", want: null },
] as const;

for (const c of policyCases) {
  test(`toTable: includeObject=${c.name}`, () => {
    const table = toTable(namePrinter, [pod], { now, includeObject: c.policy });
    assert.deepEqual(table.rows[0]?.object, c.want);
  });
}

test("toTable: empty list, empty metadata, headers suppressed on request", () => {
  const table = toTable(namePrinter, [], { now, noHeaders: true, listMeta: { continue: "" } });
  assert.deepEqual(table.metadata, {});
  assert.deepEqual(table.rows, []);
  assert.equal(table.columnDefinitions, null);
});

test("toTable: row conditions from the printer are kept, key order matches upstream", () => {
  const table = toTable(podPrinter, [pod], { now });
  const row = table.rows[0];
  assert.deepEqual(Object.keys(row ?? {}), ["cells", "conditions", "object"]);
  assert.equal(row?.conditions?.[0]?.type, "Completed");
  assert.deepEqual(row?.cells.slice(0, 5), ["web-1", "0/1", "Succeeded", "0", "5m"]);
});

test("watchEventTable: headers on the first event only, resourceVersion from the object", () => {
  const first = watchEventTable(namePrinter, pod, { now, first: true });
  const later = watchEventTable(namePrinter, pod, { now, first: false, includeObject: "None" });
  assert.deepEqual(first.columnDefinitions, namePrinter.columns);
  assert.equal(later.columnDefinitions, null);
  assert.deepEqual(first.metadata, { resourceVersion: "42" });
  assert.equal(first.rows.length, 1);
  assert.equal(later.rows[0]?.object, null);
  assert.equal(JSON.parse(JSON.stringify(later)).columnDefinitions, null);
});
