/** The Pod kind: defaults, validation and the served-kind definition. */
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { coreV1Definitions } from "./definitions.ts";
import { applyPodSpecDefaults } from "./pod-defaults.ts";
import { podSelectableFields, qosClassOf } from "./pod-helpers.ts";
import type { Container } from "./pod-template.ts";
import type { Pod } from "./pod-types.ts";
import { validatePodCreate, validatePodStatusUpdate, validatePodUpdate } from "./pod-validation.ts";
import { coreName } from "./schema-pod-template.ts";

function defaultRequestsToLimits(c: Container): void {
  const limits = c.resources?.limits;
  if (limits === undefined || c.resources === undefined) return;
  c.resources.requests ??= {};
  for (const [name, value] of Object.entries(limits)) c.resources.requests[name] ??= value;
}

/**
 * `SetDefaults_Pod` on top of the PodSpec defaults: requests default to limits, service links
 * on, host-network ports mirrored. A pod without a PriorityClass gets priority 0 and
 * `PreemptLowerPriority` (the Priority admission plugin fills them from a class otherwise).
 * `status.phase` starts `Pending` and `status.qosClass` is computed when missing.
 */
export function applyPodDefaults(pod: Pod): void {
  const spec = pod.spec;
  if (spec === undefined) return;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])])
    defaultRequestsToLimits(c);
  applyPodSpecDefaults(spec);
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork === true) {
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      for (const port of c.ports ?? []) {
        if ((port.hostPort ?? 0) === 0) port.hostPort = port.containerPort;
      }
    }
  }
  if ((spec.priorityClassName ?? "") === "") {
    spec.priority ??= 0;
    spec.preemptionPolicy ??= "PreemptLowerPriority";
  }
  pod.status ??= {};
  pod.status.phase ??= "Pending";
  pod.status.qosClass ??= qosClassOf(pod);
}

export const podKind: KindDefinition<Pod> = {
  group: "",
  version: "v1",
  kind: "Pod",
  listKind: "PodList",
  resource: "pods",
  singular: "pod",
  namespaced: true,
  shortNames: ["po"],
  categories: ["all"],
  verbs: allVerbs,
  schema: { schema: coreV1Definitions[coreName("Pod")] ?? {}, definitions: coreV1Definitions },
  tracksGeneration: true,
  subresources: { status: true },
  applyDefaults: applyPodDefaults,
  validate: validatePodCreate,
  validateUpdate: validatePodUpdate,
  validateStatusUpdate: validatePodStatusUpdate,
  selectableFields: podSelectableFields,
};
