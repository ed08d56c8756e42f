/** The `apps/v1` KindDefinitions: resource names, subresources, defaulting and validation. */

import type { Definitions, SchemaRoot } from "../../schema/schema.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import type { ControllerRevision } from "./controller-revision.ts";
import {
  validateControllerRevision,
  validateControllerRevisionUpdate,
} from "./controller-revision-validation.ts";
import { defaultPodTemplate, externalDefinitions } from "./core-adapter.ts";
import type { DaemonSet } from "./daemon-set.ts";
import { validateDaemonSet, validateDaemonSetUpdate } from "./daemon-set-validation.ts";
import { appsV1Definitions } from "./definitions.ts";
import type { Deployment } from "./deployment.ts";
import { validateDeployment, validateDeploymentUpdate } from "./deployment-validation.ts";
import type { ReplicaSet } from "./replica-set.ts";
import { validateReplicaSet, validateReplicaSetUpdate } from "./replica-set-validation.ts";
import { appsName } from "./schema-helpers.ts";
import type { StatefulSet } from "./stateful-set.ts";
import { validateStatefulSet, validateStatefulSetUpdate } from "./stateful-set-validation.ts";

/** The schema root of a kind: its own definition plus every definition it may refer to. */
export function schemaRootOf(name: string, own: Definitions): SchemaRoot {
  const definitions = { ...externalDefinitions(), ...own };
  const schema = definitions[name];
  if (schema === undefined) throw new RangeError(`Cannot find schema definition "${name}"`);
  return { schema, definitions };
}

/**
 * Scale subresource of the replicated apps kinds. The selector path points at the
 * `metav1.LabelSelector` object, which the server formats as a string selector.
 */
const replicasScale = {
  specReplicasPath: ".spec.replicas",
  statusReplicasPath: ".status.replicas",
  labelSelectorPath: ".spec.selector",
} as const;

/** `SetDefaults_Deployment` (apps/v1). */
export function defaultDeployment(d: Deployment): void {
  const spec = d.spec;
  if (spec === undefined) return;
  spec.replicas ??= 1;
  spec.strategy ??= {};
  spec.strategy.type ??= "RollingUpdate";
  if (spec.strategy.type === "RollingUpdate") {
    spec.strategy.rollingUpdate ??= {};
    spec.strategy.rollingUpdate.maxUnavailable ??= "25%";
    spec.strategy.rollingUpdate.maxSurge ??= "25%";
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  if (spec.template !== undefined) defaultPodTemplate(spec.template);
}

/** `SetDefaults_ReplicaSet` (apps/v1). */
export function defaultReplicaSet(rs: ReplicaSet): void {
  const spec = rs.spec;
  if (spec === undefined) return;
  spec.replicas ??= 1;
  if (spec.template !== undefined) defaultPodTemplate(spec.template);
}

/** `SetDefaults_StatefulSet` (apps/v1), without the alpha `maxUnavailable` default. */
export function defaultStatefulSet(ss: StatefulSet): void {
  const spec = ss.spec;
  if (spec === undefined) return;
  spec.podManagementPolicy ??= "OrderedReady";
  spec.updateStrategy ??= {};
  if (spec.updateStrategy.type === undefined) {
    spec.updateStrategy.type = "RollingUpdate";
    spec.updateStrategy.rollingUpdate ??= {};
  }
  if (
    spec.updateStrategy.type === "RollingUpdate" &&
    spec.updateStrategy.rollingUpdate !== undefined
  ) {
    spec.updateStrategy.rollingUpdate.partition ??= 0;
  }
  spec.persistentVolumeClaimRetentionPolicy ??= {};
  spec.persistentVolumeClaimRetentionPolicy.whenDeleted ??= "Retain";
  spec.persistentVolumeClaimRetentionPolicy.whenScaled ??= "Retain";
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  if (spec.template !== undefined) defaultPodTemplate(spec.template);
}

/** `SetDefaults_DaemonSet` (apps/v1). */
export function defaultDaemonSet(ds: DaemonSet): void {
  const spec = ds.spec;
  if (spec === undefined) return;
  spec.updateStrategy ??= {};
  spec.updateStrategy.type ??= "RollingUpdate";
  if (spec.updateStrategy.type === "RollingUpdate") {
    spec.updateStrategy.rollingUpdate ??= {};
    spec.updateStrategy.rollingUpdate.maxUnavailable ??= 1;
    spec.updateStrategy.rollingUpdate.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  if (spec.template !== undefined) defaultPodTemplate(spec.template);
}

const common = {
  group: "apps",
  version: "v1",
  namespaced: true,
  categories: ["all"],
  verbs: allVerbs,
  tracksGeneration: true,
} as const;

export const deploymentKind: KindDefinition<Deployment> = {
  ...common,
  kind: "Deployment",
  listKind: "DeploymentList",
  resource: "deployments",
  singular: "deployment",
  shortNames: ["deploy"],
  schema: schemaRootOf(appsName("Deployment"), appsV1Definitions),
  subresources: { status: true, scale: replicasScale },
  applyDefaults: defaultDeployment,
  validate: validateDeployment,
  validateUpdate: validateDeploymentUpdate,
};

export const replicaSetKind: KindDefinition<ReplicaSet> = {
  ...common,
  kind: "ReplicaSet",
  listKind: "ReplicaSetList",
  resource: "replicasets",
  singular: "replicaset",
  shortNames: ["rs"],
  schema: schemaRootOf(appsName("ReplicaSet"), appsV1Definitions),
  subresources: { status: true, scale: replicasScale },
  applyDefaults: defaultReplicaSet,
  validate: validateReplicaSet,
  validateUpdate: validateReplicaSetUpdate,
  selectableFields: (rs) => ({ "status.replicas": String(rs.status?.replicas ?? 0) }),
};

export const statefulSetKind: KindDefinition<StatefulSet> = {
  ...common,
  kind: "StatefulSet",
  listKind: "StatefulSetList",
  resource: "statefulsets",
  singular: "statefulset",
  shortNames: ["sts"],
  schema: schemaRootOf(appsName("StatefulSet"), appsV1Definitions),
  subresources: { status: true, scale: replicasScale },
  applyDefaults: defaultStatefulSet,
  validate: validateStatefulSet,
  validateUpdate: validateStatefulSetUpdate,
};

export const daemonSetKind: KindDefinition<DaemonSet> = {
  ...common,
  kind: "DaemonSet",
  listKind: "DaemonSetList",
  resource: "daemonsets",
  singular: "daemonset",
  shortNames: ["ds"],
  schema: schemaRootOf(appsName("DaemonSet"), appsV1Definitions),
  subresources: { status: true },
  applyDefaults: defaultDaemonSet,
  validate: validateDaemonSet,
  validateUpdate: validateDaemonSetUpdate,
};

export const controllerRevisionKind: KindDefinition<ControllerRevision> = {
  ...common,
  categories: [],
  // Nothing in a ControllerRevision is spec: upstream's strategy never sets a generation.
  tracksGeneration: false,
  kind: "ControllerRevision",
  listKind: "ControllerRevisionList",
  resource: "controllerrevisions",
  singular: "controllerrevision",
  shortNames: [],
  schema: schemaRootOf(appsName("ControllerRevision"), appsV1Definitions),
  subresources: { status: false },
  applyDefaults: () => {},
  validate: validateControllerRevision,
  validateUpdate: validateControllerRevisionUpdate,
};

/** Every served `apps/v1` kind. */
export const appsV1Kinds = [
  deploymentKind,
  replicaSetKind,
  statefulSetKind,
  daemonSetKind,
  controllerRevisionKind,
] as const;
