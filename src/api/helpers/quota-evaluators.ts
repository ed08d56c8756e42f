/**
 * What an object consumes of a ResourceQuota (upstream's pkg/quota/v1/evaluator/core and
 * k8s.io/apiserver/pkg/quota/v1/generic): pods (compute requests and limits, `pods`,
 * extended and hugepage requests, scopes), services (`services`, node ports, load balancers)
 * and object counts (`count/<resource>[.<group>]`, with the legacy names `configmaps`,
 * `secrets`, `resourcequotas`, `replicationcontrollers`). Shared by the ResourceQuota admission
 * plugin and the resource quota controller so both count alike.
 */
import { type DeepReadonly, deepCopy } from "../../util/index.ts";
import { qosClassOf } from "../core/v1/pod-helpers.ts";
import type { Container, PodAffinityTerm, ResourceList } from "../core/v1/pod-template.ts";
import type { Pod } from "../core/v1/pod-types.ts";
import type {
  ResourceQuota,
  ScopedResourceSelectorRequirement,
} from "../core/v1/resource-quota.ts";
import type { Service } from "../core/v1/service.ts";
import type { KubeObject } from "../meta/types.ts";
import { compareQuantities, type ParsedQuantity } from "../resource/quantity.ts";
import { isExtendedResourceName, isNativeResource } from "./pod-resources.ts";
import {
  addQuantity,
  addUsage,
  countQuantity,
  type Usage,
  usageOf,
  zeroQuantity,
} from "./quota-usage.ts";

export type QuotaOperation = "CREATE" | "UPDATE";

/** How quota measures the objects of one resource. */
export interface QuotaEvaluator {
  readonly group: string;
  readonly resource: string;
  /** The names among `names` this evaluator tracks. */
  matchingResources(names: Iterable<string>): string[];
  /** Whether `object` matches one scope requirement (scopeless kinds match none). */
  matchesScope(
    selector: ScopedResourceSelectorRequirement,
    object: DeepReadonly<KubeObject>,
  ): boolean;
  /** What `object` consumes at `now`. */
  usage(object: DeepReadonly<KubeObject>, now: Date): Usage;
  /** Whether a write can change usage (`Handles`). */
  handles(
    operation: QuotaOperation,
    object: DeepReadonly<KubeObject> | undefined,
    oldObject: DeepReadonly<KubeObject> | undefined,
  ): boolean;
  /** Why `object` may not be charged to a quota tracking `required`, if it may not. */
  constraints(required: readonly string[], object: DeepReadonly<KubeObject>): string | undefined;
}

