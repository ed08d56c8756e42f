/**
 * NodeResourcesFit (PreFilter, Filter, PreScore, Score): the pod's requests (containers, init
 * containers and sidecars, overhead; see `podRequests`) must fit in what the node has left, and
 * the node must have room for one more pod. Scoring prefers nodes with the most room left
 * (LeastAllocated, the default) or the least (MostAllocated).
 */
import { isExtendedResourceName, type Node } from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  type AnyPlugin,
  actionType,
  type CycleState,
  type EnqueueExtensions,
  eventResource,
  type FilterPlugin,
  maxNodeScore,
  NodeInfo,
  PodInfo,
  type PodObject,
  type PodResource,
  type PreFilterPlugin,
  type PreScorePlugin,
  podInfoFor,
  preFilterSuccess,
  type Resource,
  type ScorePlugin,
  type SignPlugin,
  type StateData,
  type Status,
  signedWith,
  signerKeys,
  stateKey,
  success,
  unresolvable,
  unschedulable,
} from "../../framework/index.ts";

export const name = "NodeResourcesFit";
export const reasonTooManyPods = "Too many pods";

/** `Insufficient cpu`, `Insufficient nvidia.com/gpu`. */
export function insufficientReason(resource: string): string {
  return `Insufficient ${resource}`;
}

export interface ResourceSpec {
  readonly name: string;
  readonly weight: number;
}

export interface NodeResourcesFitArgs {
  /** Extended resources the filter ignores. @default [] */
  readonly ignoredResources?: readonly string[];
  /** Extended resource groups (the part before "/") the filter ignores. @default [] */
  readonly ignoredResourceGroups?: readonly string[];
  readonly scoringStrategy?: {
    /** @default "LeastAllocated" */
    readonly type?: "LeastAllocated" | "MostAllocated";
    /** @default cpu and memory, weight 1 each */
    readonly resources?: readonly ResourceSpec[];
  };
}

/** One resource the pod lacks on a node (upstream's `InsufficientResource`). */
export interface InsufficientResource {
  readonly resourceName: string;
  readonly reason: string;
  readonly requested: number;
  readonly used: number;
  readonly capacity: number;
  /** The pod asks for more than the node has at all: preemption cannot help. */
  readonly unresolvable: boolean;
}

class RequestState implements StateData {
  readonly requests: Resource;
  constructor(requests: Resource) {
    this.requests = requests;
  }
  clone(): RequestState {
    return this;
  }
}

class ScoreState implements StateData {
  readonly podRequests: readonly number[];
  constructor(podRequests: readonly number[]) {
    this.podRequests = podRequests;
  }
  clone(): ScoreState {
    return this;
  }
}

const preFilterKey = stateKey<RequestState>(`PreFilter${name}`);
const preScoreKey = stateKey<ScoreState>(`PreScore${name}`);

const defaultResources: readonly ResourceSpec[] = [
  { name: "cpu", weight: 1 },
  { name: "memory", weight: 1 },
];

function insufficient(
  resourceName: string,
  requested: number,
  used: number,
  capacity: number,
): InsufficientResource {
  return {
    resourceName,
    reason: insufficientReason(resourceName),
    requested,
    used,
    capacity,
    unresolvable: requested > capacity,
  };
}

const fitsEverything: readonly InsufficientResource[] = Object.freeze([]);

/**
 * Every resource `requests` needs beyond what `nodeInfo` has left, in upstream's order: pods,
 * cpu, memory, ephemeral-storage, then scalar resources. Allocation-free when the pod fits.
 */
