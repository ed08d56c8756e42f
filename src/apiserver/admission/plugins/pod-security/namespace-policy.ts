/**
 * PodSecurity on namespaces (upstream's `ValidateNamespace`): the labels must name a valid
 * policy, and raising the enforce level checks the pods already in the namespace, answering
 * with warnings (never a denial).
 */
import {
  type ApiError,
  type FieldError,
  fieldErrorString,
  invalidObject,
  type ObjectMeta,
  type PodSpec,
} from "../../../../api/index.ts";
import type { AdmissionAttributes, AdmissionDecision, ObjectReader } from "../../admission.ts";
import type { PodSecurityConfiguration } from "./configuration.ts";
import { type Evaluator, forbiddenReason } from "./evaluator.ts";
import {
  auditLevelLabel,
  auditVersionLabel,
  compareLevels,
  enforceLevelLabel,
  enforceVersionLabel,
  fullyPrivileged,
  type LevelVersion,
  levelVersionString,
  type Policy,
  policyToEvaluate,
  sameLevelVersion,
  versionString,
  warnLevelLabel,
  warnVersionLabel,
} from "./levels.ts";

/** What the namespace check needs from the plugin. */
export interface NamespaceCheckDeps {
  readonly reader: ObjectReader;
  readonly configuration: PodSecurityConfiguration;
  readonly evaluator: Evaluator;
  readonly now: () => Date;
  /** At most this many existing pods are checked (upstream: 3000). */
  readonly maxPodsToCheck: number;
  /** Checking existing pods stops after this long (upstream: 1 s). */
  readonly podCheckTimeoutMs: number;
}

interface PodObject {
  readonly metadata?: ObjectMeta;
  readonly spec?: PodSpec;
}

function labelsOf(obj: unknown): Record<string, string> | undefined {
  return (obj as { metadata?: ObjectMeta } | undefined)?.metadata?.labels;
}

function invalidLabels(name: string, errors: readonly FieldError[]): AdmissionDecision {
  const error: ApiError = invalidObject({ group: "", kind: "Namespace" }, name, errors);
  return { allowed: false, error };
}

function sameErrors(a: readonly FieldError[], b: readonly FieldError[]): boolean {
  return (
    a.length === b.length &&
    a.every((e, i) => fieldErrorString(e) === fieldErrorString(b[i] as FieldError))
  );
}

/** `Equivalent`: equal levels, and equal versions unless the level is privileged. */
function equivalent(a: LevelVersion, b: LevelVersion): boolean {
  return (
    a.level === b.level &&
    (a.level === "privileged" || versionString(a.version) === versionString(b.version))
  );
}

/**
 * The warning for an exempt namespace whose labels ask for more than the defaults: upstream's
 * `namespace "x" is exempt from Pod Security, and the policy (enforce=…) will be ignored`.
 */
function exemptNamespaceWarning(
  namespace: string,
  policy: Policy,
  defaults: Policy,
  labels: Readonly<Record<string, string>>,
): string | undefined {
  if (
    fullyPrivileged(policy) ||
    (equivalent(policy.enforce, defaults.enforce) &&
      equivalent(policy.audit, defaults.audit) &&
      equivalent(policy.warn, defaults.warn))
  ) {
    return undefined;
  }
  const parts: string[] = [];
  const modes = [
    ["enforce", policy.enforce, enforceLevelLabel, enforceVersionLabel],
    ["audit", policy.audit, auditLevelLabel, auditVersionLabel],
    ["warn", policy.warn, warnLevelLabel, warnVersionLabel],
  ] as const;
  for (const [mode, lv, levelLabel, versionLabel] of modes) {
    if (lv.level !== "privileged" && (levelLabel in labels || versionLabel in labels)) {
      parts.push(`${mode}=${levelVersionString(lv)}`);
    }
  }
  return `namespace "${namespace}" is exempt from Pod Security, and the policy (${parts.join(", ")}) will be ignored`;
}

