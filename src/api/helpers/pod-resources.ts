/**
 * What a pod asks of a node, as upstream's `k8s.io/component-helpers/resource.PodRequests` computes
 * it: the scheduler fits and scores with it, the kubelet admits with it. Amounts are plain numbers:
 * `cpu` in millicores, every other resource in whole units (bytes, counts), each quantity rounded
 * up as `MilliValue()`/`Value()` do.
 */
import type { DeepReadonly } from "../../util/index.ts";
import type { Container, ResourceList } from "../core/v1/pod-template.ts";
import type { Pod } from "../core/v1/pod-types.ts";
import { milliValue, parseQuantity, value } from "../resource/quantity.ts";

/** Resource name → amount: `cpu` in millicores, anything else in whole units. */
export type ResourceAmounts = Map<string, number>;

/** Resources a pod may request at pod level (`spec.resources`), as upstream's PodLevelResources. */
export const podLevelResourceNames: ReadonlySet<string> = new Set(["cpu", "memory"]);

export interface PodRequestsOptions {
  /**
   * Amounts used for a container that does not request a resource at all (upstream's
   * `NonMissingContainerRequests`, which the scheduler uses to score best-effort pods).
   * @default none
   */
  readonly nonMissingContainerRequests?: ReadonlyMap<string, number>;
  /** Leave `spec.overhead` out. @default false */
  readonly excludeOverhead?: boolean;
  /** Ignore `spec.resources` and add up containers only. @default false */
  readonly skipPodLevelResources?: boolean;
}

/**
 * The amount of one quantity: millicores for `cpu`, whole units otherwise. A quantity that does
 * not parse counts as 0 (the API server validates quantities, so this only guards stale data).
 */
export function quantityAmount(resource: string, quantity: string): number {
  try {
    const parsed = parseQuantity(quantity);
    return resource === "cpu" ? milliValue(parsed) : value(parsed);
  } catch (error: unknown) {
    if (error instanceof SyntaxError) return 0;
    throw error;
  }
}

/** A ResourceList as amounts (see `quantityAmount`). */
export function resourceListAmounts(list: DeepReadonly<ResourceList> | undefined): ResourceAmounts {
  const out: ResourceAmounts = new Map();
  if (list === undefined) return out;
  for (const name of Object.keys(list)) {
    const quantity = list[name];
    if (quantity !== undefined) out.set(name, quantityAmount(name, quantity));
  }
  return out;
}

function addInto(target: ResourceAmounts, source: ReadonlyMap<string, number>): void {
  for (const [name, amount] of source) target.set(name, (target.get(name) ?? 0) + amount);
}

function maxInto(target: ResourceAmounts, source: ReadonlyMap<string, number>): void {
  for (const [name, amount] of source) {
    const current = target.get(name);
    if (current === undefined || amount > current) target.set(name, amount);
  }
}

function containerRequests(
  container: DeepReadonly<Container>,
  nonMissing: ReadonlyMap<string, number> | undefined,
): ResourceAmounts {
  const requests = resourceListAmounts(container.resources?.requests);
  if (nonMissing !== undefined) {
    for (const [name, amount] of nonMissing) {
      if (!requests.has(name)) requests.set(name, amount);
    }
  }
  return requests;
}

/**
 * Upstream's `AggregateContainerRequests`: regular containers and sidecars (init containers with
 * `restartPolicy: Always`) run together and add up; each ordinary init container runs alone next
 * to the sidecars started before it, and the pod needs the largest of those moments.
 */
