/** The `scheduling.k8s.io/v1alpha1` KindDefinitions: Workload and PodGroup. */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import type { PodGroup } from "./pod-group.ts";
import { schedulingV1alpha1Definitions, schedulingV1alpha1Name } from "./schema.ts";
import {
  validatePodGroup,
  validatePodGroupUpdate,
  validateWorkload,
  validateWorkloadUpdate,
} from "./validation.ts";
import type { Workload } from "./workload.ts";

const definitions = { ...externalDefinitions(), ...schedulingV1alpha1Definitions };

function own(name: string) {
  const schema = schedulingV1alpha1Definitions[schedulingV1alpha1Name(name)];
  if (schema === undefined) throw new RangeError(`Cannot find schema definition "${name}"`);
  return { schema, definitions };
}

const common = {
  group: "scheduling.k8s.io",
  version: "v1alpha1",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  tracksGeneration: true,
  applyDefaults: () => {},
} as const;

export const workloadKind: KindDefinition<Workload> = {
  ...common,
  kind: "Workload",
  listKind: "WorkloadList",
  resource: "workloads",
  singular: "workload",
  schema: own("Workload"),
  subresources: { status: false },
  validate: validateWorkload,
  validateUpdate: validateWorkloadUpdate,
};

export const podGroupKind: KindDefinition<PodGroup> = {
  ...common,
  kind: "PodGroup",
  listKind: "PodGroupList",
  resource: "podgroups",
  singular: "podgroup",
  schema: own("PodGroup"),
  subresources: { status: true },
  validate: validatePodGroup,
  validateUpdate: validatePodGroupUpdate,
};

/** Every served `scheduling.k8s.io/v1alpha1` kind. */
export const schedulingV1alpha1Kinds = [workloadKind, podGroupKind] as const;
