import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";
import { applyMergePatch } from "./merge-patch.ts";

const deployment = (): JsonObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", labels: { app: "web", tier: "front" } },
  spec: {
    replicas: 1,
    template: { spec: { containers: [{ name: "nginx", image: "nginx:1.24" }] } },
  },
});

const cases = [
  {
    name: "scale sets a scalar",
    patch: { spec: { replicas: 3 } },
    want: {
      ...deployment(),
      spec: { ...(deployment()["spec"] as JsonObject), replicas: 3 },
    },
  },
  {
    name: "label adds a key and null deletes one (kubectl label)",
    patch: { metadata: { labels: { env: "prod", tier: null } } },
    want: { ...deployment(), metadata: { name: "web", labels: { app: "web", env: "prod" } } },
  },
  {
    name: "null deletes a whole subtree",
    patch: { spec: null },
    want: { apiVersion: "apps/v1", kind: "Deployment", metadata: deployment()["metadata"] ?? null },
  },
  {
    name: "arrays are replaced wholesale",
    patch: { spec: { template: { spec: { containers: [{ name: "redis" }] } } } },
    want: {
      ...deployment(),
      spec: { replicas: 1, template: { spec: { containers: [{ name: "redis" }] } } },
    },
  },
  {
    name: "a new object loses its null members at every depth",
    patch: { metadata: { annotations: { a: "1", b: null, c: { d: null, e: 2 } } } },
    want: {
      ...deployment(),
      metadata: {
        name: "web",
        labels: { app: "web", tier: "front" },
        annotations: { a: "1", c: { e: 2 } },
      },
    },
  },
  {
    name: "an object replacing a scalar loses its null members",
    patch: { kind: { a: null, b: 1 } },
    want: { ...deployment(), kind: { b: 1 } },
  },
  {
    name: "an array replacing an object keeps nulls inside it (library quirk)",
    patch: { metadata: [{ a: null }] },
    want: { ...deployment(), metadata: [{ a: null }] },
  },
  {
    name: "null for a missing key is a no-op",
    patch: { status: null },
    want: deployment(),
  },
  { name: "an empty patch changes nothing", patch: {}, want: deployment() },
] as const;

for (const c of cases) {
  test(`applyMergePatch: ${c.name}`, () => {
    const doc = deployment();
    const patch = structuredClone(c.patch) as JsonObject;
    const patchBefore = structuredClone(patch);
    const got = applyMergePatch(doc, patch);
    assert.deepEqual(got, c.want);
    assert.deepEqual(doc, deployment(), "the input document must not be mutated");
    assert.deepEqual(patch, patchBefore, "the patch must not be mutated");
  });
}

const rejected = [
  { name: "null", patch: null },
  { name: "a string", patch: "spec" },
  { name: "a number", patch: 3 },
  { name: "an array", patch: [{ spec: {} }] },
] as const;

for (const c of rejected) {
  test(`applyMergePatch: 400 Invalid JSON Patch for ${c.name}`, () => {
    assert.throws(
      () => applyMergePatch(deployment(), c.patch),
      (error: unknown) => {
        assert.ok(error instanceof ApiError, "error instanceof ApiError");
        assert.equal(error.code, 400);
        assert.equal(error.reason, "BadRequest");
        assert.equal(error.message, "Invalid JSON Patch");
        return true;
      },
    );
  });
}

test("applyMergePatch: the result shares no structure with the patch", () => {
  const patch: JsonObject = { metadata: { annotations: { a: "1" } } };
  const got = applyMergePatch(deployment(), patch);
  ((patch["metadata"] as JsonObject)["annotations"] as JsonObject)["a"] = "changed";
  assert.deepEqual((got["metadata"] as JsonObject)["annotations"], { a: "1" });
});
