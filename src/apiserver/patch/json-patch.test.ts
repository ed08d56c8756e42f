import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";
import { applyJsonPatch } from "./json-patch.ts";

const configMap = (): JsonObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: {
    name: "cfg",
    namespace: "default",
    resourceVersion: "7",
    annotations: { "example.com/owner": "team-a", "a~b": "tilde" },
  },
  data: { a: "1", b: "2" },
  items: ["x", "y", "z"],
});

const meta = { name: "cfg", namespace: "default", resourceVersion: "7" };

const applies = [
  {
    name: "add creates an object member",
    patch: [{ op: "add", path: "/data/c", value: "3" }],
    want: { data: { a: "1", b: "2", c: "3" } },
  },
  {
    name: "add replaces an existing object member",
    patch: [{ op: "add", path: "/data/a", value: "10" }],
    want: { data: { a: "10", b: "2" } },
  },
  {
    name: "add inserts into an array at an index",
    patch: [{ op: "add", path: "/items/1", value: "new" }],
    want: { items: ["x", "new", "y", "z"] },
  },
  {
    name: "add appends with the - index",
    patch: [{ op: "add", path: "/items/-", value: "end" }],
    want: { items: ["x", "y", "z", "end"] },
  },
  {
    name: "add at the array length appends",
    patch: [{ op: "add", path: "/items/3", value: "end" }],
    want: { items: ["x", "y", "z", "end"] },
  },
  {
    name: "add accepts a negative index counted from the end (library quirk)",
    patch: [{ op: "add", path: "/items/-1", value: "last" }],
    want: { items: ["x", "y", "z", "last"] },
  },
  {
    name: "add without value stores null",
    patch: [{ op: "add", path: "/data/c" }],
    want: { data: { a: "1", b: "2", c: null } },
  },
  {
    name: "remove deletes an object member",
    patch: [{ op: "remove", path: "/data/a" }],
    want: { data: { b: "2" } },
  },
  {
    name: "remove deletes an array element",
    patch: [{ op: "remove", path: "/items/0" }],
    want: { items: ["y", "z"] },
  },
  {
    name: "replace changes an object member",
    patch: [{ op: "replace", path: "/data/b", value: "20" }],
    want: { data: { a: "1", b: "20" } },
  },
  {
    name: "replace changes an array element",
    patch: [{ op: "replace", path: "/items/2", value: "Z" }],
    want: { items: ["x", "y", "Z"] },
  },
  {
    name: "~1 in a segment is a slash (annotation keys)",
    patch: [{ op: "replace", path: "/metadata/annotations/example.com~1owner", value: "b" }],
    want: { metadata: { ...meta, annotations: { "example.com/owner": "b", "a~b": "tilde" } } },
  },
  {
    name: "~0 in a segment is a tilde",
    patch: [{ op: "remove", path: "/metadata/annotations/a~0b" }],
    want: { metadata: { ...meta, annotations: { "example.com/owner": "team-a" } } },
  },
  {
    name: "move relocates a value",
    patch: [{ op: "move", from: "/data/a", path: "/data/z" }],
    want: { data: { b: "2", z: "1" } },
  },
  {
    name: "copy duplicates a value",
    patch: [{ op: "copy", from: "/items", path: "/copied" }],
    want: { items: ["x", "y", "z"], copied: ["x", "y", "z"] },
  },
  {
    name: "test that holds lets the following operations run",
    patch: [
      { op: "test", path: "/metadata/resourceVersion", value: "7" },
      { op: "replace", path: "/data/a", value: "one" },
    ],
    want: { data: { a: "one", b: "2" } },
  },
  {
    name: "test compares objects structurally",
    patch: [{ op: "test", path: "/data", value: { b: "2", a: "1" } }],
    want: {},
  },
  {
    name: "replace of the whole document with an object",
    patch: [{ op: "replace", path: "", value: { kind: "ConfigMap", data: {} } }],
    wantWhole: { kind: "ConfigMap", data: {} },
  },
  {
    name: "kubectl's client-side to server-side apply migration patch",
    patch: [
      { op: "replace", path: "/metadata/resourceVersion", value: "8" },
      { op: "add", path: "/metadata/managedFields", value: [{ manager: "kubectl" }] },
    ],
    want: {
      metadata: {
        name: "cfg",
        namespace: "default",
        resourceVersion: "8",
        annotations: { "example.com/owner": "team-a", "a~b": "tilde" },
        managedFields: [{ manager: "kubectl" }],
      },
    },
  },
  { name: "a null patch changes nothing", patch: null, want: {} },
  { name: "an empty patch changes nothing", patch: [], want: {} },
] as const;