export function aggregateContainerRequests(
  pod: DeepReadonly<Pod>,
  options: PodRequestsOptions = {},
): ResourceAmounts {
  const nonMissing = options.nonMissingContainerRequests;
  const total: ResourceAmounts = new Map();
  for (const container of pod.spec.containers ?? []) {
    addInto(total, containerRequests(container, nonMissing));
  }
  const sidecars: ResourceAmounts = new Map();
  const initPeak: ResourceAmounts = new Map();
  for (const container of pod.spec.initContainers ?? []) {
    const requests = containerRequests(container, nonMissing);
    if (container.restartPolicy === "Always") {
      addInto(total, requests);
      addInto(sidecars, requests);
      maxInto(initPeak, sidecars);
    } else {
      const moment: ResourceAmounts = new Map(requests);
      addInto(moment, sidecars);
      maxInto(initPeak, moment);
    }
  }
  maxInto(total, initPeak);
  return total;
}

/** Whether the pod sets pod-level requests for a resource that supports them. */
export function hasPodLevelRequests(pod: DeepReadonly<Pod>): boolean {
  const requests = pod.spec.resources?.requests;
  if (requests === undefined) return false;
  for (const name of Object.keys(requests)) if (podLevelResourceNames.has(name)) return true;
  return false;
}

/**
 * Upstream's `PodRequests`: pod-level requests (`spec.resources`) where set for cpu and memory,
 * otherwise the aggregate of the containers (see `aggregateContainerRequests`), plus
 * `spec.overhead`. A container missing a request gets `nonMissingContainerRequests` when given
 * and pod-level requests are not set for that resource.
 */
export function podRequests(
  pod: DeepReadonly<Pod>,
  options: PodRequestsOptions = {},
): ResourceAmounts {
  let requests: ResourceAmounts;
  if (options.skipPodLevelResources !== true && hasPodLevelRequests(pod)) {
    const podLevel = resourceListAmounts(pod.spec.resources?.requests);
    const nonMissing = options.nonMissingContainerRequests;
    const missing =
      nonMissing === undefined
        ? undefined
        : new Map([...nonMissing].filter(([name]) => !podLevel.has(name)));
    const containers = aggregateContainerRequests(
      pod,
      missing === undefined ? {} : { nonMissingContainerRequests: missing },
    );
    requests = new Map();
    for (const [name, amount] of containers) {
      if (!podLevelResourceNames.has(name) || !podLevel.has(name)) requests.set(name, amount);
    }
    for (const [name, amount] of podLevel) {
      if (podLevelResourceNames.has(name)) requests.set(name, amount);
    }
  } else {
    requests = aggregateContainerRequests(pod, options);
  }
  if (options.excludeOverhead !== true && pod.spec.overhead !== undefined) {
    addInto(requests, resourceListAmounts(pod.spec.overhead));
  }
  return requests;
}

/** `IsPrefixedNativeResource`: a name in the `kubernetes.io/` namespace. */
export function isPrefixedNativeResource(name: string): boolean {
  return name.includes("kubernetes.io/");
}

/** `IsNativeResource`: no domain, or the `kubernetes.io/` domain. */
export function isNativeResource(name: string): boolean {
  return !name.includes("/") || isPrefixedNativeResource(name);
}

const qualifiedNamePart = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `IsExtendedResourceName`: a domain-qualified name outside `kubernetes.io/` (`nvidia.com/gpu`). */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith("requests.")) return false;
  const slash = name.indexOf("/");
  const prefix = `requests.${name.slice(0, slash)}`;
  const local = name.slice(slash + 1);
  return (
    slash > 0 &&
    !local.includes("/") &&
    prefix.length <= 253 &&
    dnsSubdomain.test(prefix) &&
    qualifiedNamePart.test(local)
  );
}

/** `IsHugePageResourceName`: `hugepages-2Mi` and friends. */
export function isHugePageResourceName(name: string): boolean {
  return name.startsWith("hugepages-");
}

/**
 * `IsScalarResourceName`: extended, hugepages, `kubernetes.io/`-prefixed and attachable-volume
 * resources, which the scheduler accounts by name next to cpu, memory and ephemeral-storage.
 */
export function isScalarResourceName(name: string): boolean {
  return (
    isExtendedResourceName(name) ||
    isHugePageResourceName(name) ||
    isPrefixedNativeResource(name) ||
    name.startsWith("attachable-volumes-")
  );
}
