/**
 * One node's CPU manager as a pod admit handler (upstream's resource-allocation admit handler
 * with the Topology Manager's `none` scope): each container of an admitted pod, init containers
 * first, is allocated by the node's policy; the first failure refuses the pod (and gives back
 * what its earlier containers got), so a pod never runs half-pinned. The state is checkpointed
 * after every change, in the kubelet's own format.
 */
import {
  addQuantities,
  milliValue,
  type ParsedQuantity,
  type Pod,
  parseQuantity,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type {
  PodAdmitAttributes,
  PodAdmitHandler,
  PodAdmitResult,
} from "../admission/admit-handler.ts";
import type { KubeletSettings } from "../config/cluster-config.ts";
import type { MetricFamily } from "../internal/prometheus-text.ts";
import { allocatePod } from "./allocate-pod.ts";
import { CpuSet } from "./cpuset.ts";
import { CpuManagerMetrics } from "./metrics.ts";
import { StaticPolicy, StaticPolicyError } from "./policy-static.ts";
import { CheckpointError, decodeCheckpoint, encodeCheckpoint } from "./state/checkpoint.ts";
import { CpuManagerState } from "./state/state.ts";
import type { CpuTopology } from "./topology/topology.ts";

/** Where one node's `cpu_manager_state` lives. Synchronous, as the kubelet's checkpoint writes. */
export interface CheckpointStore {
  /** Shown in the restore error (`/var/lib/kubelet/cpu_manager_state` on a real node). */
  readonly path: string;
  /** The file's text, or `undefined` when there is none yet. */
  read(): string | undefined;
  /** Replaces the file (atomically). */
  write(text: string): void;
}

/** A CPU manager the kubelet would refuse to start with. */
export class CpuManagerError extends Error {
  override readonly name = "CpuManagerError";
}

function sumCpu(
  lists: readonly (Readonly<Record<string, string>> | undefined)[],
): ParsedQuantity | undefined {
  let sum: ParsedQuantity | undefined;
  for (const list of lists) {
    const cpu = list?.["cpu"];
    if (cpu === undefined) continue;
    const q = parseQuantity(String(cpu));
    sum = sum === undefined ? q : addQuantities(sum, q);
  }
  return sum;
}

/**
 * The reserved CPU count as the kubelet derives it: the size of `reservedSystemCPUs`, else
 * ceil(kubeReserved.cpu + systemReserved.cpu). Throws `CpuManagerError` with upstream's message
 * when there is no CPU reservation, or a zero one.
 */
export function reservedCpuCount(kubelet: KubeletSettings): { count: number; cpus: CpuSet } {
  const explicit = CpuSet.parse(kubelet.reservedSystemCPUs);
  if (explicit.size > 0) return { count: explicit.size, cpus: explicit };
  const sum = sumCpu([kubelet.kubeReserved, kubelet.systemReserved]);
  if (sum === undefined) {
    throw new CpuManagerError(
      "[cpumanager] unable to determine reserved CPU resources for static policy",
    );
  }
  const milli = milliValue(sum);
  if (milli === 0) {
    throw new CpuManagerError(
      "[cpumanager] the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero",
    );
  }
  return { count: Math.ceil(milli / 1000), cpus: CpuSet.empty };
}

/** The static policy a node's kubelet settings describe. Throws `CpuManagerError`. */
export function staticPolicyFor(
  kubelet: KubeletSettings,
  topology: CpuTopology,
  metrics?: CpuManagerMetrics,
): StaticPolicy {
  const reserved = reservedCpuCount(kubelet);
  try {
    return StaticPolicy.create({
      topology,
      options: kubelet.cpuManagerPolicyOptions,
      gates: {
        alphaOptions: kubelet.featureGates["CPUManagerPolicyAlphaOptions"] === true,
        betaOptions: kubelet.featureGates["CPUManagerPolicyBetaOptions"] !== false,
      },
      numReservedCpus: reserved.count,
      reservedCpus: reserved.cpus,
      topologyManagerPolicy: kubelet.topologyManagerPolicy,
      ...(metrics === undefined ? {} : { metrics }),
    });
  } catch (error: unknown) {
    if (error instanceof StaticPolicyError) throw new CpuManagerError(error.message);
    throw error;
  }
}

/** What a CPU manager needs. */
export interface CpuManagerConfig {
  readonly kubelet: KubeletSettings;
  readonly topology: CpuTopology;
  /** The node's checkpoint; `undefined` keeps the state in memory only. */
  readonly checkpoint?: CheckpointStore;
}

export class CpuManager implements PodAdmitHandler {
  readonly name = "CPUManager";
  readonly policyName: "none" | "static";
  readonly policy: StaticPolicy | undefined;
  readonly state: CpuManagerState;
  /** The node's CPU manager metrics (all zero with the `none` policy). */
  readonly metrics: CpuManagerMetrics;
  readonly #checkpoint: CheckpointStore | undefined;

  private constructor(
    policyName: "none" | "static",
    policy: StaticPolicy | undefined,
    state: CpuManagerState,
    checkpoint: CheckpointStore | undefined,
    metrics: CpuManagerMetrics,
  ) {
    this.policyName = policyName;
    this.policy = policy;
    this.state = state;
    this.#checkpoint = checkpoint;
    this.metrics = metrics;
  }

  /**
   * Builds the policy, restores the checkpoint and validates it, and writes the checkpoint
   * back, as the kubelet does on start. Throws `CpuManagerError` with upstream's message.
   */
  static open(config: CpuManagerConfig): CpuManager {
    const policyName = config.kubelet.cpuManagerPolicy;
    const metrics = new CpuManagerMetrics();
    const policy =
      policyName === "static"
        ? staticPolicyFor(config.kubelet, config.topology, metrics)
        : undefined;
    let state = new CpuManagerState();
    const text = config.checkpoint?.read();
    if (text !== undefined && config.checkpoint !== undefined) {
      try {
        state = decodeCheckpoint(text, policyName, config.checkpoint.path);
      } catch (error: unknown) {
        if (error instanceof CheckpointError) throw new CpuManagerError(error.message);
        throw error;
      }
    }
    try {
      policy?.start(state);
    } catch (error: unknown) {
      if (error instanceof StaticPolicyError) throw new CpuManagerError(error.message);
      throw error;
    }
    const manager = new CpuManager(policyName, policy, state, config.checkpoint, metrics);
    manager.#save();
    return manager;
  }

  #save(): void {
    this.#checkpoint?.write(encodeCheckpoint(this.policyName, this.state));
  }

  /** Drops assignments of pods that no longer hold resources (upstream `removeStaleState`). */
  #removeStale(active: ReadonlySet<string>): boolean {
    if (this.policy === undefined) return false;
    let changed = false;
    for (const [pod, containers] of this.state.assignments()) {
      if (active.has(pod)) continue;
      for (const container of containers.keys())
        this.policy.removeContainer(this.state, pod, container);
      changed = true;
    }
    return changed;
  }

  admit(attributes: PodAdmitAttributes): PodAdmitResult {
    const policy = this.policy;
    if (policy === undefined) return { admit: true };
    const pod = attributes.pod;
    let stale = false;
    if (!attributes.restoring) {
      const active = new Set(attributes.otherPods.map((p) => p.metadata.uid ?? ""));
      active.add(pod.metadata.uid ?? "");
      stale = this.#removeStale(active);
    }
    const result = allocatePod(policy, this.state, pod, { keepOnFailure: attributes.restoring });
    if (stale || result.changed) this.#save();
    return result.ok
      ? { admit: true }
      : { admit: false, reason: result.reason, message: result.message };
  }

  /**
   * Upstream's `GetExclusiveCPUs` (what the podresources API reports): the container's
   * exclusive CPUs, ascending; empty for a container in the shared pool.
   */
  exclusiveCpus(podUid: string, containerName: string): readonly number[] {
    return this.state.cpuSet(podUid, containerName)?.toArray() ?? [];
  }

  /** Upstream's `GetAllocatableCPUs`: every CPU but the reserved ones; none without a policy. */
  allocatableCpus(): readonly number[] {
    return this.policy?.allocatableCpus().toArray() ?? [];
  }

  metricFamilies(): readonly MetricFamily[] {
    return this.metrics.families();
  }

  release(pod: DeepReadonly<Pod>): void {
    const policy = this.policy;
    if (policy === undefined) return;
    const uid = pod.metadata.uid ?? "";
    const containers = this.state.containers(uid);
    if (containers.size === 0) return;
    for (const name of containers.keys()) policy.removeContainer(this.state, uid, name);
    this.#save();
  }
}
