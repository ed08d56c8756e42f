/**
 * Kueue's pod webhook (pkg/controller/jobs/pod/pod_webhook.go), as plain functions over data:
 * `defaultPod` is the mutating `mpod.kb.io` (CREATE), `validatePodCreate`/`validatePodUpdate`
 * the validating `vpod.kb.io`. The API server adapter (src/cmd/queueing-admission.ts) turns
 * their results into admission decisions.
 */
import {
  admissionGate,
  type FieldError,
  fieldPath,
  forbiddenField,
  immutable,
  invalid,
  isDns1123Label,
  isDns1123Subdomain,
  type LabelSelector,
  type LabelSelectorExpr,
  managedFinalizer,
  managedLabel,
  matchesLabels,
  maxExecTimeLabel,
  type Pod,
  podGroupNameLabel,
  podGroupRoleLabel,
  podGroupSetsAnnotation,
  podGroupTotalCountAnnotation,
  podSuspendingParentAnnotation,
  prebuiltWorkloadLabel,
  queueNameLabel,
  queueNameOf,
  required,
  retriableInGroupAnnotation,
  roleHashAnnotation,
  selectorFromLabelSelector,
  workloadPriorityClassLabel,
} from "../../api/index.ts";
import { type DeepReadonly, deepCopy } from "../../util/index.ts";
import { knownFrameworks, type QueueingConfig } from "../config.ts";
import { gangWorkloadRef } from "./gang-objects.ts";
import { driverRole, parsePodGroupSets, validateDriverPod } from "./pod-group-sets.ts";
import { roleHash } from "./role-hash.ts";

/** What the webhook looks up besides the pod. */
export interface PodWebhookEnv {
  readonly config: QueueingConfig;
  /** The labels of the pod's namespace; `undefined` when it does not exist. */
  namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined;
  /** Whether a LocalQueue exists (LocalQueueDefaulting looks for one named `default`). */
  hasLocalQueue(namespace: string, name: string): boolean;
  /**
   * Where the config's selectors are kept once compiled, by selector object, so that each pod
   * does not parse them again. @default compiled for every pod
   */
  readonly selectors?: WeakMap<object, LabelSelectorExpr>;
}

export type DefaultResult =
  | { readonly kind: "unchanged" }
  | { readonly kind: "mutated"; readonly pod: Pod }
  | { readonly kind: "error"; readonly message: string };

export interface ValidationResult {
  readonly errors: readonly FieldError[];
  readonly warnings: readonly string[];
}

const labelsPath = fieldPath("metadata", "labels");
const annotationsPath = fieldPath("metadata", "annotations");

function selects(
  env: PodWebhookEnv,
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (selector === undefined) return true;
  let parsed = env.selectors?.get(selector);
  if (parsed === undefined) {
    parsed = selectorFromLabelSelector(selector);
    env.selectors?.set(selector, parsed);
  }
  return matchesLabels(parsed, labels);
}

/** Whether the pod's controller is a kind an enabled integration other than `pod` manages. */
function isOwnerManagedByKueue(pod: DeepReadonly<Pod>, config: QueueingConfig): boolean {
  const owner = pod.metadata.ownerReferences?.find((ref) => ref.controller === true);
  if (owner === undefined) return false;
  return config.frameworks.some((f) => f !== "pod" && knownFrameworks[f] === owner.kind);
}

/**
 * The mutating webhook: a pod Kueue manages gets the `kueue.x-k8s.io/managed: "true"` label,
 * the `kueue.x-k8s.io/managed` finalizer, the `kueue.x-k8s.io/admission` scheduling gate and
 * the role-hash annotation (a value already present is kept). Pods outside the managed
 * namespaces, not matching the pod options, owned by a managed job, or without a queue name
 * (unless `manageJobsWithoutQueueName`) are left unchanged. A missing namespace is an error.
 */
