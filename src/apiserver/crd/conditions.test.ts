import assert from "node:assert/strict";
import { test } from "node:test";
import type { CustomResourceDefinition } from "../../api/index.ts";
import { findCrdCondition, setCrdCondition } from "./conditions.ts";

function crdWith(status: "True" | "False"): CustomResourceDefinition {
  return {
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", kind: "Widget" },
      versions: [],
    },
    status: {
      conditions: [
        { type: "NamesAccepted", status: "True", lastTransitionTime: "2024-01-01T00:00:00Z" },
        { type: "Established", status, lastTransitionTime: "2024-01-01T00:00:00Z", reason: "X" },
      ],
    },
  };
}

const cases = [
  {
    name: "an unchanged status keeps the transition time and takes the new reason",
    crd: crdWith("True"),
    set: { type: "Established", status: "True", reason: "Y", message: "m" },
    want: {
      type: "Established",
      status: "True",
      lastTransitionTime: "2024-01-01T00:00:00Z",
      reason: "Y",
      message: "m",
    },
  },
  {
    name: "a changed status moves the transition time to now",
    crd: crdWith("False"),
    set: { type: "Established", status: "True", reason: "Y" },
    want: {
      type: "Established",
      status: "True",
      lastTransitionTime: "2025-06-01T00:00:00Z",
      reason: "Y",
    },
  },
  {
    name: "a new type is appended after the others",
    crd: crdWith("True"),
    set: { type: "Terminating", status: "True", reason: "InstanceDeletionPending" },
    want: {
      type: "Terminating",
      status: "True",
      lastTransitionTime: "2025-06-01T00:00:00Z",
      reason: "InstanceDeletionPending",
    },
  },
] as const;

for (const c of cases) {
  test(`setCrdCondition: ${c.name}`, () => {
    const crd = structuredClone(c.crd);
    setCrdCondition(crd, c.set, "2025-06-01T00:00:00Z");
    assert.deepEqual(findCrdCondition(crd, c.set.type), c.want);
    assert.deepEqual(
      crd.status?.conditions?.map((x) => x.type),
      c.set.type === "Terminating"
        ? ["NamesAccepted", "Established", "Terminating"]
        : ["NamesAccepted", "Established"],
    );
  });
}

test("findCrdCondition: undefined when the CRD has no status", () => {
  const crd = crdWith("True");
  delete crd.status;
  assert.equal(findCrdCondition(crd, "Established"), undefined);
});
