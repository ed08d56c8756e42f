/**
 * LimitRanger (upstream's plugin/pkg/admission/limitranger): on pod creation, fills in the
 * default requests and limits of every container and init container from the namespace's
 * LimitRanges (annotating what it set), then enforces each LimitRange's min, max and
 * maxLimitRequestRatio per Container and per Pod. Refusals are 403 Forbidden in upstream's
 * words: `pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2`.
 */
import {
  type Container,
  forbidden,
  formatQuantity,
  type KubeObject,
  type LimitRange,
  type ParsedQuantity,
  type Pod,
  parseQuantity,
  type ResourceList,
  scaledValue,
} from "../../../api/index.ts";
import type { Clock } from "../../../util/index.ts";
import {
  type AdmissionAttributes,
  type AdmissionDecision,
  type AdmissionPlugin,
  admit,
  type ObjectReader,
} from "../admission.ts";

export const name = "LimitRanger";
/** The annotation naming what the plugin defaulted. */
export const limitRangerAnnotation = "kubernetes.io/limit-ranger";

const segment = "limitranges";
/** How long a namespace without LimitRanges in the cache is not looked up again (upstream's liveTTL). */
const liveTtlMs = 30_000;
/** `resource.MaxMilliValue`: beyond it upstream compares whole units instead of thousandths. */
const maxMilliValue = 9_223_372_036_854_775n;

export interface LimitRangerOptions {
  readonly reader: ObjectReader;
  readonly clock: Clock;
}

/** Go's `utilerrors.NewAggregate(errs).Error()`: duplicates dropped, several in brackets. */
export function aggregateMessages(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? "") : `[${unique.join(", ")}]`;
}