export function defaultPod(pod: DeepReadonly<Pod>, env: PodWebhookEnv): DefaultResult {
  const config = env.config;
  if (!config.frameworks.includes("pod")) return { kind: "unchanged" };
  const byParent = pod.metadata.annotations?.[podSuspendingParentAnnotation] !== undefined;
  let next = pod as Pod;
  if (!byParent) {
    const namespace = pod.metadata.namespace ?? "";
    const nsLabels = env.namespaceLabels(namespace);
    if (nsLabels === undefined) {
      return { kind: "error", message: `namespaces "${namespace}" not found` };
    }
    if (!selects(env, config.managedJobsNamespaceSelector, nsLabels)) return { kind: "unchanged" };
    if (!selects(env, config.podOptions.podSelector, pod.metadata.labels ?? {})) {
      return { kind: "unchanged" };
    }
    if (!selects(env, config.podOptions.namespaceSelector, nsLabels)) return { kind: "unchanged" };
    if (isOwnerManagedByKueue(pod, config)) return { kind: "unchanged" };
    const defaultQueue =
      queueNameOf(pod.metadata) === "" && env.hasLocalQueue(namespace, "default");
    if (!defaultQueue && queueNameOf(pod.metadata) === "" && !config.manageJobsWithoutQueueName) {
      return { kind: "unchanged" };
    }
    // Only a pod Kueue manages is copied.
    next = deepCopy(pod) as Pod;
    if (defaultQueue) {
      next.metadata.labels = { ...next.metadata.labels, [queueNameLabel]: "default" };
    }
    next.metadata.labels = { ...next.metadata.labels, [managedLabel]: "true" };
  } else {
    next = deepCopy(pod) as Pod;
  }
  const finalizers = next.metadata.finalizers ?? [];
  if (!finalizers.includes(managedFinalizer)) {
    next.metadata.finalizers = [...finalizers, managedFinalizer];
  }
  const gates = next.spec.schedulingGates ?? [];
  if (!gates.some((g) => g.name === admissionGate)) {
    next.spec.schedulingGates = [...gates, { name: admissionGate }];
  }
  const annotations = next.metadata.annotations ?? {};
  if (annotations[roleHashAnnotation] === undefined) {
    // A pod of a driver-created group runs as its declared pod set (docs/decisions/0008).
    const role = declaredRole(next) ?? roleHash(next.spec);
    next.metadata.annotations = { ...annotations, [roleHashAnnotation]: role };
  }
  const group = next.metadata.labels?.[podGroupNameLabel] ?? "";
  if (
    config.gangScheduleAdmittedGroups &&
    group !== "" &&
    next.spec.workloadRef === undefined &&
    next.metadata.annotations?.[podGroupTotalCountAnnotation] !== undefined &&
    next.metadata.annotations[podGroupSetsAnnotation] === undefined &&
    next.metadata.labels?.[podGroupRoleLabel] === undefined
  ) {
    next.spec.workloadRef = gangWorkloadRef(group);
  }
  return { kind: "mutated", pod: next };
}

/** The pod set a story-3 pod declares: its role label, or the driver's own set. */
function declaredRole(pod: DeepReadonly<Pod>): string | undefined {
  const sets = pod.metadata.annotations?.[podGroupSetsAnnotation];
  if (sets === undefined) return pod.metadata.labels?.[podGroupRoleLabel];
  const parsed = parsePodGroupSets(sets);
  return parsed.kind === "ok" ? driverRole(parsed.sets, pod) : undefined;
}

function crdName(labels: Readonly<Record<string, string>> | undefined, key: string): FieldError[] {
  const value = labels?.[key];
  if (value === undefined || value === "") return [];
  return isDns1123Subdomain(value).map((msg) => invalid(labelsPath.key(key), value, msg));
}

/** Go's `strconv.Atoi` with its error text. */
export function atoi(text: string): number | string {
  if (!/^[+-]?\d+$/.test(text))
    return `strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`;
  const value = BigInt(text);
  if (value > 9223372036854775807n || value < -9223372036854775808n) {
    return `strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range`;
  }
  return Number(value);
}

