import assert from "node:assert/strict";
import test from "node:test";
import { apiextensionsV1Definitions } from "../../apiextensions/v1/crd-schema.ts";
import { autoscalingV1Definitions } from "../../autoscaling/v1/scale.ts";
import { batchV1Definitions } from "../../batch/v1/kinds.ts";
import { coordinationV1Definitions } from "../../coordination/v1/schema.ts";
import { coreV1Definitions } from "../../core/v1/definitions.ts";
import { networkingV1Definitions } from "../../networking/v1/schema.ts";
import { policyV1beta1EvictionDefinitions, policyV1Definitions } from "../../policy/v1/schema.ts";
import { schedulingV1Definitions } from "../../scheduling/v1/schema.ts";
import { schedulingV1alpha1Definitions } from "../../scheduling/v1alpha1/schema.ts";
import { type Definitions, refName, type Schema } from "../../schema/schema.ts";
import { storageV1Definitions } from "../../storage/v1/schema.ts";
import { appsV1Definitions } from "./definitions.ts";

/** Every `$ref` inside a schema, following its sub-schemas (not property names, which may be `$ref`). */
function refsIn(schema: Schema | undefined, out: string[] = []): string[] {
  if (schema === undefined) return out;
  const name = refName(schema);
  if (name !== undefined) out.push(name);
  for (const sub of Object.values(schema.properties ?? {})) refsIn(sub, out);
  if (typeof schema.additionalProperties === "object") refsIn(schema.additionalProperties, out);
  refsIn(schema.items, out);
  refsIn(schema.not, out);
  for (const sub of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    refsIn(sub, out);
  }
  return out;
}

const groups: Record<string, Definitions> = {
  "apps/v1": appsV1Definitions,
  "batch/v1": batchV1Definitions,
  "policy/v1": { ...policyV1Definitions, ...policyV1beta1EvictionDefinitions },
  "coordination.k8s.io/v1": coordinationV1Definitions,
  "scheduling.k8s.io/v1": schedulingV1Definitions,
  "scheduling.k8s.io/v1alpha1": schedulingV1alpha1Definitions,
  "apiextensions.k8s.io/v1": apiextensionsV1Definitions,
  "autoscaling/v1": autoscalingV1Definitions,
  "networking.k8s.io/v1": networkingV1Definitions,
  "storage.k8s.io/v1": storageV1Definitions,
};

const union: Definitions = { ...coreV1Definitions, ...Object.assign({}, ...Object.values(groups)) };

for (const [group, definitions] of Object.entries(groups)) {
  test(`definitions: every $ref in ${group} resolves against core's and this area's definitions`, () => {
    const dangling = Object.entries(definitions).flatMap(([name, schema]) =>
      refsIn(schema)
        .filter((r) => union[r] === undefined)
        .map((r) => `${name} -> ${r}`),
    );
    assert.deepEqual(dangling, []);
  });

  test(`definitions: ${group} does not redefine a core or meta name`, () => {
    const clashes = Object.keys(definitions).filter(
      (name) => coreV1Definitions[name] !== undefined,
    );
    assert.deepEqual(clashes, []);
  });
}

test("definitions: every top-level kind carries its group/version/kind", () => {
  const kinds = Object.entries(union)
    .filter(
      ([name]) => !name.startsWith("io.k8s.api.core.") && !name.startsWith("io.k8s.apimachinery."),
    )
    .filter(([, s]) => s["x-kubernetes-group-version-kind"] !== undefined)
    .map(([name]) => name.split(".").pop());
  for (const kind of [
    "Deployment",
    "Job",
    "PodDisruptionBudget",
    "Lease",
    "PriorityClass",
    "Workload",
    "PodGroup",
    "CustomResourceDefinition",
    "Scale",
    "Eviction",
    "Ingress",
    "IngressClass",
    "NetworkPolicy",
    "StorageClass",
  ]) {
    assert.ok(kinds.includes(kind), `${kind} has no x-kubernetes-group-version-kind`);
  }
});
