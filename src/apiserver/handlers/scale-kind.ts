/**
 * The `autoscaling/v1` Scale as the `/scale` handlers decode and validate it: its schema (for
 * Go's decoder messages and field pruning) and upstream's `ValidateScale`.
 */
import {
  autoscalingV1Definitions,
  type Definitions,
  type FieldErrorList,
  FieldPath,
  invalid,
  isDns1123Subdomain,
  type KindDefinition,
  type KubeObject,
  metaDefinitions,
  type Schema,
  validateObjectMeta,
} from "../../api/index.ts";

const scaleDefinitions: Definitions = { ...metaDefinitions, ...autoscalingV1Definitions };
const scaleSchema = autoscalingV1Definitions["io.k8s.api.autoscaling.v1.Scale"] as Schema;

/** `replicas` of a decoded Scale, 0 when absent (Go's zero value). */
export function scaleReplicasOf(scale: KubeObject): number {
  const replicas = (scale["spec"] as { replicas?: unknown } | undefined)?.replicas;
  return typeof replicas === "number" ? replicas : 0;
}

/**
 * Upstream's `ValidateScale` (pkg/apis/autoscaling/validation): the Scale's ObjectMeta as a
 * namespaced object named by a DNS subdomain, and `spec.replicas` not negative. The built-in
 * scale subresources run it; a custom resource's does not (its own schema decides).
 */
export function validateScale(scale: KubeObject): FieldErrorList {
  const errs = validateObjectMeta(
    scale.metadata,
    { namespaced: true, nameValidator: isDns1123Subdomain },
    FieldPath.of("metadata"),
  );
  const replicas = scaleReplicasOf(scale);
  if (replicas < 0) {
    errs.push(
      invalid(FieldPath.of("spec", "replicas"), replicas, "must be greater than or equal to 0"),
    );
  }
  return errs;
}

/**
 * The Scale as a kind: what the decode helpers of the main handlers (`checkTypeMeta`,
 * `decodeTyped`, `pruneOrReject`) need. It is never stored, so it has no resource or verbs.
 */
export const scaleKind: KindDefinition = {
  group: "autoscaling",
  version: "v1",
  kind: "Scale",
  listKind: "",
  resource: "",
  singular: "",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: [],
  schema: { schema: scaleSchema, definitions: scaleDefinitions },
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: () => {},
  validate: validateScale,
  validateUpdate: (scale) => validateScale(scale),
};