for (const c of applies) {
  test(`applyJsonPatch: ${c.name}`, () => {
    const doc = configMap();
    const before = structuredClone(doc);
    const got = applyJsonPatch(doc, structuredClone(c.patch));
    const want = "wantWhole" in c ? c.wantWhole : { ...configMap(), ...c.want };
    assert.deepEqual(got, want);
    assert.deepEqual(doc, before, "the input document must not be mutated");
  });
}

const doesNotApply = [
  {
    name: "replace of a missing key",
    patch: [{ op: "replace", path: "/data/nope", value: "x" }],
    message: "replace operation does not apply: doc is missing key: /data/nope: missing value",
  },
  {
    name: "replace under a missing parent",
    patch: [{ op: "replace", path: "/spec/replicas", value: 3 }],
    message: "replace operation does not apply: doc is missing path: /spec/replicas: missing value",
  },
  {
    name: "replace past the end of an array",
    patch: [{ op: "replace", path: "/items/3", value: "w" }],
    message: "replace operation does not apply: doc is missing key: /items/3: missing value",
  },
  {
    name: "replace without a path",
    patch: [{ op: "replace", value: "x" }],
    message: "replace operation failed to decode path: operation missing path field: missing value",
  },
  {
    name: "add under a missing parent (JSON patch never creates parents)",
    patch: [{ op: "add", path: "/metadata/labels/app", value: "web" }],
    message:
      'add operation does not apply: doc is missing path: "/metadata/labels/app": missing value',
  },
  {
    name: "add with a pointer lacking the leading slash",
    patch: [{ op: "add", path: "data", value: {} }],
    message: 'add operation does not apply: doc is missing path: "data": missing value',
  },
  {
    name: "add past the end of an array",
    patch: [{ op: "add", path: "/items/5", value: "w" }],
    message:
      "error in add for path: '/items/5': Unable to access invalid index: 5: invalid index referenced",
  },
  {
    name: "add with a non-numeric array index",
    patch: [{ op: "add", path: "/items/x", value: "w" }],
    message:
      "error in add for path: '/items/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax",
  },
  {
    name: "add without a path",
    patch: [{ op: "add", value: "x" }],
    message: "add operation failed to decode path: missing value",
  },
  {
    name: "remove of a missing key",
    patch: [{ op: "remove", path: "/data/nope" }],
    message:
      "error in remove for path: '/data/nope': Unable to remove nonexistent key: nope: missing value",
  },
  {
    name: "remove past the end of an array",
    patch: [{ op: "remove", path: "/items/3" }],
    message:
      "error in remove for path: '/items/3': Unable to access invalid index: 3: invalid index referenced",
  },
  {
    name: "remove with the - index",
    patch: [{ op: "remove", path: "/items/-" }],
    message: "error in remove for path: '/items/-': strconv.Atoi: parsing \"-\": invalid syntax",
  },
  {
    name: "remove under a missing parent",
    patch: [{ op: "remove", path: "/spec/x" }],
    message: 'remove operation does not apply: doc is missing path: "/spec/x": missing value',
  },
  {
    name: "test with a different value",
    patch: [{ op: "test", path: "/data/a", value: "2" }],
    message: "testing value /data/a failed: test failed",
  },
  {
    name: "test of a missing key",
    patch: [{ op: "test", path: "/data/nope", value: "2" }],
    message:
      "error in test for path: '/data/nope': unable to get nonexistent key: nope: missing value",
  },
  {
    name: "test under a missing parent",
    patch: [{ op: "test", path: "/spec/x", value: 1 }],
    message: "test operation does not apply: is missing path: /spec/x: missing value",
  },
  {
    name: "move from a missing key names the key, not the path (library quirk)",
    patch: [{ op: "move", from: "/data/nope", path: "/data/c" }],
    message: "error in move for path: 'nope': unable to get nonexistent key: nope: missing value",
  },
  {
    name: "move without from",
    patch: [{ op: "move", path: "/data/c" }],
    message: "move operation failed to decode from: operation, missing from field: missing value",
  },
  {
    name: "move to a missing destination parent",
    patch: [{ op: "move", from: "/data/a", path: "/spec/a" }],
    message:
      "move operation does not apply: doc is missing destination path: /spec/a: missing value",
  },
  {
    name: "copy from a missing key",
    patch: [{ op: "copy", from: "/data/nope", path: "/data/c" }],
    message:
      "error in copy for from: '/data/nope': unable to get nonexistent key: nope: missing value",
  },
  {
    name: "copy to an out-of-range index",
    patch: [{ op: "copy", from: "/data/a", path: "/items/9" }],
    message:
      "error while adding value during copy: Unable to access invalid index: 9: invalid index referenced",
  },
  {
    name: "an unknown op",
    patch: [{ op: "frobnicate", path: "/data/a" }],
    message: "Unexpected kind: frobnicate",
  },
  {
    name: "an operation without op",
    patch: [{ path: "/data/a", value: "x" }],
    message: "Unexpected kind: unknown",
  },
  {
    name: "a null operation",
    patch: [null],
    message: "Unexpected kind: unknown",
  },
  {
    name: "a failure after a successful operation",
    patch: [
      { op: "replace", path: "/data/a", value: "changed" },
      { op: "test", path: "/metadata/resourceVersion", value: "6" },
    ],
    message: "testing value /metadata/resourceVersion failed: test failed",
  },
] as const;

