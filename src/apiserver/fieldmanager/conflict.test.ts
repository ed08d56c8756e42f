import assert from "node:assert/strict";
import { test } from "node:test";
import { conflictError, conflictMessage, printManager } from "./conflict.ts";
import { field, key } from "./path-element.ts";

const printCases = [
  {
    name: "an applier by name",
    id: '{"manager":"kubectl","operation":"Apply"}',
    want: '"kubectl"',
  },
  {
    name: "an updater with its version",
    id: '{"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1"}',
    want: '"kube-controller-manager" using apps/v1',
  },
  {
    name: "a subresource after the name",
    id: '{"manager":"kubelet","operation":"Update","apiVersion":"v1","subresource":"status"}',
    want: '"kubelet" with subresource "status" using v1',
  },
  { name: "an unparsable identifier quoted whole", id: "legacy", want: '"legacy"' },
] as const;

for (const c of printCases) {
  test(`printManager: ${c.name}`, () => {
    assert.equal(printManager(c.id), c.want);
  });
}

const updater = '{"manager":"mgr","operation":"Update","apiVersion":"apps/v1"}';
const spec = field("spec");

test("conflictMessage: one conflict on one line, with upstream's path format", () => {
  const path = [
    spec,
    field("template"),
    field("spec"),
    field("containers"),
    key({ name: "nginx" }),
    field("image"),
  ];
  assert.equal(
    conflictMessage([{ manager: updater, path }]),
    'Apply failed with 1 conflict: conflict with "mgr" using apps/v1: .spec.template.spec.containers[name="nginx"].image',
  );
});

test("conflictError: a 409 with one FieldManagerConflict cause per field", () => {
  const error = conflictError([
    { manager: updater, path: [spec, field("replicas")] },
    { manager: updater, path: [spec, field("paused")] },
  ]);
  assert.equal(error.code, 409);
  assert.equal(
    error.message,
    'Apply failed with 2 conflicts: conflicts with "mgr" using apps/v1:\n- .spec.replicas\n- .spec.paused',
  );
  assert.deepEqual(error.toStatus().details, {
    causes: [
      {
        reason: "FieldManagerConflict",
        message: 'conflict with "mgr" using apps/v1',
        field: ".spec.replicas",
      },
      {
        reason: "FieldManagerConflict",
        message: 'conflict with "mgr" using apps/v1',
        field: ".spec.paused",
      },
    ],
  });
});
