// The public surface of api/. Each area keeps its exports in its own block; edit a block with
// a small, targeted change so parallel work does not collide.

// apps, batch, policy, coordination, scheduling, apiextensions, autoscaling
export {
  apiextensionsV1Definitions,
  apiextensionsV1Kinds,
  type CustomResourceColumnDefinition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
  type CustomResourceDefinitionNames,
  type CustomResourceDefinitionSpec,
  type CustomResourceDefinitionStatus,
  type CustomResourceDefinitionVersion,
  type CustomResourceSubresourceScale,
  type CustomResourceSubresources,
  customResourceDefinitionKind,
  isCrdConditionTrue,
  isStructuralSchema,
  type JSONSchemaProps,
  kindDefinitionForCrd,
  prepareCustomResourceDefinitionForCreate,
  type ResourceScope,
  readJsonPath,
  storageVersionOf,
  validateAgainstSchema,
} from "./apiextensions/v1/index.ts";
export {
  type AppsCondition,
  appsV1Definitions,
  appsV1Kinds,
  type DaemonSet,
  type DaemonSetSpec,
  type DaemonSetStatus,
  type Deployment,
  type DeploymentSpec,
  type DeploymentStatus,
  type DeploymentStrategy,
  daemonSetKind,
  defaultDaemonSet,
  defaultDeployment,
  defaultReplicaSet,
  defaultStatefulSet,
  deploymentKind,
  type ReplicaSet,
  type ReplicaSetSpec,
  type ReplicaSetStatus,
  replicaSetKind,
  type StatefulSet,
  type StatefulSetSpec,
  type StatefulSetStatus,
  statefulSetKind,
} from "./apps/v1/index.ts";
export {
  autoscalingV1Definitions,
  type Scale,
  type ScaleSpec,
  type ScaleStatus,
} from "./autoscaling/v1/index.ts";
export {
  batchV1Definitions,
  batchV1Kinds,
  controllerUidLabel,
  defaultJob,
  generateJobSelector,
  type Job,
  type JobCondition,
  type JobSpec,
  type JobStatus,
  jobKind,
  jobNameLabel,
  legacyControllerUidLabel,
  legacyJobNameLabel,
} from "./batch/v1/index.ts";
// built-in kinds, all groups
export { builtInKinds } from "./builtin-kinds.ts";
export {
  coordinationV1Definitions,
  coordinationV1Kinds,
  type Lease,
  type LeaseSpec,
  leaseKind,
} from "./coordination/v1/index.ts";
// core/v1: kinds, types, definitions and helpers
export { type Binding, bindingKind, validateBinding } from "./core/v1/binding.ts";
export { type ConfigMap, configMapKind, maxDataSize } from "./core/v1/config-map.ts";
export { coreV1Definitions } from "./core/v1/definitions.ts";
export {
  type Event,
  eventKind,
  eventSelectableFields,
  type ObjectReference,
} from "./core/v1/event.ts";
export { coreV1Kinds } from "./core/v1/index.ts";
export {
  finalizerKubernetes,
  labelMetadataName,
  type Namespace,
  namespaceKind,
} from "./core/v1/namespace.ts";
export { applyNodeDefaults, nodeKind } from "./core/v1/node.ts";
export type {
  ConditionStatus,
  Node,
  NodeAddress,
  NodeCondition,
  NodeSpec,
  NodeStatus,
  NodeSystemInfo,
  Taint,
} from "./core/v1/node-types.ts";
export { applyPodDefaults, podKind } from "./core/v1/pod.ts";
// core/v1: pod template (PodSpec and what it contains) — types, defaults, validation
export {
  applyContainerDefaults,
  applyPodSpecDefaults,
  applyPodTemplateSpecDefaults,
  applyVolumeDefaults,
  canonicalizeResourceList,
  defaultPullPolicy,
  defaultSchedulerName,
  defaultTerminationGracePeriodSeconds,
} from "./core/v1/pod-defaults.ts";
export {
  defaultNotReadyTolerationSeconds,
  defaultTolerations,
  isPodReady,
  isPodTerminal,
  isRestartableInitContainer,
  podCondition,
  podSelectableFields,
  qosClassOf,
  taintNodeNotReady,
  taintNodeUnreachable,
} from "./core/v1/pod-helpers.ts";
export {
  validatePodSpec,
  validatePodTemplateSpec,
  validateVolumes,
} from "./core/v1/pod-spec-validation.ts";
export type {
  Affinity,
  ConfigMapKeySelector,
  Container,
  ContainerPort,
  EnvFromSource,
  EnvVar,
  EnvVarSource,
  EphemeralContainer,
  IntOrString,
  KeyToPath,
  LocalObjectReference,
  NodeAffinity,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodAffinity,
  PodAffinityTerm,
  PodAntiAffinity,
  PodSchedulingGate,
  PodSecurityContext,
  PodSpec,
  PodTemplateSpec,
  PreferredSchedulingTerm,
  Probe,
  Protocol,
  PullPolicy,
  Quantity,
  ResourceList,
  ResourceRequirements,
  RestartPolicy,
  SecurityContext,
  TaintEffect,
  Toleration,
  TopologySpreadConstraint,
  Volume,
  VolumeMount,
  WeightedPodAffinityTerm,
  WorkloadReference,
} from "./core/v1/pod-template.ts";
export type {
  ContainerState,
  ContainerStatus,
  Pod,
  PodCondition,
  PodPhase,
  PodQosClass,
  PodStatus,
} from "./core/v1/pod-types.ts";
export {
  updatablePodSpecFields,
  validatePodCreate,
  validatePodStatusUpdate,
  validatePodUpdate,
} from "./core/v1/pod-validation.ts";
export {
  type ReplicationController,
  replicationControllerKind,
} from "./core/v1/replication-controller.ts";
export { validateResourceRequirements } from "./core/v1/resource-validation.ts";
export {
  validateAffinity,
  validateNodeTaints,
  validateSchedulingGates,
  validateTolerations,
  validateTopologySpreadConstraints,
  validateWorkloadReference,
} from "./core/v1/scheduling-validation.ts";
export { coreName as coreV1DefinitionName } from "./core/v1/schema-pod-template.ts";
export { type Secret, secretKind } from "./core/v1/secret.ts";
export {
  type Service,
  type ServicePort,
  type ServiceSpec,
  serviceKind,
} from "./core/v1/service.ts";
export { type ServiceAccount, serviceAccountKind } from "./core/v1/service-account.ts";
// errors
export {
  ApiError,
  alreadyExists,
  asApiError,
  badRequest,
  conflict,
  expired,
  forbidden,
  type GroupResource,
  gone,
  internalError,
  isStatus,
  methodNotAllowed,
  notFound,
  objectModifiedMessage,
  pathNotFound,
  qualifiedResource,
  type Status,
  type StatusCause,
  type StatusDetails,
  type StatusReason,
  serviceUnavailable,
  timeout,
  tooLarge,
  tooManyRequests,
  unauthorized,
  unsupportedMediaType,
} from "./errors.ts";
// helpers shared by the scheduler and the kubelet
export {
  compileNodeSelector,
  compileNodeSelectorLabels,
  compileNodeSelectorTerm,
  compilePreferredSchedulingTerms,
  type NodeTest,
  nodeNameField,
  podMatchesNodeSelectorAndAffinity,
  requiredNodeAffinity,
} from "./helpers/node-affinity.ts";
export {
  aggregateContainerRequests,
  hasPodLevelRequests,
  isExtendedResourceName,
  isHugePageResourceName,
  isNativeResource,
  isPrefixedNativeResource,
  isScalarResourceName,
  type PodRequestsOptions,
  podLevelResourceNames,
  podRequests,
  quantityAmount,
  type ResourceAmounts,
  resourceListAmounts,
} from "./helpers/pod-resources.ts";
export {
  doNotScheduleTaints,
  findMatchingUntoleratedTaint,
  type TaintFilter,
  toleratesTaint,
  tolerationsTolerateTaint,
} from "./helpers/tolerations.ts";
// selectors and jsonpath
export { evaluate as evaluateJsonPath } from "./jsonpath/evaluate.ts";
export { type JsonPath, parseJsonPath } from "./jsonpath/parse.ts";
// meta
export {
  duplicate,
  type FieldError,
  type FieldErrorList,
  type FieldErrorType,
  fieldErrorBody,
  fieldErrorString,
  forbiddenField,
  immutable,
  invalid,
  invalidObject,
  notFoundField,
  notSupported,
  required,
  tooLong,
  tooMany,
} from "./meta/field-errors.ts";
export { FieldPath, fieldPath } from "./meta/field-path.ts";
export {
  checkSelectableFields,
  defaultSelectableFields,
  escapeFieldValue,
  type FieldLabelStyle,
  type FieldRequirement,
  type FieldSet,
  fieldRequiresExactMatch,
  fieldSelectorToString,
  matchesFields,
  parseFieldSelector,
} from "./meta/fields/selector.ts";
export type { LabelOperator, LabelRequirement, Labels } from "./meta/labels/requirement.ts";
export {
  everything,
  formatLabelSelector,
  isEverything,
  isNothing,
  type LabelSelectorExpr,
  matches,
  matches as matchesLabels,
  nothing,
  parseLabelSelector,
  requiresExactMatch,
  selectorFromLabelSelector,
  selectorFromSet,
  selectorToString,
} from "./meta/labels/selector.ts";
export { metaDefinitionNames, metaDefinitions } from "./meta/schema.ts";
export {
  type Condition,
  type DeleteOptions,
  type KubeObject,
  type LabelSelector,
  type LabelSelectorRequirement,
  type ListMeta,
  type ManagedFieldsEntry,
  type ObjectMeta,
  type OwnerReference,
  objectKeyOf,
  type TypeMeta,
} from "./meta/types.ts";
export {
  type BudgetScope,
  decodeEviction,
  disruptionAllowedCondition,
  type Eviction,
  effectiveBudgetScope,
  evictionApiVersions,
  insufficientPodsReason,
  type PodDisruptionBudget,
  type PodDisruptionBudgetSpec,
  type PodDisruptionBudgetStatus,
  podDisruptionBudgetKind,
  policyV1beta1EvictionDefinitions,
  policyV1Definitions,
  policyV1Kinds,
  sufficientPodsReason,
  syncFailedReason,
  type UnhealthyPodEvictionPolicy,
  validateConditions,
  validateEviction,
} from "./policy/v1/index.ts";
// core/v1: resource quantities
export {
  addQuantities,
  type Bytes,
  canonicalQuantity,
  compareQuantities,
  formatQuantity,
  isQuantity,
  isWholeCores,
  type MilliCpu,
  milliValue,
  type ParsedQuantity,
  parseBytes,
  parseCpu,
  parseQuantity,
  type QuantityFormat,
  quantityFormatError,
  quantitySuffixError,
  scaledValue,
  value as quantityValue,
} from "./resource/quantity.ts";
export {
  highestUserDefinablePriority,
  type PriorityClass,
  priorityClassKind,
  schedulingV1Definitions,
  schedulingV1Kinds,
  systemPriorityClasses,
} from "./scheduling/v1/index.ts";
export {
  type GangSchedulingPolicy,
  type PodGroup,
  type PodGroupPolicy,
  type PodGroupSpec,
  type PodGroupStatus,
  type PodGroupTemplate,
  podGroupKind,
  podGroupScheduledCondition,
  podGroupScheduledReason,
  podGroupSchedulerErrorReason,
  podGroupUnschedulableReason,
  schedulingV1alpha1Definitions,
  schedulingV1alpha1Kinds,
  type TypedLocalObjectReference,
  type Workload,
  type WorkloadPodGroup,
  type WorkloadSpec,
  workloadKind,
  workloadMaxPodGroups,
} from "./scheduling/v1alpha1/index.ts";
// schema
export {
  anyValue,
  atomicList,
  bool,
  int32,
  int64,
  intOrString,
  mapList,
  mapOf,
  num,
  obj,
  quantity,
  setList,
  str,
  stringMap,
  time,
} from "./schema/builders.ts";
export { type PruneResult, pruneUnknownFields } from "./schema/prune.ts";
export {
  type Definitions,
  ref,
  refName,
  resolve,
  type Schema,
  type SchemaRoot,
} from "./schema/schema.ts";
// scheme
export {
  allVerbs,
  apiVersionOf,
  type GroupVersion,
  type GroupVersionKind,
  type GroupVersionResource,
  type KindDefinition,
  parseApiVersion,
  type ScaleSubresource,
  type Verb,
} from "./scheme.ts";
// core/v1: shared validation (names, object meta, selectors)
export { semanticEqual } from "./validation/equality.ts";
export {
  type ObjectMetaOptions,
  totalAnnotationSizeLimitBytes,
  validateAnnotations,
  validateFinalizers,
  validateImmutableField,
  validateLabelName,
  validateLabelSelector,
  validateLabelSelectorRequirement,
  validateLabels,
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
  validateOwnerReferences,
} from "./validation/meta.ts";
export {
  inclusiveRangeError,
  isCIdentifier,
  isConfigMapKey,
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isEnvVarName,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPortName,
  isValidPortNum,
  maskTrailingDash,
  maxLenError,
  regexError,
} from "./validation/names.ts";
