/** The `policy/v1` KindDefinitions. */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import type { SchemaRoot } from "../../schema/schema.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import type { PodDisruptionBudget } from "./pod-disruption-budget.ts";
import {
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetUpdate,
} from "./pod-disruption-budget-validation.ts";
import { policyName, policyV1Definitions } from "./schema.ts";

function root(name: string): SchemaRoot {
  const definitions = { ...externalDefinitions(), ...policyV1Definitions };
  const schema = definitions[name];
  if (schema === undefined) throw new RangeError(`Cannot find schema definition "${name}"`);
  return { schema, definitions };
}

/** policy/v1 has no defaulting for PDBs: `unhealthyPodEvictionPolicy` and `budgetScope` stay unset. */
export function defaultPodDisruptionBudget(_pdb: PodDisruptionBudget): void {}

export const podDisruptionBudgetKind: KindDefinition<PodDisruptionBudget> = {
  group: "policy",
  version: "v1",
  kind: "PodDisruptionBudget",
  listKind: "PodDisruptionBudgetList",
  resource: "poddisruptionbudgets",
  singular: "poddisruptionbudget",
  namespaced: true,
  shortNames: ["pdb"],
  categories: [],
  verbs: allVerbs,
  schema: root(policyName("PodDisruptionBudget")),
  tracksGeneration: true,
  subresources: { status: true },
  applyDefaults: defaultPodDisruptionBudget,
  validate: validatePodDisruptionBudget,
  validateUpdate: validatePodDisruptionBudgetUpdate,
};

/** Every served `policy/v1` kind (Eviction is a pod subresource, not a kind of its own). */
export const policyV1Kinds = [podDisruptionBudgetKind] as const;
