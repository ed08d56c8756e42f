/**
 * PodSecurity admission: the Pod Security Standards (privileged, baseline, restricted) chosen per
 * namespace by the `pod-security.kubernetes.io/*` labels, as upstream's plugin
 * (`k8s.io/pod-security-admission/admission`). Pods are enforced; pods and the pod templates of
 * workload resources get warnings and audit annotations; namespace labels are validated.
 */
import {
  type ApiError,
  fieldErrorString,
  forbidden,
  internalError,
  type ObjectMeta,
  type PodSpec,
  type PodTemplateSpec,
} from "../../../../api/index.ts";
import type { JsonObject } from "../../../../util/index.ts";
import type {
  AdmissionAttributes,
  AdmissionDecision,
  AdmissionPlugin,
  ObjectReader,
} from "../../admission.ts";
import { defaultPodSecurityConfiguration, type PodSecurityConfiguration } from "./configuration.ts";
import {
  type AggregateResult,
  type Evaluator,
  forbiddenDetail,
  newEvaluator,
} from "./evaluator.ts";
import {
  auditViolationsAnnotation,
  enforcePolicyAnnotation,
  errorAnnotation,
  exemptAnnotation,
  type LevelVersion,
  latest,
  levelVersionString,
  type Policy,
  policyToEvaluate,
} from "./levels.ts";
import { type NamespaceCheckDeps, validateNamespace } from "./namespace-policy.ts";

export const name = "PodSecurity";

export interface PodSecurityOptions {
  /** Defaults and exemptions. @default privileged everywhere, no exemptions */
  readonly configuration?: PodSecurityConfiguration;
  /** Times the check of existing pods when a namespace's enforce level is raised. */
  readonly clock: { now(): Date };
  /** @default newEvaluator() (every check of the standards) */
  readonly evaluator?: Evaluator;
  /** Existing pods checked when a namespace's enforce level is raised. @default 3000 */
  readonly maxPodsToCheck?: number;
  /** How long that check may take. @default 1000 */
  readonly podCheckTimeoutMs?: number;
}

/** Pod subresources that cannot change what the standards look at. */
const ignoredPodSubresources = new Set([
  "exec",
  "attach",
  "binding",
  "eviction",
  "log",
  "portforward",
  "proxy",
  "status",
]);

/** Resources that embed a pod template: checked for warn and audit only, never enforced. */
const podTemplateResources = new Set([
  "/replicationcontrollers",
  "/podtemplates",
  "apps/replicasets",
  "apps/deployments",
  "apps/statefulsets",
  "apps/daemonsets",
  "batch/jobs",
  "batch/cronjobs",
]);

type Annotations = Record<string, string>;

function allowedWith(annotations: Annotations): AdmissionDecision {
  return { allowed: true, auditAnnotations: annotations };
}

interface PodLike {
  readonly metadata?: ObjectMeta;
  readonly spec?: PodSpec;
}

/** The pod template a workload object embeds (upstream's `DefaultPodSpecExtractor`). */
function podTemplateOf(resource: string, obj: unknown): PodTemplateSpec | undefined {
  const o = obj as {
    template?: PodTemplateSpec;
    spec?: {
      template?: PodTemplateSpec;
      jobTemplate?: { spec?: { template?: PodTemplateSpec } };
    };
  };
  if (resource === "podtemplates") return o.template ?? undefined;
  if (resource === "cronjobs") return o.spec?.jobTemplate?.spec?.template ?? undefined;
  return o.spec?.template ?? undefined;
}

function containerImages(list: readonly { name: string; image?: string }[] | undefined): string[] {
  return (list ?? []).map((c) => c.image ?? "");
}

const seccompContainerAnnotationPrefix = "container.seccomp.security.alpha.kubernetes.io/";

/**
 * Whether a pod update can change what the standards check: containers added or removed, an
 * image or a container's seccomp annotation changed, an ephemeral container added or changed
 * (upstream's `isSignificantPodUpdate`). Other updates are always allowed.
 */
