import assert from "node:assert/strict";
import { test } from "node:test";
import { mergeTables, messageForKind, messageRegistry, protobufKinds } from "./registry.ts";
import { isScalarKind, isSpecialKind, val } from "./schema.ts";

test("messageRegistry: every field refers to a scalar, a special kind or a known message", () => {
  const missing: string[] = [];
  for (const [name, spec] of messageRegistry) {
    for (const field of spec) {
      const kind = field.kind;
      if (isScalarKind(kind) || isSpecialKind(kind) || messageRegistry.has(kind)) continue;
      missing.push(`${name}.${field.json || "(inline)"} → ${kind}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("messageRegistry: no message repeats a field number or a JSON name", () => {
  const clashes: string[] = [];
  for (const [name, spec] of messageRegistry) {
    const numbers = spec.map((f) => f.number);
    const names = spec.filter((f) => f.shape !== "inline").map((f) => f.json);
    if (new Set(numbers).size !== numbers.length) clashes.push(`${name}: field numbers`);
    if (new Set(names).size !== names.length) clashes.push(`${name}: JSON names`);
  }
  assert.deepEqual(clashes, []);
});

test("messageRegistry: inline fields always embed messages", () => {
  for (const [name, spec] of messageRegistry) {
    for (const field of spec.filter((f) => f.shape === "inline")) {
      assert.ok(messageRegistry.has(field.kind), `${name} inlines ${field.kind}`);
    }
  }
});

test("protobufKinds: every kind names a registered message", () => {
  for (const kind of protobufKinds) {
    assert.ok(messageRegistry.has(kind.message), `${kind.apiVersion} ${kind.kind}`);
  }
});

const lookupCases = [
  { apiVersion: "v1", kind: "ConfigMap", want: "ConfigMap" },
  { apiVersion: "apps/v1", kind: "Deployment", want: "Deployment" },
  {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    want: "HorizontalPodAutoscalerV2",
  },
  { apiVersion: "apps/v1beta1", kind: "Deployment", want: undefined },
  { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", want: "Role" },
  { apiVersion: "stable.example.com/v1", kind: "CronTab", want: undefined },
];

for (const c of lookupCases) {
  test(`messageForKind: ${c.apiVersion} ${c.kind} → ${String(c.want)}`, () => {
    assert.equal(messageForKind(c.apiVersion, c.kind), c.want);
  });
}

test("mergeTables: a message defined twice is a programming error", () => {
  assert.throws(
    () => mergeTables([{ A: [val(1, "a", "string")] }, { A: [] }]),
    /Message "A" is defined twice/,
  );
});