/** The group's declared size, or the error Kueue reports for the annotation. */
export function groupTotalCount(pod: DeepReadonly<Pod>): number | string {
  const text = pod.metadata.annotations?.[podGroupTotalCountAnnotation] ?? "";
  const parsed = atoi(text);
  if (typeof parsed === "string") return parsed;
  if (parsed < 1) {
    return `incorrect annotation value '${podGroupTotalCountAnnotation}=${text}': group total count should be greater than zero`;
  }
  return parsed;
}

function validateCommon(pod: DeepReadonly<Pod>): FieldError[] {
  const errors: FieldError[] = [];
  const labels = pod.metadata.labels ?? {};
  const managed = labels[managedLabel];
  if (managed !== undefined && managed !== "true") {
    errors.push(
      forbiddenField(labelsPath.key(managedLabel), "managed label value can only be 'true'"),
    );
  }
  const both = `both the '${podGroupTotalCountAnnotation}' annotation and the '${podGroupNameLabel}' label should be set`;
  const total = pod.metadata.annotations?.[podGroupTotalCountAnnotation];
  const group = labels[podGroupNameLabel] ?? "";
  // Story 3: the driver's pod sets, or a worker's role, stand in for the total count.
  const sets = pod.metadata.annotations?.[podGroupSetsAnnotation];
  const role = labels[podGroupRoleLabel];
  if (group === "" && (sets !== undefined || role !== undefined)) {
    const key =
      sets !== undefined
        ? `'${podGroupSetsAnnotation}' annotation`
        : `'${podGroupRoleLabel}' label`;
    errors.push(
      required(
        labelsPath.key(podGroupNameLabel),
        `the ${key} needs the '${podGroupNameLabel}' label`,
      ),
    );
    return errors;
  }
  if (role !== undefined) {
    errors.push(
      ...isDns1123Label(role).map((m) => invalid(labelsPath.key(podGroupRoleLabel), role, m)),
    );
  }
  errors.push(...validateDriverPod(pod));
  if (group === "") {
    if (total !== undefined) {
      errors.push(required(labelsPath.key(podGroupNameLabel), both));
      return errors;
    }
  } else {
    errors.push(...crdName(labels, podGroupNameLabel));
    if (total === undefined && sets === undefined && role === undefined) {
      errors.push(required(annotationsPath.key(podGroupTotalCountAnnotation), both));
      return errors;
    }
  }
  if (total !== undefined) {
    const count = groupTotalCount(pod);
    if (typeof count === "string") {
      errors.push(invalid(annotationsPath.key(podGroupTotalCountAnnotation), total, count));
      return errors;
    }
  }
  const prebuilt = labels[prebuiltWorkloadLabel];
  if (prebuilt !== undefined && group !== "" && prebuilt !== group) {
    errors.push(
      invalid(
        labelsPath.key(prebuiltWorkloadLabel),
        prebuilt,
        "prebuilt workload and pod group should be equal",
      ),
    );
  }
  return errors;
}

function ownerWarning(pod: DeepReadonly<Pod>, config: QueueingConfig): string[] {
  if (pod.metadata.labels?.[managedLabel] !== "true" || !isOwnerManagedByKueue(pod, config))
    return [];
  return [
    `pod owner is managed by kueue, label '${managedLabel}=true' might lead to unexpected behaviour`,
  ];
}

function maxExecTime(pod: DeepReadonly<Pod>): FieldError[] {
  const text = pod.metadata.labels?.[maxExecTimeLabel];
  if (text === undefined) return [];
  const value = atoi(text);
  if (typeof value === "string") return [invalid(labelsPath.key(maxExecTimeLabel), text, value)];
  if (value <= 0)
    return [invalid(labelsPath.key(maxExecTimeLabel), value, "should be greater than 0")];
  return [];
}

/** The validating webhook on CREATE. */
export function validatePodCreate(pod: DeepReadonly<Pod>, env: PodWebhookEnv): ValidationResult {
  const errors = [
    ...crdName(pod.metadata.labels, queueNameLabel),
    ...crdName(pod.metadata.labels, prebuiltWorkloadLabel),
    ...maxExecTime(pod),
    ...validateCommon(pod),
  ];
  return { errors, warnings: ownerWarning(pod, env.config) };
}