/** Validates a namespace create or update (main resource only). */
export function validateNamespace(
  deps: NamespaceCheckDeps,
  a: AdmissionAttributes,
): AdmissionDecision {
  if (a.subresource !== "") return { allowed: true };
  const labels = labelsOf(a.object) ?? {};
  const defaults = deps.configuration.defaults;
  const next = policyToEvaluate(labels, defaults);
  const exempt = deps.configuration.exemptions.namespaces.includes(a.name);
  const exemptWarning = (): AdmissionDecision => {
    const warning = exemptNamespaceWarning(a.name, next.policy, defaults, labels);
    return warning === undefined ? { allowed: true } : { allowed: true, warnings: [warning] };
  };
  if (a.operation === "CREATE") {
    if (next.errors.length > 0) return invalidLabels(a.name, next.errors);
    return exempt ? exemptWarning() : { allowed: true };
  }
  if (a.operation !== "UPDATE") return { allowed: true };
  const previous = policyToEvaluate(labelsOf(a.oldObject), defaults);
  if (
    next.errors.length > 0 &&
    (previous.errors.length === 0 || !sameErrors(next.errors, previous.errors))
  ) {
    return invalidLabels(a.name, next.errors);
  }
  const enforce = next.policy.enforce;
  const before = previous.policy.enforce;
  // Existing pods are dry-run only when the enforce policy got stricter.
  if (sameLevelVersion(enforce, before) || enforce.level === "privileged") return { allowed: true };
  if (
    versionString(enforce.version) === versionString(before.version) &&
    compareLevels(enforce.level, before.level) < 1
  ) {
    return { allowed: true };
  }
  if (exempt) return exemptWarning();
  return { allowed: true, warnings: evaluatePodsInNamespace(deps, a.name, enforce) };
}

/**
 * Existing pods first from distinct controllers (one pod per owner, then the other replicas),
 * leaving out those of exempt runtime classes: upstream's `prioritizePods`.
 */
function prioritizePods(
  pods: readonly PodObject[],
  exemptRuntimeClasses: readonly string[],
): PodObject[] {
  const first: PodObject[] = [];
  const duplicates: PodObject[] = [];
  const owners = new Set<string>();
  for (const pod of pods) {
    const runtimeClass = pod.spec?.runtimeClassName ?? "";
    if (runtimeClass !== "" && exemptRuntimeClasses.includes(runtimeClass)) continue;
    const owner = pod.metadata?.ownerReferences?.find((o) => o.controller === true);
    if (owner === undefined) first.push(pod);
    else if (owners.has(owner.uid)) duplicates.push(pod);
    else {
      owners.add(owner.uid);
      first.push(pod);
    }
  }
  return [...first, ...duplicates];
}

/**
 * Checks the namespace's pods against a new enforce level: at most `maxPodsToCheck` of them and
 * for at most `podCheckTimeoutMs`, grouping pods by their violations, as upstream's
 * `EvaluatePodsInNamespace`.
 */
export function evaluatePodsInNamespace(
  deps: NamespaceCheckDeps,
  namespace: string,
  enforce: LevelVersion,
): string[] {
  const started = deps.now().getTime();
  const all = prioritizePods(
    deps.reader.list("pods", namespace) as readonly unknown[] as readonly PodObject[],
    deps.configuration.exemptions.runtimeClasses,
  );
  const pods = all.slice(0, deps.maxPodsToCheck);
  let checked = pods.length;
  const byReason = new Map<string, { name: string; count: number }>();
  for (const [i, pod] of pods.entries()) {
    const result = deps.evaluator.evaluate(
      enforce,
      pod.metadata ?? {},
      pod.spec ?? { containers: [] },
    );
    if (!result.allowed) {
      const reason = forbiddenReason(result);
      const name = pod.metadata?.name ?? "";
      const seen = byReason.get(reason);
      if (seen === undefined) byReason.set(reason, { name, count: 1 });
      else
        byReason.set(reason, { name: name < seen.name ? name : seen.name, count: seen.count + 1 });
    }
    if (deps.now().getTime() - started >= deps.podCheckTimeoutMs) {
      checked = i + 1;
      break;
    }
  }
  const warnings: string[] = [];
  if (checked < all.length) {
    warnings.push(
      `new PodSecurity enforce level only checked against the first ${checked} of ${all.length} existing pods`,
    );
  }
  if (byReason.size > 0) {
    warnings.push(
      `existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`,
    );
  }
  const podWarnings = [...byReason].map(([reason, { name, count }]) => {
    if (count === 1) return `${name}: ${reason}`;
    if (count === 2) return `${name} (and 1 other pod): ${reason}`;
    return `${name} (and ${count - 1} other pods): ${reason}`;
  });
  return [...warnings, ...podWarnings.sort()];
}