for (const c of doesNotApply) {
  test(`applyJsonPatch: 422 Invalid for ${c.name}`, () => {
    const doc = configMap();
    const before = structuredClone(doc);
    assert.throws(
      () => applyJsonPatch(doc, structuredClone(c.patch)),
      (error: unknown) => {
        assert.ok(error instanceof ApiError, "error instanceof ApiError");
        assert.equal(error.code, 422);
        assert.equal(error.reason, "Invalid");
        assert.equal(error.message, c.message);
        assert.deepEqual(error.toStatus().details, {});
        return true;
      },
    );
    assert.deepEqual(doc, before, "a failed patch must leave the input untouched");
  });
}

const malformed = [
  {
    name: "an object instead of a list",
    patch: { op: "add" },
    code: 400,
    message: "json: cannot unmarshal object into Go value of type jsonpatch.Patch",
  },
  {
    name: "a string instead of a list",
    patch: "add",
    code: 400,
    message: "json: cannot unmarshal string into Go value of type jsonpatch.Patch",
  },
  {
    name: "a list element that is not an object",
    patch: [{ op: "add", path: "/a", value: 1 }, 7],
    code: 400,
    message: "json: cannot unmarshal number into Go value of type jsonpatch.Operation",
  },
  {
    name: "more than 10000 operations",
    patch: Array.from({ length: 10001 }, () => ({ op: "test", path: "/kind", value: "ConfigMap" })),
    code: 413,
    message:
      "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
  },
] as const;

for (const c of malformed) {
  test(`applyJsonPatch: ${c.code} for ${c.name}`, () => {
    assert.throws(
      () => applyJsonPatch(configMap(), c.patch),
      (error: unknown) => {
        assert.ok(error instanceof ApiError, "error instanceof ApiError");
        assert.equal(error.code, c.code);
        assert.equal(error.message, c.message);
        return true;
      },
    );
  });
}

test("applyJsonPatch: the result shares no structure with the patch values", () => {
  const value = { nested: ["a"] };
  const got = applyJsonPatch(configMap(), [{ op: "add", path: "/extra", value }]);
  value.nested.push("b");
  assert.deepEqual(got["extra"], { nested: ["a"] });
});