/** `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export function objectCountName(group: string, resource: string): string {
  return group === "" ? `count/${resource}` : `count/${resource}.${group}`;
}

/** The group and resource a `count/…` name counts, if it is one. */
export function parseObjectCountName(
  name: string,
): { group: string; resource: string } | undefined {
  if (!name.startsWith("count/")) return undefined;
  const rest = name.slice("count/".length);
  if (rest === "") return undefined;
  const dot = rest.indexOf(".");
  return dot < 0
    ? { group: "", resource: rest }
    : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

/** The scope requirements of a quota: `spec.scopes` as `Exists`, then `scopeSelector`. */
export function quotaScopeSelectors(
  quota: DeepReadonly<ResourceQuota>,
): ScopedResourceSelectorRequirement[] {
  const out: ScopedResourceSelectorRequirement[] = (quota.spec?.scopes ?? []).map((scopeName) => ({
    scopeName,
    operator: "Exists",
  }));
  for (const req of quota.spec?.scopeSelector?.matchExpressions ?? []) {
    out.push(deepCopy(req) as ScopedResourceSelectorRequirement);
  }
  return out;
}

/** `generic.Matches`: the quota enforces a resource of this kind and every scope matches. */
export function quotaMatches(
  evaluator: QuotaEvaluator,
  quota: DeepReadonly<ResourceQuota>,
  object: DeepReadonly<KubeObject>,
): boolean {
  if (evaluator.matchingResources(Object.keys(quota.status?.hard ?? {})).length === 0) return false;
  return quotaScopeSelectors(quota).every((s) => evaluator.matchesScope(s, object));
}

/**
 * `CalculateUsageStats`: every tracked resource starts at 0, then the usage of each object
 * matching all scopes is added.
 */
export function usageStats(
  evaluator: QuotaEvaluator,
  objects: readonly DeepReadonly<KubeObject>[],
  selectors: readonly ScopedResourceSelectorRequirement[],
  resources: readonly string[],
  now: Date,
): Usage {
  let used: Usage = new Map(resources.map((name) => [name, zeroQuantity]));
  for (const object of objects) {
    if (selectors.every((s) => evaluator.matchesScope(s, object))) {
      used = addUsage(used, evaluator.usage(object, now));
    }
  }
  return used;
}

// ---- object counts ----

const legacyAliases: Readonly<Record<string, string>> = {
  configmaps: "configmaps",
  resourcequotas: "resourcequotas",
  replicationcontrollers: "replicationcontrollers",
  secrets: "secrets",
};

/** `NewObjectCountEvaluator`: one per object; created objects only; never in a scope. */
export function newObjectCountEvaluator(group: string, resource: string): QuotaEvaluator {
  const names = [objectCountName(group, resource)];
  const alias = group === "" ? legacyAliases[resource] : undefined;
  if (alias !== undefined) names.push(alias);
  return {
    group,
    resource,
    matchingResources: (input) => [...input].filter((n) => names.includes(n)),
    matchesScope: () => false,
    usage: () => new Map(names.map((n) => [n, countQuantity(1)])),
    handles: (operation) => operation === "CREATE",
    constraints: () => undefined,
  };
}

// ---- services ----

const serviceResources = [
  objectCountName("", "services"),
  "services",
  "services.nodeports",
  "services.loadbalancers",
];

/** `GetQuotaServiceType`: NodePort and LoadBalancer services use quota beyond their count. */
export function quotaServiceType(svc: DeepReadonly<Service> | undefined): string {
  const type = svc?.spec?.type ?? "";
  return type === "NodePort" || type === "LoadBalancer" ? type : "";
}

/** `NewServiceEvaluator`: services, their node ports and load balancers. */
export function newServiceEvaluator(): QuotaEvaluator {
  return {
    group: "",
    resource: "services",
    matchingResources: (input) => [...input].filter((n) => serviceResources.includes(n)),
    matchesScope: () => false,
    usage(object) {
      const svc = object as DeepReadonly<Service>;
      const ports = svc.spec?.ports ?? [];
      const usage: Usage = new Map([
        [objectCountName("", "services"), countQuantity(1)],
        ["services", countQuantity(1)],
        ["services.loadbalancers", zeroQuantity],
        ["services.nodeports", zeroQuantity],
      ]);
      switch (svc.spec?.type) {
        case "NodePort":
          usage.set("services.nodeports", countQuantity(ports.length));
          break;
        case "LoadBalancer": {
          // Without node port allocation only explicitly requested node ports count.
          const nodePorts =
            svc.spec.allocateLoadBalancerNodePorts === false
              ? ports.filter((p) => (p.nodePort ?? 0) !== 0).length
              : ports.length;
          usage.set("services.nodeports", countQuantity(nodePorts));
          usage.set("services.loadbalancers", countQuantity(1));
          break;
        }
        default:
          break;
      }
      return usage;
    },
    handles: (operation) => operation === "CREATE" || operation === "UPDATE",
    constraints: () => undefined,
  };
}

// ---- pods ----

const podResources = new Set([
  objectCountName("", "pods"),
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
]);

/** Quotas on these make every container name them explicitly (a historical rule upstream keeps). */
const validationSet = new Set([
  "cpu",
  "memory",
  "requests.cpu",
  "requests.memory",
  "limits.cpu",
  "limits.memory",
]);

const podLevelResources = new Set(["cpu", "memory"]);

/** Extended resources are quota-ed as `requests.<name>` only. */
function isExtendedResourceNameForQuota(name: string): boolean {
  return !isNativeResource(name) && name.startsWith("requests.");
}

/** `IsTerminating`: an active deadline makes a pod terminating. */
export function isTerminatingPod(pod: DeepReadonly<Pod>): boolean {
  return (pod.spec.activeDeadlineSeconds ?? -1) >= 0;
}

/**
 * `QuotaV1Pod`: a pod counts unless it is Succeeded or Failed, or was being deleted and its
 * grace period has run out.
 */
export function isPodCharged(pod: DeepReadonly<Pod>, now: Date): boolean {
  const phase = pod.status?.phase;
  if (phase === "Succeeded" || phase === "Failed") return false;
  const deletion = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (deletion !== undefined && deletion !== null && grace !== undefined) {
    if (now.getTime() > Date.parse(deletion) + grace * 1000) return false;
  }
  return true;
}

function crossNamespaceTerm(term: DeepReadonly<PodAffinityTerm>): boolean {
  return (term.namespaces?.length ?? 0) > 0 || term.namespaceSelector !== undefined;
}

function usesCrossNamespacePodAffinity(pod: DeepReadonly<Pod>): boolean {
  for (const affinity of [pod.spec.affinity?.podAffinity, pod.spec.affinity?.podAntiAffinity]) {
    if (affinity === undefined) continue;
    if ((affinity.requiredDuringSchedulingIgnoredDuringExecution ?? []).some(crossNamespaceTerm)) {
      return true;
    }
    const preferred = affinity.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    if (preferred.some((t) => crossNamespaceTerm(t.podAffinityTerm))) return true;
  }
  return false;
}

/** A PriorityClass scope requirement against the pod's class (a one-label selector). */
function matchesPriorityClass(
  pod: DeepReadonly<Pod>,
  req: ScopedResourceSelectorRequirement,
): boolean {
  const name = pod.spec.priorityClassName ?? "";
  const values = req.values ?? [];
  switch (req.operator) {
    case "Exists":
      return name !== "";
    case "DoesNotExist":
      return name === "";
    case "In":
      return name !== "" && values.includes(name);
    case "NotIn":
      return name === "" || !values.includes(name);
    default:
      return false;
  }
}

type Quantities = Map<string, ParsedQuantity>;

function addList(target: Quantities, list: DeepReadonly<ResourceList> | undefined): void {
  for (const [name, q] of usageOf(list as Record<string, string> | undefined)) {
    const current = target.get(name);
    target.set(name, current === undefined ? q : addQuantity(current, q));
  }
}

function maxList(target: Quantities, source: Quantities): void {
  for (const [name, q] of source) {
    const current = target.get(name);
    if (current === undefined || compareQuantities(q, current) > 0) target.set(name, q);
  }
}

/** `PodRequests` / `PodLimits` on exact quantities: sidecars add up, init containers peak. */
function podTotals(pod: DeepReadonly<Pod>, side: "requests" | "limits"): Quantities {
  const total: Quantities = new Map();
  for (const c of pod.spec.containers ?? []) addList(total, c.resources?.[side]);
  const sidecars: Quantities = new Map();
  const initPeak: Quantities = new Map();
  for (const c of (pod.spec.initContainers ?? []) as readonly DeepReadonly<Container>[]) {
    if (c.restartPolicy === "Always") {
      addList(total, c.resources?.[side]);
      addList(sidecars, c.resources?.[side]);
      maxList(initPeak, sidecars);
    } else {
      const moment: Quantities = new Map(sidecars);
      addList(moment, c.resources?.[side]);
      maxList(initPeak, moment);
    }
  }
  maxList(total, initPeak);
  const podLevel = usageOf(pod.spec.resources?.[side] as Record<string, string> | undefined);
  for (const [name, q] of podLevel) if (podLevelResources.has(name)) total.set(name, q);
  const overhead = usageOf(pod.spec.overhead as Record<string, string> | undefined);
  for (const [name, q] of overhead) {
    const current = total.get(name);
    if (side === "requests") total.set(name, current === undefined ? q : addQuantity(current, q));
    else if (current !== undefined) total.set(name, addQuantity(current, q));
  }
  return total;
}

/** `podComputeUsageHelper`: requests and limits as quota resource names. */
function computeUsage(requests: Quantities, limits: Quantities): Usage {
  const out: Usage = new Map([["pods", countQuantity(1)]]);
  for (const name of ["cpu", "memory", "ephemeral-storage"]) {
    const request = requests.get(name);
    if (request !== undefined) {
      out.set(name, request);
      out.set(`requests.${name}`, request);
    }
    const limit = limits.get(name);
    if (limit !== undefined) out.set(`limits.${name}`, limit);
  }
  for (const [name, request] of requests) {
    if (name.startsWith("hugepages-")) {
      out.set(name, request);
      out.set(`requests.${name}`, request);
    }
    if (isExtendedResourceName(name)) out.set(`requests.${name}`, request);
  }
  return out;
}

function hasPodLevelResources(pod: DeepReadonly<Pod>): boolean {
  const r = pod.spec.resources;
  return [...podLevelResources].some(
    (name) => r?.requests?.[name] !== undefined || r?.limits?.[name] !== undefined,
  );
}

/** `PodUsageFunc`: `count/pods` always; compute and `pods` while the pod is charged. */
export function podUsage(pod: DeepReadonly<Pod>, now: Date): Usage {
  const usage: Usage = new Map([[objectCountName("", "pods"), countQuantity(1)]]);
  if (!isPodCharged(pod, now)) return usage;
  return addUsage(usage, computeUsage(podTotals(pod, "requests"), podTotals(pod, "limits")));
}

/** `NewPodEvaluator`. */
export function newPodEvaluator(): QuotaEvaluator {
  return {
    group: "",
    resource: "pods",
    matchingResources(input) {
      const out: string[] = [];
      for (const name of input) {
        if (podResources.has(name)) out.push(name);
        if (name.startsWith("hugepages-") || name.startsWith("requests.hugepages-")) out.push(name);
        if (isExtendedResourceNameForQuota(name)) out.push(name);
      }
      return out;
    },
    matchesScope(selector, object) {
      const pod = object as DeepReadonly<Pod>;
      switch (selector.scopeName) {
        case "Terminating":
          return isTerminatingPod(pod);
        case "NotTerminating":
          return !isTerminatingPod(pod);
        case "BestEffort":
          return qosClassOf(pod) === "BestEffort";
        case "NotBestEffort":
          return qosClassOf(pod) !== "BestEffort";
        case "PriorityClass":
          return matchesPriorityClass(pod, selector);
        case "CrossNamespacePodAffinity":
          return usesCrossNamespacePodAffinity(pod);
        default:
          return false;
      }
    },
    usage: (object, now) => podUsage(object as DeepReadonly<Pod>, now),
    handles(operation, object, oldObject) {
      if (operation === "CREATE") return true;
      if (object === undefined || oldObject === undefined) return false;
      return (
        isTerminatingPod(object as DeepReadonly<Pod>) !==
        isTerminatingPod(oldObject as DeepReadonly<Pod>)
      );
    },
    constraints(required, object) {
      const pod = object as DeepReadonly<Pod>;
      if (hasPodLevelResources(pod)) return undefined;
      const wanted = required.filter((r) => validationSet.has(r));
      if (wanted.length === 0) return undefined;
      const missing = new Map<string, Set<string>>();
      const containers = [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])];
      for (const c of containers) {
        const requests = new Map<string, ParsedQuantity>();
        addList(requests, c.resources?.requests);
        const limits = new Map<string, ParsedQuantity>();
        addList(limits, c.resources?.limits);
        const has = new Set(computeUsage(requests, limits).keys());
        for (const r of wanted) {
          if (has.has(r)) continue;
          const names = missing.get(r) ?? new Set<string>();
          names.add(c.name);
          missing.set(r, names);
        }
      }
      if (missing.size === 0) return undefined;
      const parts = [...missing.keys()]
        .sort()
        .map((r) => `${r} for: ${[...(missing.get(r) ?? [])].sort().join(",")}`);
      return `must specify ${parts.join("; ")}`;
    },
  };
}

/** The evaluator for objects of `group`/`resource`. */
export function quotaEvaluatorFor(group: string, resource: string): QuotaEvaluator {
  if (group === "" && resource === "pods") return newPodEvaluator();
  if (group === "" && resource === "services") return newServiceEvaluator();
  return newObjectCountEvaluator(group, resource);
}

/**
 * The evaluators a quota's hard resources need: pods, services and the legacy object counts,
 * plus an object count for each `count/<resource>.<group>` they do not cover.
 */
export function quotaEvaluatorsFor(hard: Iterable<string>): QuotaEvaluator[] {
  const evaluators = [
    newPodEvaluator(),
    newServiceEvaluator(),
    ...Object.keys(legacyAliases).map((r) => newObjectCountEvaluator("", r)),
  ];
  for (const name of hard) {
    const counted = parseObjectCountName(name);
    if (counted === undefined) continue;
    if (evaluators.some((e) => e.matchingResources([name]).length > 0)) continue;
    evaluators.push(newObjectCountEvaluator(counted.group, counted.resource));
  }
  return evaluators;
}
