/**
 * A pod plus what the scheduler derives from it once (upstream's `PodInfo`): its requests as a
 * Resource vector, its affinity terms compiled, its host ports. Everything is computed lazily and
 * cached, so the hot path reads fields instead of re-parsing quantities and selectors. Immutable
 * from the outside: a changed pod gets a new PodInfo.
 */
import { type Pod, podRequests } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  type AffinityTerm,
  newAffinityTerms,
  newWeightedAffinityTerms,
  type WeightedAffinityTerm,
} from "./affinity-term.ts";
import type { ClusterEvent } from "./cluster-event.ts";
import { type CycleState, type StateData, stateKey } from "./cycle-state.ts";
import { defaultMemoryRequest, defaultMilliCpuRequest, Resource } from "./resource.ts";

/** A pod's requests, and the cpu/memory it counts for when scoring (never zero). */
export interface PodResource {
  readonly requests: Resource;
  /** Millicores with 100m for each container that requests none. */
  readonly nonZeroCpu: number;
  /** Bytes with 200Mi for each container that requests none. */
  readonly nonZeroMemory: number;
}

/** A host port a pod's containers claim: `ip` "0.0.0.0" means every address. */
export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

interface AffinityTerms {
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly requiredAntiAffinity: readonly AffinityTerm[];
  readonly preferredAffinity: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedAffinityTerm[];
}

const nonMissing: ReadonlyMap<string, number> = new Map([
  ["cpu", defaultMilliCpuRequest],
  ["memory", defaultMemoryRequest],
]);

const noTerms: AffinityTerms = Object.freeze({
  requiredAffinity: [],
  requiredAntiAffinity: [],
  preferredAffinity: [],
  preferredAntiAffinity: [],
});

export class PodInfo {
  readonly pod: DeepReadonly<Pod>;
  #resource: PodResource | undefined;
  #terms: AffinityTerms | undefined;
  #ports: readonly HostPort[] | undefined;

  constructor(pod: DeepReadonly<Pod>) {
    this.pod = pod;
  }

  get uid(): string {
    return this.pod.metadata.uid ?? "";
  }

  /**
   * A PodInfo for a copy of this pod that differs only in where it runs (`spec.nodeName`, the
   * assumed pod): it shares what was already derived (requests, affinity terms, host ports), none
   * of which depends on the node.
   */
  onNode(pod: DeepReadonly<Pod>): PodInfo {
    const info = new PodInfo(pod);
    info.#resource = this.#resource;
    info.#terms = this.#terms;
    info.#ports = this.#ports;
    return info;
  }

  /** `namespace/name`. */
  get key(): string {
    return `${this.pod.metadata.namespace ?? ""}/${this.pod.metadata.name ?? ""}`;
  }

  get resource(): PodResource {
    if (this.#resource === undefined) {
      const requests = Resource.fromAmounts(podRequests(this.pod));
      const nonZero = podRequests(this.pod, { nonMissingContainerRequests: nonMissing });
      this.#resource = {
        requests,
        nonZeroCpu: nonZero.get("cpu") ?? 0,
        nonZeroMemory: nonZero.get("memory") ?? 0,
      };
    }
    return this.#resource;
  }

  #affinity(): AffinityTerms {
    if (this.#terms === undefined) {
      const affinity = this.pod.spec.affinity;
      if (affinity?.podAffinity === undefined && affinity?.podAntiAffinity === undefined) {
        this.#terms = noTerms;
      } else {
        const pa = affinity.podAffinity;
        const anti = affinity.podAntiAffinity;
        this.#terms = {
          requiredAffinity: newAffinityTerms(
            this.pod,
            pa?.requiredDuringSchedulingIgnoredDuringExecution,
          ),
          requiredAntiAffinity: newAffinityTerms(
            this.pod,
            anti?.requiredDuringSchedulingIgnoredDuringExecution,
          ),
          preferredAffinity: newWeightedAffinityTerms(
            this.pod,
            pa?.preferredDuringSchedulingIgnoredDuringExecution,
          ),
          preferredAntiAffinity: newWeightedAffinityTerms(
            this.pod,
            anti?.preferredDuringSchedulingIgnoredDuringExecution,
          ),
        };
      }
    }
    return this.#terms;
  }

  get requiredAffinityTerms(): readonly AffinityTerm[] {
    return this.#affinity().requiredAffinity;
  }

  get requiredAntiAffinityTerms(): readonly AffinityTerm[] {
    return this.#affinity().requiredAntiAffinity;
  }

  get preferredAffinityTerms(): readonly WeightedAffinityTerm[] {
    return this.#affinity().preferredAffinity;
  }

  get preferredAntiAffinityTerms(): readonly WeightedAffinityTerm[] {
    return this.#affinity().preferredAntiAffinity;
  }

  /** Whether the pod has any pod affinity or anti-affinity (required or preferred). */
  get hasAffinity(): boolean {
    const affinity = this.pod.spec.affinity;
    return affinity?.podAffinity !== undefined || affinity?.podAntiAffinity !== undefined;
  }

  get hasRequiredAntiAffinity(): boolean {
    return this.requiredAntiAffinityTerms.length > 0;
  }

  /** The host ports of the pod's containers (init containers included, as upstream). */
  get hostPorts(): readonly HostPort[] {
    if (this.#ports === undefined) {
      const ports: HostPort[] = [];
      const containers = [...(this.pod.spec.initContainers ?? []), ...this.pod.spec.containers];
      for (const container of containers) {
        for (const p of container.ports ?? []) {
          if (p.hostPort === undefined || p.hostPort <= 0) continue;
          ports.push({
            ip: p.hostIP === undefined || p.hostIP === "" ? "0.0.0.0" : p.hostIP,
            protocol: p.protocol ?? "TCP",
            port: p.hostPort,
          });
        }
      }
      this.#ports = ports;
    }
    return this.#ports;
  }
}