export function isSignificantPodUpdate(pod: PodLike, old: PodLike): boolean {
  const annotations = pod.metadata?.annotations ?? {};
  const oldAnnotations = old.metadata?.annotations ?? {};
  const changed = (
    c: { name: string; image?: string },
    o: { name: string; image?: string },
  ): boolean =>
    (c.image ?? "") !== (o.image ?? "") ||
    annotations[seccompContainerAnnotationPrefix + c.name] !==
      oldAnnotations[seccompContainerAnnotationPrefix + c.name];
  const pairs = (
    now: readonly { name: string; image?: string }[] | undefined,
    before: readonly { name: string; image?: string }[] | undefined,
  ): boolean => {
    if (containerImages(now).length !== containerImages(before).length) return true;
    return (now ?? []).some((c, i) => changed(c, (before ?? [])[i] ?? { name: "" }));
  };
  if (pairs(pod.spec?.containers, old.spec?.containers)) return true;
  if (pairs(pod.spec?.initContainers, old.spec?.initContainers)) return true;
  for (const c of pod.spec?.ephemeralContainers ?? []) {
    const o = (old.spec?.ephemeralContainers ?? []).find((e) => e.name === c.name);
    if (o === undefined || changed(c, o)) return true;
  }
  return false;
}

/** The PodSecurity admission plugin (validating only). */
export function newPodSecurity(reader: ObjectReader, options: PodSecurityOptions): AdmissionPlugin {
  const configuration = options.configuration ?? defaultPodSecurityConfiguration;
  const evaluator = options.evaluator ?? newEvaluator();
  const { exemptions } = configuration;
  const namespaceDeps: NamespaceCheckDeps = {
    reader,
    configuration,
    evaluator,
    now: () => options.clock.now(),
    maxPodsToCheck: options.maxPodsToCheck ?? 3000,
    podCheckTimeoutMs: options.podCheckTimeoutMs ?? 1000,
  };

  const exemptNamespace = (ns: string): boolean => ns !== "" && exemptions.namespaces.includes(ns);
  const exemptUser = (user: string): boolean => user !== "" && exemptions.usernames.includes(user);

  // Policies by namespace object: cached objects are never changed in place, a new label is a new
  // object, so each version's labels are parsed once rather than on every pod.
  const policies = new WeakMap<object, { policy: Policy; errors: string }>();
  const namespacePolicy = async (
    namespace: string,
  ): Promise<{ policy: Policy; errors: string } | undefined> => {
    const ns =
      reader.get("namespaces", "", namespace) ??
      (await reader.getFresh("namespaces", "", namespace));
    if (ns === undefined) return undefined;
    let known = policies.get(ns);
    if (known === undefined) {
      known = policyOf(ns);
      policies.set(ns, known);
    }
    return known;
  };
  const policyOf = (ns: JsonObject): { policy: Policy; errors: string } => {
    const labels = (ns["metadata"] as ObjectMeta | undefined)?.labels;
    const { policy, errors } = policyToEvaluate(labels, configuration.defaults);
    const texts = errors.map(fieldErrorString);
    return {
      policy,
      errors:
        texts.length === 0 ? "" : texts.length === 1 ? (texts[0] ?? "") : `[${texts.join(", ")}]`,
    };
  };

  /** Upstream's `EvaluatePod`: enforce (pods only), then audit, then warn. */
  const evaluate = (
    a: AdmissionAttributes,
    policy: Policy,
    policyErrors: string,
    template: PodLike,
    enforce: boolean,
  ): AdmissionDecision => {
    const spec: PodSpec = template.spec ?? { containers: [] };
    const runtimeClass = spec.runtimeClassName ?? "";
    if (runtimeClass !== "" && exemptions.runtimeClasses.includes(runtimeClass)) {
      return allowedWith({ [exemptAnnotation]: "runtimeClass" });
    }
    const metadata = template.metadata ?? {};
    const annotations: Annotations = {};
    if (policyErrors !== "")
      annotations[errorAnnotation] = `Failed to parse policy: ${policyErrors}`;
    const results = new Map<string, AggregateResult>();
    const resultFor = (lv: LevelVersion): AggregateResult => {
      const key = levelVersionString(lv);
      const cached = results.get(key);
      if (cached !== undefined) return cached;
      const result = evaluator.evaluate(lv, metadata, spec);
      results.set(key, result);
      return result;
    };
    let denial: ApiError | undefined;
    if (enforce) {
      annotations[enforcePolicyAnnotation] = levelVersionString(policy.enforce);
      const result = resultFor(policy.enforce);
      if (!result.allowed) {
        denial = forbidden(
          { group: a.group, resource: a.resource },
          a.name,
          `violates PodSecurity "${levelVersionString(policy.enforce)}": ${forbiddenDetail(result)}`,
        );
      }
    }
    const audit = resultFor(policy.audit);
    if (!audit.allowed) {
      annotations[auditViolationsAnnotation] =
        `would violate PodSecurity "${levelVersionString(policy.audit)}": ${forbiddenDetail(audit)}`;
    }
    if (denial !== undefined)
      return { allowed: false, error: denial, auditAnnotations: annotations };
    const warn = resultFor(policy.warn);
    if (warn.allowed) return allowedWith(annotations);
    return {
      allowed: true,
      auditAnnotations: annotations,
      warnings: [
        `would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(warn)}`,
      ],
    };
  };

  const validatePod = async (a: AdmissionAttributes): Promise<AdmissionDecision> => {
    if (ignoredPodSubresources.has(a.subresource)) return { allowed: true };
    if (exemptNamespace(a.namespace)) return allowedWith({ [exemptAnnotation]: "namespace" });
    if (exemptUser(a.userInfo.username)) return allowedWith({ [exemptAnnotation]: "user" });
    const ns = await namespacePolicy(a.namespace);
    if (ns === undefined) {
      const message = `failed to lookup namespace "${a.namespace}"`;
      return {
        allowed: false,
        error: internalError(message),
        auditAnnotations: { [errorAnnotation]: `Internal error occurred: ${message}` },
      };
    }
    const { policy, errors } = ns;
    if (
      errors === "" &&
      policy.enforce.level === "privileged" &&
      policy.audit.level === "privileged" &&
      policy.warn.level === "privileged"
    ) {
      return allowedWith({
        [enforcePolicyAnnotation]: levelVersionString({ level: "privileged", version: latest }),
      });
    }
    const pod = (a.object ?? {}) as PodLike;
    if (a.operation === "UPDATE" && !isSignificantPodUpdate(pod, (a.oldObject ?? {}) as PodLike)) {
      return { allowed: true };
    }
    return evaluate(a, policy, errors, pod, true);
  };

  const validatePodController = async (a: AdmissionAttributes): Promise<AdmissionDecision> => {
    if (a.subresource !== "") return { allowed: true };
    if (exemptNamespace(a.namespace)) return allowedWith({ [exemptAnnotation]: "namespace" });
    if (exemptUser(a.userInfo.username)) return allowedWith({ [exemptAnnotation]: "user" });
    const ns = await namespacePolicy(a.namespace);
    if (ns === undefined) {
      return allowedWith({
        [errorAnnotation]: `failed to lookup namespace "${a.namespace}": namespaces "${a.namespace}" not found`,
      });
    }
    const { policy, errors } = ns;
    if (
      errors === "" &&
      policy.warn.level === "privileged" &&
      policy.audit.level === "privileged"
    ) {
      return { allowed: true };
    }
    const template = podTemplateOf(a.resource, a.object);
    if (template === undefined) return { allowed: true };
    return evaluate(a, policy, errors, template, false);
  };

  return {
    name,
    handles: (a) =>
      (a.operation === "CREATE" || a.operation === "UPDATE") &&
      ((a.group === "" && (a.resource === "pods" || a.resource === "namespaces")) ||
        podTemplateResources.has(`${a.group}/${a.resource}`)),
    async validate(a) {
      if (a.group === "" && a.resource === "namespaces") return validateNamespace(namespaceDeps, a);
      if (a.group === "" && a.resource === "pods") return validatePod(a);
      return validatePodController(a);
    },
  };
}