function parse(text: string | undefined): ParsedQuantity | undefined {
  if (text === undefined) return undefined;
  try {
    return parseQuantity(String(text));
  } catch (error: unknown) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

const zero: ParsedQuantity = { unscaled: 0n, scale: 0, format: "DecimalSI" };

/** `requestLimitEnforcedValues`: thousandths when nothing overflows, whole units otherwise. */
function comparable(
  request: ParsedQuantity,
  limit: ParsedQuantity,
  enforced: ParsedQuantity,
): [bigint, bigint, bigint] {
  const values = [request, limit, enforced].map((q) => scaledValue(q, 0));
  if (values.every((v) => v <= maxMilliValue)) {
    return [scaledValue(request, -3), scaledValue(limit, -3), scaledValue(enforced, -3)];
  }
  return values as [bigint, bigint, bigint];
}

type Lists = { readonly requests: ResourceList; readonly limits: ResourceList };

function minConstraint(
  type: string,
  resource: string,
  enforced: ParsedQuantity,
  l: Lists,
): string | undefined {
  const req = parse(l.requests[resource]);
  const lim = parse(l.limits[resource]);
  const [r, li, e] = comparable(req ?? zero, lim ?? zero, enforced);
  const min = formatQuantity(enforced);
  if (req === undefined)
    return `minimum ${resource} usage per ${type} is ${min}.  No request is specified`;
  if (r < e)
    return `minimum ${resource} usage per ${type} is ${min}, but request is ${formatQuantity(req)}`;
  if (lim !== undefined && li < e) {
    return `minimum ${resource} usage per ${type} is ${min}, but limit is ${formatQuantity(lim)}`;
  }
  return undefined;
}

function maxConstraint(
  type: string,
  resource: string,
  enforced: ParsedQuantity,
  l: Lists,
): string | undefined {
  const req = parse(l.requests[resource]);
  const lim = parse(l.limits[resource]);
  const [r, li, e] = comparable(req ?? zero, lim ?? zero, enforced);
  const max = formatQuantity(enforced);
  if (lim === undefined)
    return `maximum ${resource} usage per ${type} is ${max}.  No limit is specified`;
  if (li > e)
    return `maximum ${resource} usage per ${type} is ${max}, but limit is ${formatQuantity(lim)}`;
  if (req !== undefined && r > e) {
    return `maximum ${resource} usage per ${type} is ${max}, but request is ${formatQuantity(req)}`;
  }
  return undefined;
}

function ratioConstraint(
  type: string,
  resource: string,
  enforced: ParsedQuantity,
  l: Lists,
): string | undefined {
  const req = parse(l.requests[resource]);
  const lim = parse(l.limits[resource]);
  const [r, li] = comparable(req ?? zero, lim ?? zero, enforced);
  const ratio = formatQuantity(enforced);
  if (req === undefined || r === 0n) {
    return `${resource} max limit to request ratio per ${type} is ${ratio}, but no request is specified or request is 0`;
  }
  if (lim === undefined || li === 0n) {
    return `${resource} max limit to request ratio per ${type} is ${ratio}, but no limit is specified or limit is 0`;
  }
  const observed = Number(li) / Number(r);
  const whole = scaledValue(enforced, 0);
  const exceeds =
    whole <= maxMilliValue
      ? observed * 1000 > Number(scaledValue(enforced, -3))
      : observed > Number(whole);
  if (!exceeds) return undefined;
  return `${resource} max limit to request ratio per ${type} is ${ratio}, but provided ratio is ${observed.toFixed(6)}`;
}

function check(
  type: string,
  lists: Lists,
  bounds: { min?: ResourceList; max?: ResourceList; maxLimitRequestRatio?: ResourceList },
): string[] {
  const out: string[] = [];
  const each = (
    list: ResourceList | undefined,
    fn: (t: string, r: string, e: ParsedQuantity, l: Lists) => string | undefined,
  ): void => {
    for (const resource of Object.keys(list ?? {}).sort()) {
      const enforced = parse(list?.[resource]);
      if (enforced === undefined) continue;
      const message = fn(type, resource, enforced, lists);
      if (message !== undefined) out.push(message);
    }
  };
  each(bounds.min, minConstraint);
  each(bounds.max, maxConstraint);
  each(bounds.maxLimitRequestRatio, ratioConstraint);
  return out;
}

function addInto(target: Map<string, ParsedQuantity>, list: ResourceList | undefined): void {
  for (const [resource, text] of Object.entries(list ?? {})) {
    const q = parse(text);
    if (q === undefined) continue;
    const current = target.get(resource);
    target.set(resource, current === undefined ? q : addExact(current, q));
  }
}

function addExact(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity {
  const scale = Math.min(a.scale, b.scale);
  const unscaled =
    a.unscaled * 10n ** BigInt(a.scale - scale) + b.unscaled * 10n ** BigInt(b.scale - scale);
  return { unscaled, scale, format: a.unscaled === 0n ? b.format : a.format };
}

function maxInto(target: Map<string, ParsedQuantity>, source: Map<string, ParsedQuantity>): void {
  for (const [resource, q] of source) {
    const current = target.get(resource);
    if (current === undefined || compare(q, current) > 0) target.set(resource, q);
  }
}

function compare(a: ParsedQuantity, b: ParsedQuantity): number {
  const d = addExact(a, { ...b, unscaled: -b.unscaled }).unscaled;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** The limit plugin's own `podRequests`/`podLimits`: sidecars add up, init containers peak. */
function podTotal(pod: Pod, side: "requests" | "limits"): ResourceList {
  const total = new Map<string, ParsedQuantity>();
  for (const c of pod.spec.containers ?? []) addInto(total, c.resources?.[side]);
  const sidecars = new Map<string, ParsedQuantity>();
  const peak = new Map<string, ParsedQuantity>();
  for (const c of pod.spec.initContainers ?? []) {
    if (c.restartPolicy === "Always") {
      addInto(total, c.resources?.[side]);
      addInto(sidecars, c.resources?.[side]);
      maxInto(peak, sidecars);
    } else {
      const moment = new Map(sidecars);
      addInto(moment, c.resources?.[side]);
      maxInto(peak, moment);
    }
  }
  maxInto(total, peak);
  // Pod-level resources stand for the containers' cpu and memory.
  for (const resource of ["cpu", "memory"]) {
    const q = parse(pod.spec.resources?.[side]?.[resource]);
    if (q !== undefined) total.set(resource, q);
  }
  const out: ResourceList = {};
  for (const [resource, q] of total) out[resource] = formatQuantity(q);
  return out;
}

/** `PodValidateLimitFunc`: the violations of one LimitRange. */
export function podLimitViolations(limitRange: LimitRange, pod: Pod): string[] {
  const out: string[] = [];
  for (const item of limitRange.spec?.limits ?? []) {
    if (item.type === "Container") {
      for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
        const lists = { requests: c.resources?.requests ?? {}, limits: c.resources?.limits ?? {} };
        out.push(...check(item.type, lists, item));
      }
    }
    if (item.type === "Pod") {
      const lists = { requests: podTotal(pod, "requests"), limits: podTotal(pod, "limits") };
      out.push(...check(item.type, lists, item));
    }
  }
  return out;
}

/** Sets missing requests and limits of one container; returns the annotation parts. */
function mergeContainer(
  container: Container,
  defaults: { requests: ResourceList; limits: ResourceList },
  prefix: string,
): string[] {
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  const limits: ResourceList = { ...container.resources?.limits };
  const requests: ResourceList = { ...container.resources?.requests };
  for (const [resource, q] of Object.entries(defaults.limits)) {
    if (limits[resource] !== undefined) continue;
    limits[resource] = q;
    setLimits.push(resource);
  }
  for (const [resource, q] of Object.entries(defaults.requests)) {
    if (requests[resource] !== undefined) continue;
    requests[resource] = q;
    setRequests.push(resource);
  }
  if (setLimits.length > 0 || setRequests.length > 0) {
    container.resources ??= {};
    if (Object.keys(limits).length > 0) container.resources.limits = limits;
    if (Object.keys(requests).length > 0) container.resources.requests = requests;
  }
  const parts: string[] = [];
  if (setRequests.length > 0) {
    parts.push(`${setRequests.sort().join(", ")} request for ${prefix} ${container.name}`);
  }
  if (setLimits.length > 0) {
    parts.push(`${setLimits.sort().join(", ")} limit for ${prefix} ${container.name}`);
  }
  return parts;
}

/** `PodMutateLimitFunc`: one LimitRange's Container defaults applied to `pod` in place. */
export function mergeLimitRangeDefaults(limitRange: LimitRange, pod: Pod): void {
  const defaults = { requests: {} as ResourceList, limits: {} as ResourceList };
  for (const item of limitRange.spec?.limits ?? []) {
    if (item.type !== "Container") continue;
    Object.assign(defaults.requests, item.defaultRequest);
    Object.assign(defaults.limits, item.default);
  }
  const parts: string[] = [];
  for (const c of pod.spec.containers ?? [])
    parts.push(...mergeContainer(c, defaults, "container"));
  for (const c of pod.spec.initContainers ?? []) {
    parts.push(...mergeContainer(c, defaults, "init container"));
  }
  if (parts.length === 0) return;
  pod.metadata.annotations ??= {};
  pod.metadata.annotations[limitRangerAnnotation] = `LimitRanger plugin set: ${parts.join("; ")}`;
}

function handles(a: AdmissionAttributes): boolean {
  // Containers cannot change after creation, so updates have nothing to default or check.
  return (
    a.operation === "CREATE" && a.group === "" && a.resource === "pods" && a.subresource === ""
  );
}

function objectName(a: AdmissionAttributes): string {
  if (a.name !== "") return a.name;
  const meta = a.object?.metadata;
  return meta?.name || meta?.generateName || "Unknown";
}

export function newLimitRanger(options: LimitRangerOptions): AdmissionPlugin {
  const { reader, clock } = options;
  /** Namespaces looked up live recently, and until when that answer stands. */
  const looked = new Map<string, number>();

  const limitRanges = async (namespace: string): Promise<LimitRange[]> => {
    let items = reader.list(segment, namespace);
    if (items.length === 0) {
      // As upstream's live lookup on an empty cache: a LimitRange written a moment ago (maybe
      // through another API server) may not be in the cache yet.
      const now = clock.now().getTime();
      if ((looked.get(namespace) ?? 0) <= now) {
        await reader.getFresh(segment, namespace, "");
        looked.set(namespace, now + liveTtlMs);
        items = reader.list(segment, namespace);
      }
    } else {
      looked.delete(namespace);
    }
    return items as unknown as LimitRange[];
  };

  const deny = (a: AdmissionAttributes, message: string): AdmissionDecision => ({
    allowed: false,
    error: forbidden({ group: "", resource: "pods" }, objectName(a), message),
  });

  return {
    name,
    handles,
    async mutate(a) {
      const pod = a.object as (KubeObject & Pod) | undefined;
      if (pod === undefined) return admit;
      for (const lr of await limitRanges(a.namespace)) mergeLimitRangeDefaults(lr, pod);
      return admit;
    },
    async validate(a) {
      const pod = a.object as (KubeObject & Pod) | undefined;
      if (pod === undefined) return admit;
      for (const lr of await limitRanges(a.namespace)) {
        const violations = podLimitViolations(lr, pod);
        if (violations.length > 0) return deny(a, aggregateMessages(violations));
      }
      return admit;
    },
  };
}