export function fitsRequest(
  requests: Resource,
  nodeInfo: NodeInfo,
  ignored: ReadonlySet<string> = noNames,
  ignoredGroups: ReadonlySet<string> = noNames,
): readonly InsufficientResource[] {
  // The common case, answered from the node info alone: one object read per node.
  if (requests.scalarResources === undefined && nodeInfo.hasNativeRoomFor(requests)) {
    return fitsEverything;
  }
  let out: InsufficientResource[] | undefined;
  const allocatable = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (nodeInfo.pods.length + 1 > allocatable.allowedPodNumber) {
    out = [
      {
        resourceName: "pods",
        reason: reasonTooManyPods,
        requested: 1,
        used: nodeInfo.pods.length,
        capacity: allocatable.allowedPodNumber,
        unresolvable: false,
      },
    ];
  }
  if (requests.isZero()) return out ?? fitsEverything;
  if (requests.milliCpu > 0 && requests.milliCpu > allocatable.milliCpu - used.milliCpu) {
    out ??= [];
    out.push(insufficient("cpu", requests.milliCpu, used.milliCpu, allocatable.milliCpu));
  }
  if (requests.memory > 0 && requests.memory > allocatable.memory - used.memory) {
    out ??= [];
    out.push(insufficient("memory", requests.memory, used.memory, allocatable.memory));
  }
  if (
    requests.ephemeralStorage > 0 &&
    requests.ephemeralStorage > allocatable.ephemeralStorage - used.ephemeralStorage
  ) {
    out ??= [];
    out.push(
      insufficient(
        "ephemeral-storage",
        requests.ephemeralStorage,
        used.ephemeralStorage,
        allocatable.ephemeralStorage,
      ),
    );
  }
  if (requests.scalarResources !== undefined) {
    for (const [resource, want] of requests.scalarResources) {
      if (want === 0) continue;
      if (isExtendedResourceName(resource)) {
        const group = resource.slice(0, resource.indexOf("/"));
        if (ignored.has(resource) || ignoredGroups.has(group)) continue;
      }
      const have = allocatable.scalar(resource);
      const inUse = used.scalar(resource);
      if (want > have - inUse) {
        out ??= [];
        out.push(insufficient(resource, want, inUse, have));
      }
    }
  }
  return out ?? fitsEverything;
}

const noNames: ReadonlySet<string> = new Set();

/** Upstream's `leastRequestedScore`: the share of the node left free, in [0, 100]. */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * maxNodeScore) / capacity);
}

/** Upstream's `mostRequestedScore`: the share of the node in use, in [0, 100]. */
function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  if (requested > capacity) requested = capacity;
  return Math.trunc((requested * maxNodeScore) / capacity);
}

type Scorer = (requested: number, capacity: number) => number;

/** One resource's score on the node (0 with capacity 0, as upstream skips such resources). */
function resourceScore(
  scorer: Scorer,
  nodeInfo: NodeInfo,
  resource: string,
  podRequest: number,
): number {
  switch (resource) {
    case "cpu":
      return scorer(nodeInfo.nonZeroRequested.milliCpu + podRequest, nodeInfo.allocatable.milliCpu);
    case "memory":
      return scorer(nodeInfo.nonZeroRequested.memory + podRequest, nodeInfo.allocatable.memory);
    case "ephemeral-storage":
      return scorer(
        nodeInfo.requested.ephemeralStorage + podRequest,
        nodeInfo.allocatable.ephemeralStorage,
      );
    default: {
      const capacity = nodeInfo.allocatable.scalarResources?.get(resource) ?? 0;
      return scorer(nodeInfo.requested.scalar(resource) + podRequest, capacity);
    }
  }
}

/** The capacity a resource is scored against; 0 means the resource is left out. */
function scoredCapacity(nodeInfo: NodeInfo, resource: string, podRequest: number): number {
  switch (resource) {
    case "cpu":
      return nodeInfo.allocatable.milliCpu;
    case "memory":
      return nodeInfo.allocatable.memory;
    case "ephemeral-storage":
      return nodeInfo.allocatable.ephemeralStorage;
    default:
      return podRequest === 0 ? 0 : (nodeInfo.allocatable.scalarResources?.get(resource) ?? 0);
  }
}

function podScoreRequests(info: PodResource, resources: readonly ResourceSpec[]): number[] {
  return resources.map((r) => {
    if (r.name === "cpu") return info.nonZeroCpu;
    if (r.name === "memory") return info.nonZeroMemory;
    return info.requests.get(r.name);
  });
}

/** Whether the pod would fit the node if the node were empty (for queueing hints). */
function nodeFitsPod(pod: PodObject, node: DeepReadonly<Node>): boolean {
  return fitsRequest(new PodInfo(pod).resource.requests, new NodeInfo(node)).length === 0;
}