/**
 * A pod in the scheduling queue (upstream's `QueuedPodInfo`). Times are epoch milliseconds from
 * the scheduler's Clock. The queue owns and mutates it; plugins only read it (QueueSort).
 */
export interface QueuedPodInfo {
  podInfo: PodInfo;
  /** When the pod was last added or re-added to the queue. */
  timestamp: number;
  /** Scheduling attempts so far. */
  attempts: number;
  /** Attempts that ended with the pod unschedulable (drives the backoff). */
  unschedulableCount: number;
  /** Consecutive attempts that ended in an error (drives the error backoff). */
  consecutiveErrorsCount: number;
  /** When the first attempt started; undefined until then. */
  initialAttemptTimestamp: number | undefined;
  /** Plugins that rejected the pod in its last attempt (or gate it). */
  unschedulablePlugins: Set<string>;
  /** Plugins that returned Pending in its last attempt. */
  pendingPlugins: Set<string>;
  /** The PreEnqueue plugin that gates the pod; "" when it is not gated. */
  gatingPlugin: string;
  /** The events the gating plugin registered: only these can ungate the pod. */
  gatingPluginEvents: readonly ClusterEvent[];
  /** When the current backoff ends; 0 when not computed. */
  backoffExpiration: number;
}

/** A fresh queue entry for `pod`, added at `now`. */
export function newQueuedPodInfo(pod: DeepReadonly<Pod>, now: number): QueuedPodInfo {
  return {
    podInfo: new PodInfo(pod),
    timestamp: now,
    attempts: 0,
    unschedulableCount: 0,
    consecutiveErrorsCount: 0,
    initialAttemptTimestamp: undefined,
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    gatingPlugin: "",
    gatingPluginEvents: [],
    backoffExpiration: 0,
  };
}

/** Whether a PreEnqueue plugin keeps the pod out of the active queue. */
export function isGated(info: QueuedPodInfo): boolean {
  return info.gatingPlugin !== "";
}

/** A pod's priority: `spec.priority`, 0 when unset (upstream's `corev1helpers.PodPriority`). */
export function podPriority(pod: DeepReadonly<Pod>): number {
  return pod.spec.priority ?? 0;
}

class CyclePod implements StateData {
  readonly podInfo: PodInfo;
  constructor(podInfo: PodInfo) {
    this.podInfo = podInfo;
  }
  clone(): CyclePod {
    return this;
  }
}

const cyclePodKey = stateKey<CyclePod>("kubernetes.io/pod-info");

/** Records the PodInfo of the pod a cycle schedules, so plugins reuse its parsed requests. */
export function setCyclePodInfo(state: CycleState, podInfo: PodInfo): void {
  state.write(cyclePodKey, new CyclePod(podInfo));
}

/** The cycle's PodInfo when `pod` is the pod being scheduled, else a fresh one. */
export function podInfoFor(state: CycleState, pod: DeepReadonly<Pod>): PodInfo {
  const cached = state.read(cyclePodKey)?.podInfo;
  return cached !== undefined && cached.pod === pod ? cached : new PodInfo(pod);
}
