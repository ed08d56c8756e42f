import assert from "node:assert/strict";
import { test } from "node:test";
import { deepCopy } from "./copy.ts";

test("deepCopy copies JSON values deeply, sharing nothing", () => {
  const original = {
    apiVersion: "v1",
    metadata: { name: "p", labels: { app: "web" }, finalizers: ["a", "b"] },
    spec: { containers: [{ name: "c", ports: [{ containerPort: 80 }] }], nested: [[1, 2], []] },
    status: null,
    flag: false,
    count: 0,
  };
  const copy = deepCopy(original);
  assert.deepEqual(copy, original);
  copy.metadata.labels.app = "changed";
  copy.spec.containers[0]?.ports.push({ containerPort: 81 });
  copy.spec.nested[0]?.push(3);
  assert.equal(original.metadata.labels.app, "web");
  assert.equal(original.spec.containers[0]?.ports.length, 1);
  assert.deepEqual(original.spec.nested, [[1, 2], []]);
});

test("deepCopy keeps undefined properties and copies frozen input into unfrozen output", () => {
  const frozen = Object.freeze({ a: Object.freeze({ b: 1 }), c: undefined });
  const copy = deepCopy(frozen);
  assert.ok(!Object.isFrozen(copy) && !Object.isFrozen(copy.a), "the copy can be changed");
  assert.ok("c" in copy, "an own undefined property stays");
});

test("deepCopy hands values that are not plain objects to structuredClone", () => {
  const bytes = new Uint8Array([1, 2, 3]);
  const when = new Date(0);
  const copy = deepCopy({ bytes, when, bare: Object.assign(Object.create(null), { x: 1 }) });
  assert.ok(copy.bytes instanceof Uint8Array, "a typed array stays a typed array");
  assert.notEqual(copy.bytes, bytes);
  assert.deepEqual([...copy.bytes], [1, 2, 3]);
  assert.ok(copy.when instanceof Date && copy.when.getTime() === 0, "a Date stays a Date");
  assert.equal(copy.bare.x, 1);
});
