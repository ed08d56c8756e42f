import assert from "node:assert/strict";
import test from "node:test";
import { ApiError } from "../../errors.ts";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { decodeEviction, validateEviction } from "./eviction.ts";

test("decodeEviction: accepts the kubectl drain body and fills the namespace", () => {
  const eviction = decodeEviction(
    { apiVersion: "policy/v1", kind: "Eviction", metadata: { name: "web-0" }, deleteOptions: {} },
    "default",
    "web-0",
  );
  assert.deepEqual(eviction, {
    apiVersion: "policy/v1",
    kind: "Eviction",
    metadata: { name: "web-0", namespace: "default" },
    deleteOptions: {},
  });
});

test("decodeEviction: accepts policy/v1beta1", () => {
  const e = decodeEviction(
    { apiVersion: "policy/v1beta1", kind: "Eviction", metadata: { name: "p" } },
    "ns",
    "p",
  );
  assert.equal(e.apiVersion, "policy/v1beta1");
});

const rejections = [
  {
    name: "a name that differs from the URL",
    body: { apiVersion: "policy/v1", kind: "Eviction", metadata: { name: "other" } },
    want: "name in URL does not match name in Eviction object",
  },
  {
    name: "a namespace that differs from the request",
    body: { metadata: { name: "web-0", namespace: "kube-system" } },
    want: "the namespace of the provided object does not match the namespace sent on the request",
  },
  {
    name: "a body of another kind",
    body: { apiVersion: "v1", kind: "Pod", metadata: { name: "web-0" } },
    want: 'Eviction in version "v1" cannot be handled as a Eviction: apiVersion "v1" is not one of "policy/v1", "policy/v1beta1"',
  },
] as const;

for (const c of rejections) {
  test(`decodeEviction: rejects ${c.name} with 400`, () => {
    assert.throws(
      () => decodeEviction(c.body, "default", "web-0"),
      (error: unknown) =>
        error instanceof ApiError && error.code === 400 && error.message === c.want,
    );
  });
}

test("validateEviction: checks deleteOptions as DELETE does", () => {
  const errs = validateEviction({
    metadata: { name: "p" },
    deleteOptions: { orphanDependents: true, propagationPolicy: "Orphan", dryRun: ["Some"] },
  });
  assert.deepEqual(errs.map(fieldErrorString), [
    'deleteOptions.propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    'deleteOptions.dryRun: Unsupported value: "Some": supported values: "All"',
  ]);
});
