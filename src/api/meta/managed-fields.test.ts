import assert from "node:assert/strict";
import { test } from "node:test";
import { withoutManagedFields } from "./managed-fields.ts";

test("withoutManagedFields: a shallow copy without metadata.managedFields", () => {
  const spec = { replicas: 1 };
  const object = {
    kind: "ConfigMap",
    metadata: { name: "a", managedFields: [{ manager: "m" }] },
    spec,
  };
  const stripped = withoutManagedFields(object);
  assert.deepEqual(stripped, { kind: "ConfigMap", metadata: { name: "a" }, spec });
  assert.equal(stripped.spec, spec, "the rest is shared, not copied");
  assert.deepEqual(object.metadata.managedFields, [{ manager: "m" }], "the input is unchanged");
});

test("withoutManagedFields: an object without them comes back as it is", () => {
  const object = { metadata: { name: "a" } };
  assert.equal(withoutManagedFields(object), object);
  const bare = { kind: "Status" };
  assert.equal(withoutManagedFields(bare), bare);
});
