/**
 * ResourceQuota (upstream's k8s.io/apiserver/pkg/admission/plugin/resourcequota), the last
 * admission step: a create or update that would take a namespace past a quota's `status.hard`
 * is refused with 403 Forbidden (`exceeded quota: q, requested: pods=1, used: pods=2, limited:
 * pods=2`); otherwise the request's usage is added to `status.used` with a compare-and-swap on
 * the quota's resourceVersion before the object is stored, so two racing creates cannot both
 * take the last unit. Requests of one namespace are checked one at a time in this server; a
 * conflict with another server's write is retried three times on fresh quotas, then returned.
 */
import {
  type ApiError,
  addUsage,
  asApiError,
  exceededResources,
  forbidden,
  type KubeObject,
  maskUsage,
  negativeResources,
  printUsage,
  type QuotaEvaluator,
  quotaEvaluatorFor,
  quotaMatches,
  type ResourceQuota,
  removeZeros,
  resourceListOf,
  subtractNonNegative,
  type Usage,
  usageEquals,
  usageOf,
} from "../../../api/index.ts";
import { type Clock, deepCopy } from "../../../util/index.ts";
import {
  type AdmissionAttributes,
  type AdmissionDecision,
  type AdmissionPlugin,
  admit,
} from "../admission.ts";

export const name = "ResourceQuota";

/** Resources quota never counts: virtual ones and events (upstream's DefaultIgnoredResources). */
const ignoredResources: ReadonlySet<string> = new Set([
  "/bindings",
  "/componentstatuses",
  "authentication.k8s.io/tokenreviews",
  "authentication.k8s.io/selfsubjectreviews",
  "authorization.k8s.io/subjectaccessreviews",
  "authorization.k8s.io/selfsubjectaccessreviews",
  "authorization.k8s.io/localsubjectaccessreviews",
  "authorization.k8s.io/selfsubjectrulesreviews",
  "/events",
  "events.k8s.io/events",
]);

/** How long a namespace without quotas in the cache is not looked up again. */
const liveTtlMs = 30_000;
/** Conflicting quota writes are retried this many times (upstream's checkQuotas). */
const retries = 3;
/** Quotas this server wrote, remembered until the cache has them (upstream keeps 100). */
const writtenLimit = 100;

/** How the plugin reads and writes quotas; the API server implements it over its registry. */
export interface QuotaAccess {
  /** The namespace's quotas as the watch cache holds them. */
  list(namespace: string): readonly ResourceQuota[];
  /** The same once the cache has caught up with storage. */
  listFresh(namespace: string): Promise<readonly ResourceQuota[]>;
  /**
   * Writes `quota.status` if `quota.metadata.resourceVersion` is still the stored one, and
   * returns the written quota; a 409 Conflict ApiError otherwise.
   */
  updateStatus(quota: ResourceQuota): Promise<ResourceQuota>;
}

export interface ResourceQuotaOptions {
  readonly quotas: QuotaAccess;
  readonly clock: Clock;
}

function objectName(a: AdmissionAttributes): string {
  if (a.name !== "") return a.name;
  const meta = a.object?.metadata;
  return meta?.name || meta?.generateName || "Unknown";
}

function revision(quota: ResourceQuota): number {
  return Number(quota.metadata.resourceVersion ?? "0") || 0;
}

function keyOf(quota: ResourceQuota): string {
  return `${quota.metadata.namespace ?? ""}/${quota.metadata.name ?? ""}`;
}

type Check = { readonly quotas: ResourceQuota[] } | { readonly message: string };

/**
 * `CheckRequest`: the quotas as they would be if the request were admitted, or why it is not.
 * Only quotas whose `status.hard` tracks a resource of this kind (and whose scopes match the
 * object) are considered.
 */
export function checkRequest(
  quotas: readonly ResourceQuota[],
  a: Pick<AdmissionAttributes, "operation" | "object" | "oldObject">,
  evaluator: QuotaEvaluator,
  now: Date,
): Check {
  const object = a.object as KubeObject;
  const interesting: number[] = [];
  for (const [i, quota] of quotas.entries()) {
    if (!quotaMatches(evaluator, quota, object)) continue;
    const hard = Object.keys(quota.status?.hard ?? {});
    const restricted = evaluator.matchingResources(hard);
    const failed = evaluator.constraints(restricted, object);
    if (failed !== undefined) {
      return { message: `failed quota: ${quota.metadata.name ?? ""}: ${failed}` };
    }
    const used = quota.status?.used ?? {};
    if (restricted.some((r) => used[r] === undefined)) {
      return {
        message: `status unknown for quota: ${quota.metadata.name ?? ""}, resources: ${[...restricted].sort().join(",")}`,
      };
    }
    interesting.push(i);
  }
  const input = evaluator.usage(object, now);
  const negative = negativeResources(input);
  if (negative.length > 0) {
    return { message: `quota usage is negative for resource(s): ${negative.sort().join(",")}` };
  }
  const deltas = new Map<number, Usage>(interesting.map((i) => [i, input]));
  if (a.operation === "UPDATE" && a.oldObject !== undefined) {
    const previous = evaluator.usage(a.oldObject, now);
    const delta = subtractNonNegative(input, previous);
    for (const i of interesting) {
      const quota = quotas[i];
      if (quota !== undefined && quotaMatches(evaluator, quota, a.oldObject)) deltas.set(i, delta);
    }
  }
  for (const [i, delta] of deltas) {
    const nonZero = removeZeros(delta);
    if (nonZero.size === 0) deltas.delete(i);
    else deltas.set(i, nonZero);
  }
  if (deltas.size === 0) return { quotas: [...quotas] };
  const out = quotas.map((q) => deepCopy(q));
  for (const i of interesting) {
    const quota = out[i];
    const delta = deltas.get(i);
    if (quota === undefined || delta === undefined) continue;
    const hard = usageOf(quota.status?.hard);
    const used = usageOf(quota.status?.used);
    const requested = maskUsage(delta, hard.keys());
    const next = addUsage(used, requested);
    const exceeded = exceededResources(maskUsage(next, requested.keys()), hard);
    if (exceeded.length > 0) {
      return {
        message: `exceeded quota: ${quota.metadata.name ?? ""}, requested: ${printUsage(maskUsage(requested, exceeded))}, used: ${printUsage(maskUsage(used, exceeded))}, limited: ${printUsage(maskUsage(hard, exceeded))}`,
      };
    }
    quota.status = { ...quota.status, used: resourceListOf(next) };
  }
  return { quotas: out };
}

