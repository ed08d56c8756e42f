/** The `scheduling.k8s.io/v1` KindDefinitions. */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import type { PriorityClass } from "./priority-class.ts";
import { validatePriorityClass, validatePriorityClassUpdate } from "./priority-class-validation.ts";
import { schedulingV1Definitions, schedulingV1Name } from "./schema.ts";

/** `SetDefaults_PriorityClass`: `preemptionPolicy` defaults to `PreemptLowerPriority`. */
export function defaultPriorityClass(pc: PriorityClass): void {
  pc.preemptionPolicy ??= "PreemptLowerPriority";
}

export const priorityClassKind: KindDefinition<PriorityClass> = {
  group: "scheduling.k8s.io",
  version: "v1",
  kind: "PriorityClass",
  listKind: "PriorityClassList",
  resource: "priorityclasses",
  singular: "priorityclass",
  namespaced: false,
  shortNames: ["pc"],
  categories: [],
  verbs: allVerbs,
  schema: {
    schema: schedulingV1Definitions[schedulingV1Name("PriorityClass")] ?? {},
    definitions: { ...externalDefinitions(), ...schedulingV1Definitions },
  },
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: defaultPriorityClass,
  validate: validatePriorityClass,
  validateUpdate: validatePriorityClassUpdate,
};

/** Every served `scheduling.k8s.io/v1` kind. */
export const schedulingV1Kinds = [priorityClassKind] as const;