/** Gated by Kueue's admission gate, or finished: Kueue's `IsSuspended` for one pod. */
export function isSuspendedPod(pod: DeepReadonly<Pod>): boolean {
  const phase = pod.status?.phase;
  return (
    phase === "Succeeded" ||
    phase === "Failed" ||
    (pod.spec.schedulingGates ?? []).some((g) => g.name === admissionGate)
  );
}

/** The validating webhook on UPDATE. */
export function validatePodUpdate(
  old: DeepReadonly<Pod>,
  pod: DeepReadonly<Pod>,
  env: PodWebhookEnv,
): ValidationResult {
  const errors: FieldError[] = [...crdName(pod.metadata.labels, queueNameLabel)];
  const oldLabels = old.metadata.labels ?? {};
  const labels = pod.metadata.labels ?? {};
  const suspended = isSuspendedPod(old) && isSuspendedPod(pod);
  const oldQueue = queueNameOf(old.metadata);
  const queue = queueNameOf(pod.metadata);
  if (!isSuspendedPod(pod) && oldQueue !== queue) {
    errors.push(immutable(labelsPath.key(queueNameLabel), queue));
  } else if (
    oldQueue !== "" &&
    queue === "" &&
    env.hasLocalQueue(pod.metadata.namespace ?? "", "default")
  ) {
    errors.push(
      invalid(
        labelsPath.key(queueNameLabel),
        queue,
        "queue-name must not be empty in namespace with default queue",
      ),
    );
  }
  if (!isSuspendedPod(pod) && oldLabels[prebuiltWorkloadLabel] !== labels[prebuiltWorkloadLabel]) {
    errors.push(
      immutable(labelsPath.key(prebuiltWorkloadLabel), labels[prebuiltWorkloadLabel] ?? ""),
    );
  }
  if (!suspended && oldLabels[maxExecTimeLabel] !== labels[maxExecTimeLabel]) {
    errors.push(immutable(labelsPath.key(maxExecTimeLabel), labels[maxExecTimeLabel] ?? ""));
  }
  const oldPriority = oldLabels[workloadPriorityClassLabel];
  const priority = labels[workloadPriorityClassLabel];
  if (
    (oldPriority !== undefined && priority === undefined) ||
    (!isSuspendedPod(pod) && oldPriority !== priority)
  ) {
    errors.push(immutable(labelsPath.key(workloadPriorityClassLabel), priority ?? ""));
  }
  errors.push(...validateCommon(pod));
  const oldGroup = oldLabels[podGroupNameLabel] ?? "";
  if (oldGroup !== "" && oldGroup !== (labels[podGroupNameLabel] ?? "")) {
    errors.push(immutable(labelsPath.key(podGroupNameLabel), labels[podGroupNameLabel] ?? ""));
  }
  const oldSets = old.metadata.annotations?.[podGroupSetsAnnotation];
  const sets = pod.metadata.annotations?.[podGroupSetsAnnotation];
  if (oldSets !== undefined && oldSets !== sets) {
    errors.push(immutable(annotationsPath.key(podGroupSetsAnnotation), sets ?? ""));
  }
  const oldRole = oldLabels[podGroupRoleLabel];
  if (oldRole !== undefined && oldRole !== labels[podGroupRoleLabel]) {
    errors.push(immutable(labelsPath.key(podGroupRoleLabel), labels[podGroupRoleLabel] ?? ""));
  }
  if (
    old.metadata.annotations?.[retriableInGroupAnnotation] === "false" &&
    pod.metadata.annotations?.[retriableInGroupAnnotation] !== "false"
  ) {
    errors.push(
      forbiddenField(
        annotationsPath.key(retriableInGroupAnnotation),
        "unretriable pod group can't be converted to retriable",
      ),
    );
  }
  const warnings =
    pod.metadata.annotations?.[podSuspendingParentAnnotation] === undefined
      ? ownerWarning(pod, env.config)
      : [];
  return { errors, warnings };
}