/** Whether an update gave the node more of anything the pod requests (or room for more pods). */
function grew(pod: PodObject, before: DeepReadonly<Node>, after: DeepReadonly<Node>): boolean {
  const old = new NodeInfo(before).allocatable;
  const now = new NodeInfo(after).allocatable;
  if (now.allowedPodNumber > old.allowedPodNumber) return true;
  const requests = new PodInfo(pod).resource.requests;
  if (requests.milliCpu > 0 && now.milliCpu > old.milliCpu) return true;
  if (requests.memory > 0 && now.memory > old.memory) return true;
  if (requests.ephemeralStorage > 0 && now.ephemeralStorage > old.ephemeralStorage) return true;
  for (const [resource, amount] of requests.scalarResources ?? []) {
    if (amount > 0 && now.scalar(resource) > old.scalar(resource)) return true;
  }
  return false;
}

export function newNodeResourcesFit(_handle: unknown, rawArgs: unknown): AnyPlugin {
  const args = (rawArgs ?? {}) as NodeResourcesFitArgs;
  const ignored = new Set(args.ignoredResources ?? []);
  const ignoredGroups = new Set(args.ignoredResourceGroups ?? []);
  const resources = args.scoringStrategy?.resources ?? defaultResources;
  const scorer =
    (args.scoringStrategy?.type ?? "LeastAllocated") === "LeastAllocated"
      ? leastRequestedScore
      : mostRequestedScore;

  return {
    name,
    signPod(podInfo) {
      const { requests, nonZeroCpu, nonZeroMemory } = podInfo.resource;
      return signedWith({
        key: signerKeys.resources,
        value: {
          cpu: requests.milliCpu,
          memory: requests.memory,
          ephemeralStorage: requests.ephemeralStorage,
          scalar: Object.fromEntries(requests.scalarResources ?? []),
          nonZeroCpu,
          nonZeroMemory,
        },
      });
    },
    preFilter(state: CycleState, pod: PodObject) {
      state.write(preFilterKey, new RequestState(podInfoFor(state, pod).resource.requests));
      return preFilterSuccess;
    },
    filter(state, pod, nodeInfo): Status {
      const requests = state.read(preFilterKey)?.requests ?? new PodInfo(pod).resource.requests;
      const lacking = fitsRequest(requests, nodeInfo, ignored, ignoredGroups);
      if (lacking.length === 0) return success;
      const reasons = lacking.map((r) => r.reason);
      return lacking.some((r) => r.unresolvable)
        ? unresolvable(...reasons)
        : unschedulable(...reasons);
    },
    preScore(state, pod) {
      state.write(
        preScoreKey,
        new ScoreState(podScoreRequests(podInfoFor(state, pod).resource, resources)),
      );
      return success;
    },
    score(state, pod, nodeInfo) {
      const podRequests =
        state.read(preScoreKey)?.podRequests ??
        podScoreRequests(podInfoFor(state, pod).resource, resources);
      let nodeScore = 0;
      let weightSum = 0;
      for (let i = 0; i < resources.length; i++) {
        const spec = resources[i] as ResourceSpec;
        const podRequest = podRequests[i] ?? 0;
        if (scoredCapacity(nodeInfo, spec.name, podRequest) === 0) continue;
        nodeScore += resourceScore(scorer, nodeInfo, spec.name, podRequest) * spec.weight;
        weightSum += spec.weight;
      }
      return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
    },
    eventsToRegister() {
      return [
        {
          event: { resource: eventResource.pod, actionType: actionType.delete },
          queueingHintFn: (_pod, oldObj) => {
            const deleted = oldObj as PodObject | undefined;
            const assigned = (deleted?.spec.nodeName ?? "") !== "";
            const nominated = (deleted?.status?.nominatedNodeName ?? "") !== "";
            return assigned || nominated ? "Queue" : "QueueSkip";
          },
        },
        {
          event: {
            resource: eventResource.node,
            actionType: actionType.add | actionType.updateNodeAllocatable,
          },
          queueingHintFn: (pod, oldObj, newObj) => {
            const node = newObj as DeepReadonly<Node> | undefined;
            if (node === undefined || !nodeFitsPod(pod, node)) return "QueueSkip";
            const old = oldObj as DeepReadonly<Node> | undefined;
            return old === undefined || grew(pod, old, node) ? "Queue" : "QueueSkip";
          },
        },
      ];
    },
  } satisfies PreFilterPlugin &
    FilterPlugin &
    PreScorePlugin &
    ScorePlugin &
    SignPlugin &
    EnqueueExtensions;
}
