import assert from "node:assert/strict";
import { test } from "node:test";
import { FieldSet } from "./field-set.ts";
import {
  capUpdateManagers,
  decodeManagedFields,
  encodeManagedFields,
  type ManagerEntry,
  type Managers,
  managerIdentifier,
} from "./managers.ts";
import { field } from "./path-element.ts";

const identifierCases = [
  {
    name: "an updater is identified by name, operation and version",
    id: { manager: "kubectl-edit", operation: "Update", apiVersion: "v1", subresource: "" },
    want: '{"manager":"kubectl-edit","operation":"Update","apiVersion":"v1"}',
  },
  {
    name: "an applier's version is not part of its identity",
    id: { manager: "kubectl", operation: "Apply", apiVersion: "apps/v1", subresource: "" },
    want: '{"manager":"kubectl","operation":"Apply"}',
  },
  {
    name: "a subresource is part of the identity",
    id: { manager: "kubelet", operation: "Update", apiVersion: "v1", subresource: "status" },
    want: '{"manager":"kubelet","operation":"Update","apiVersion":"v1","subresource":"status"}',
  },
] as const;

for (const c of identifierCases) {
  test(`managerIdentifier: ${c.name}`, () => {
    assert.equal(managerIdentifier(c.id), c.want);
  });
}

const decodeErrors = [
  {
    name: "an unknown operation",
    entry: { operation: "Patch", apiVersion: "v1", fieldsType: "FieldsV1" },
    want: "operation must be `Apply` or `Update`",
  },
  {
    name: "an empty apiVersion",
    entry: { operation: "Apply", fieldsType: "FieldsV1" },
    want: "apiVersion must not be empty",
  },
  {
    name: "a missing fieldsType",
    entry: { operation: "Apply", apiVersion: "v1" },
    want: "missing fieldsType in managed fields entry 0",
  },
  {
    name: "another fieldsType",
    entry: { operation: "Apply", apiVersion: "v1", fieldsType: "FieldsV2" },
    want: 'invalid fieldsType "FieldsV2" in managed fields entry 0',
  },
] as const;

for (const c of decodeErrors) {
  test(`decodeManagedFields: rejects ${c.name}`, () => {
    assert.throws(() => decodeManagedFields([c.entry]), { message: c.want });
  });
}

function entry(
  manager: string,
  operation: "Apply" | "Update",
  time: string,
  path = "a",
): ManagerEntry {
  return {
    manager,
    operation,
    apiVersion: "v1",
    subresource: "",
    time,
    set: FieldSet.of([field(path)]),
  };
}

function managersOf(...entries: ManagerEntry[]): Managers {
  return new Map(entries.map((e) => [managerIdentifier(e), e]));
}

test("encodeManagedFields: Apply first, then oldest first, then by name", () => {
  const got = encodeManagedFields(
    managersOf(
      entry("z", "Update", "2024-01-01T00:00:00Z"),
      entry("b", "Update", "2024-01-01T00:00:05Z"),
      entry("a", "Update", "2024-01-01T00:00:05Z"),
      entry("late", "Apply", "2024-01-01T00:00:09Z"),
    ),
  );
  assert.deepEqual(
    got.map((e) => e.manager),
    ["late", "z", "a", "b"],
  );
  assert.deepEqual(got[0], {
    manager: "late",
    operation: "Apply",
    apiVersion: "v1",
    time: "2024-01-01T00:00:09Z",
    fieldsType: "FieldsV1",
    fieldsV1: { "f:a": {} },
  });
});

test("encodeManagedFields: an unchanged set keeps the FieldsV1 it was decoded from", () => {
  const fieldsV1 = { "f:b": {}, "f:a": {} };
  const decoded = decodeManagedFields([
    { manager: "m", operation: "Update", apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1 },
  ]);
  assert.equal(encodeManagedFields(decoded)[0]?.fieldsV1, fieldsV1);
});

test("capUpdateManagers: folds the oldest updaters beyond the cap into ancient-changes", () => {
  const entries = Array.from({ length: 4 }, (_, i) =>
    entry(`m${i}`, "Update", `2024-01-01T00:00:0${i}Z`, `f${i}`),
  );
  const got = capUpdateManagers(
    managersOf(...entries, entry("ap", "Apply", "2024-01-01T00:00:00Z")),
    2,
  );
  const encoded = encodeManagedFields(got);
  assert.deepEqual(
    encoded.map((e) => [e.manager, e.time, e.fieldsV1]),
    [
      ["ap", "2024-01-01T00:00:00Z", { "f:a": {} }],
      ["ancient-changes", "2024-01-01T00:00:02Z", { "f:f0": {}, "f:f1": {}, "f:f2": {} }],
      ["m3", "2024-01-01T00:00:03Z", { "f:f3": {} }],
    ],
  );
});