export function newResourceQuota(options: ResourceQuotaOptions): AdmissionPlugin {
  const { quotas: access, clock } = options;
  const written = new Map<string, ResourceQuota>();
  const looked = new Map<string, number>();
  /** The tail of each namespace's queue of checks. */
  const queues = new Map<string, Promise<unknown>>();

  const remember = (quota: ResourceQuota): void => {
    written.delete(keyOf(quota));
    written.set(keyOf(quota), quota);
    while (written.size > writtenLimit) {
      const oldest = written.keys().next().value;
      if (oldest === undefined) break;
      written.delete(oldest);
    }
  };

  /** The cache's quotas, each replaced by a newer version this server wrote. */
  const newest = (items: readonly ResourceQuota[]): ResourceQuota[] =>
    items.map((quota) => {
      const mine = written.get(keyOf(quota));
      if (mine === undefined) return quota;
      if (revision(mine) > revision(quota)) return mine;
      written.delete(keyOf(quota));
      return quota;
    });

  const getQuotas = async (namespace: string): Promise<ResourceQuota[]> => {
    let items = access.list(namespace);
    if (items.length === 0) {
      const now = clock.now().getTime();
      if ((looked.get(namespace) ?? 0) > now) return [];
      items = await access.listFresh(namespace);
      looked.set(namespace, now + liveTtlMs);
    } else {
      looked.delete(namespace);
    }
    return newest(items);
  };

  const deny = (a: AdmissionAttributes, message: string): AdmissionDecision => ({
    allowed: false,
    error: forbidden({ group: a.group, resource: a.resource }, objectName(a), message),
  });

  const checkQuotas = async (
    a: AdmissionAttributes,
    evaluator: QuotaEvaluator,
    quotas: readonly ResourceQuota[],
    remaining: number,
  ): Promise<AdmissionDecision> => {
    const result = checkRequest(quotas, a, evaluator, clock.now());
    if ("message" in result) return deny(a, result.message);
    if (a.dryRun) return admit;
    const changed = result.quotas.filter(
      (q, i) => !usageEquals(usageOf(q.status?.used), usageOf(quotas[i]?.status?.used)),
    );
    const failed: ResourceQuota[] = [];
    let lastError: ApiError | undefined;
    for (const quota of changed) {
      try {
        remember(await access.updateStatus(quota));
      } catch (error: unknown) {
        failed.push(quota);
        lastError = asApiError(error);
      }
    }
    if (failed.length === 0) return admit;
    if (lastError !== undefined && remaining <= 0) return { allowed: false, error: lastError };
    const fresh = newest(await access.listFresh(a.namespace));
    const names = new Set(failed.map((q) => q.metadata.name));
    return checkQuotas(
      a,
      evaluator,
      fresh.filter((q) => names.has(q.metadata.name)),
      remaining - 1,
    );
  };

  /** Runs `work` after every earlier check of the namespace has finished. */
  const serialized = <T>(namespace: string, work: () => Promise<T>): Promise<T> => {
    const previous = queues.get(namespace) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(namespace, tail);
    void tail.then(() => {
      if (queues.get(namespace) === tail) queues.delete(namespace);
    });
    return run;
  };

  // Evaluators hold no state: one per resource, made on its first write.
  const evaluators = new Map<string, QuotaEvaluator>();
  const evaluatorFor = (group: string, resource: string): QuotaEvaluator => {
    const key = `${group}/${resource}`;
    let evaluator = evaluators.get(key);
    if (evaluator === undefined) {
      evaluator = quotaEvaluatorFor(group, resource);
      evaluators.set(key, evaluator);
    }
    return evaluator;
  };

  return {
    name,
    handles: (a) =>
      (a.operation === "CREATE" || a.operation === "UPDATE") &&
      a.subresource === "" &&
      a.namespace !== "" &&
      !(a.group === "" && a.resource === "namespaces") &&
      !ignoredResources.has(`${a.group}/${a.resource}`),
    async validate(a) {
      if (a.object === undefined) return admit;
      const evaluator = evaluatorFor(a.group, a.resource);
      if (!evaluator.handles(a.operation as "CREATE" | "UPDATE", a.object, a.oldObject)) {
        return admit;
      }
      // Most namespaces have no quota: answer those without queueing behind other requests.
      const recentlyEmpty = (looked.get(a.namespace) ?? 0) > clock.now().getTime();
      if (recentlyEmpty && access.list(a.namespace).length === 0) return admit;
      return serialized(a.namespace, async () => {
        const quotas = await getQuotas(a.namespace);
        if (quotas.length === 0) return admit;
        return checkQuotas(a, evaluator, quotas, retries);
      });
    },
  };
}
