import assert from "node:assert/strict";
import { test } from "node:test";
import { crdPrinter, defaultPrinter, podPrinter } from "./printers/index.ts";
import { Tables } from "./tables.ts";

const v1 = crdPrinter([{ name: "Size", type: "string", jsonPath: ".spec.size" }]);
const v2 = crdPrinter([]);

const cases = [
  {
    name: "a custom resource version uses its own printer",
    set: [["example.com", "v1", "widgets", v1] as const],
    lookup: ["example.com", "v1", "widgets"] as const,
    want: v1,
  },
  {
    name: "another version of the same resource keeps its own columns",
    set: [
      ["example.com", "v1", "widgets", v1] as const,
      ["example.com", "v2", "widgets", v2] as const,
    ],
    lookup: ["example.com", "v2", "widgets"] as const,
    want: v2,
  },
  {
    name: "a removed printer falls back to the default convertor",
    set: [
      ["example.com", "v1", "widgets", v1] as const,
      ["example.com", "v1", "widgets", undefined] as const,
    ],
    lookup: ["example.com", "v1", "widgets"] as const,
    want: defaultPrinter,
  },
  {
    name: "built-in resources use their built-in printer in any version",
    set: [],
    lookup: ["", "v1", "pods"] as const,
    want: podPrinter,
  },
] as const;

for (const c of cases) {
  test(`Tables.printerOf: ${c.name}`, () => {
    const tables = new Tables();
    for (const [group, version, resource, printer] of c.set) {
      tables.setCustom(group, version, resource, printer);
    }
    const [group, version, resource] = c.lookup;
    assert.equal(tables.printerOf(group, version, resource), c.want);
  });
}
