// The public surface of apps/v1.
export type { ControllerRevision } from "./controller-revision.ts";
export {
  validateControllerRevision,
  validateControllerRevisionUpdate,
} from "./controller-revision-validation.ts";
export type {
  DaemonSet,
  DaemonSetSpec,
  DaemonSetStatus,
  DaemonSetUpdateStrategy,
  RollingUpdateDaemonSet,
} from "./daemon-set.ts";
export {
  validateDaemonSet,
  validateDaemonSetSpec,
  validateDaemonSetUpdate,
} from "./daemon-set-validation.ts";
export { appsV1Definitions } from "./definitions.ts";
export type {
  AppsCondition,
  Deployment,
  DeploymentSpec,
  DeploymentStatus,
  DeploymentStrategy,
  RollingUpdateDeployment,
} from "./deployment.ts";
export {
  validateDeployment,
  validateDeploymentSpec,
  validateDeploymentUpdate,
} from "./deployment-validation.ts";
export {
  appsV1Kinds,
  controllerRevisionKind,
  daemonSetKind,
  defaultDaemonSet,
  defaultDeployment,
  defaultReplicaSet,
  defaultStatefulSet,
  deploymentKind,
  replicaSetKind,
  statefulSetKind,
} from "./kinds.ts";
export type { ReplicaSet, ReplicaSetSpec, ReplicaSetStatus } from "./replica-set.ts";
export {
  validateReplicaSet,
  validateReplicaSetSpec,
  validateReplicaSetUpdate,
} from "./replica-set-validation.ts";
export { appsName } from "./schema-helpers.ts";
export type {
  PersistentVolumeClaimTemplate,
  RollingUpdateStatefulSetStrategy,
  StatefulSet,
  StatefulSetPersistentVolumeClaimRetentionPolicy,
  StatefulSetSpec,
  StatefulSetStatus,
  StatefulSetUpdateStrategy,
} from "./stateful-set.ts";
export {
  validateStatefulSet,
  validateStatefulSetSpec,
  validateStatefulSetUpdate,
} from "./stateful-set-validation.ts";
export {
  intOrPercentValue,
  isNotMoreThan100Percent,
  isValidPercent,
  validatePositiveIntOrPercent,
} from "./validation-helpers.ts";
