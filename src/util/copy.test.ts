import assert from "node:assert/strict";
import { test } from "node:test";
import { deepCopy, jsonCopy } from "./copy.ts";

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

test("deepCopy and jsonCopy keep a __proto__ key as an own property, as JSON.parse does", () => {
  const parsed = JSON.parse('{"data":{"__proto__":{"x":"1"},"y":"2"}}') as {
    data: Record<string, unknown>;
  };
  for (const copy of [deepCopy(parsed), jsonCopy(parsed)]) {
    assert.equal(JSON.stringify(copy), JSON.stringify(parsed));
    assert.ok(Object.hasOwn(copy.data, "__proto__"), "an own property");
    assert.equal(Object.getPrototypeOf(copy.data), Object.prototype);
  }
});

test("jsonCopy gives what a JSON round trip gives", () => {
  const value = {
    a: undefined,
    b: [1, undefined, () => 2, Number.NaN, Number.POSITIVE_INFINITY, -0],
    c: { d: new Date(0), e: null, f: "x", g: false, h: Symbol("s") },
    nested: [[{ k: undefined }], []],
  };
  const roundTrip = JSON.parse(JSON.stringify(value)) as unknown;
  const copy = jsonCopy(value);
  assert.deepEqual(copy, roundTrip);
  assert.equal(JSON.stringify(copy), JSON.stringify(value));
  assert.ok(!("a" in copy), "an undefined property is left out");
});

test("jsonCopy shares nothing with its input", () => {
  const original = { metadata: { labels: { app: "web" } }, spec: { list: [{ x: 1 }] } };
  const copy = jsonCopy(original);
  copy.metadata.labels.app = "changed";
  copy.spec.list.push({ x: 2 });
  assert.equal(original.metadata.labels.app, "web");
  assert.equal(original.spec.list.length, 1);
});
