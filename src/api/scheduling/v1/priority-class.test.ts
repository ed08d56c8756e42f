import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { defaultPriorityClass, priorityClassKind } from "./kinds.ts";
import type { PriorityClass } from "./priority-class.ts";
import { validatePriorityClass, validatePriorityClassUpdate } from "./priority-class-validation.ts";

const cases: { name: string; pc: PriorityClass; want: string[] }[] = [
  { name: "a user class", pc: { metadata: { name: "high" }, value: 1000 }, want: [] },
  {
    name: "a user class above one billion",
    pc: { metadata: { name: "huge" }, value: 1_000_000_001 },
    want: ["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"],
  },
  {
    name: "the built-in node-critical class",
    pc: { metadata: { name: "system-node-critical" }, value: 2000001000 },
    want: [],
  },
  {
    name: "an unknown system- class",
    pc: { metadata: { name: "system-mine" }, value: 1 },
    want: [
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    ],
  },
  {
    name: "a namespaced class",
    pc: { metadata: { name: "x", namespace: "ns" }, value: 1 },
    want: ["metadata.namespace: Forbidden: not allowed on this type"],
  },
  {
    name: "an unknown preemption policy",
    pc: { metadata: { name: "x" }, value: 1, preemptionPolicy: "Always" as "Never" },
    want: [
      'preemptionPolicy: Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"',
    ],
  },
];

for (const c of cases) {
  test(`validatePriorityClass: ${c.name}`, () => {
    assert.deepEqual(validatePriorityClass(c.pc).map(fieldErrorString), c.want);
  });
}

test("validatePriorityClassUpdate: value and preemptionPolicy are immutable", () => {
  const old: PriorityClass = { metadata: { name: "x", resourceVersion: "1" }, value: 1 };
  defaultPriorityClass(old);
  const next: PriorityClass = { ...structuredClone(old), value: 2, preemptionPolicy: "Never" };
  assert.deepEqual(validatePriorityClassUpdate(next, old).map(fieldErrorString), [
    "value: Forbidden: may not be changed in an update.",
    'preemptionPolicy: Invalid value: "Never": field is immutable',
  ]);
});

test("priorityClassKind: cluster-scoped priorityclasses (pc), defaulting PreemptLowerPriority", () => {
  assert.equal(priorityClassKind.namespaced, false);
  assert.deepEqual(priorityClassKind.shortNames, ["pc"]);
  const pc: PriorityClass = { metadata: { name: "x" }, value: 1 };
  priorityClassKind.applyDefaults(pc);
  assert.equal(pc.preemptionPolicy, "PreemptLowerPriority");
});
