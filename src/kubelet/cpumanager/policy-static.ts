/**
 * The static CPU manager policy (upstream `policy_static.go`): Guaranteed pods' containers with
 * whole-CPU requests get exclusive CPUs, chosen by `takeByTopology`; everything else shares the
 * pool. Reserved CPUs are never handed out exclusively (and with `strict-cpu-reservation` they
 * also leave the shared pool). Init containers' CPUs are reused by the containers after them.
 */
import {
  type Container,
  isRestartableInitContainer,
  milliValue,
  type Pod,
  parseQuantity,
  qosClassOf,
  quantityValue,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { CpuSet } from "./cpuset.ts";
import { alignedPhysicalCpu, type CpuManagerMetrics } from "./metrics.ts";
import {
  newStaticPolicyOptions,
  type PolicyOptionGates,
  PolicyOptionsError,
  type StaticPolicyOptions,
  validateStaticPolicyOptions,
} from "./policy-options.ts";
import type { CpuManagerState } from "./state/state.ts";
import type { TakeStep } from "./take/accumulator.ts";
import type { TakeResult } from "./take/packed.ts";
import { takeByTopology } from "./take-by-topology.ts";
import type { CpuTopology } from "./topology/topology.ts";

export const staticPolicyName = "static";
/** The admission failure reason of an SMT alignment error. */
export const smtAlignmentErrorReason = "SMTAlignmentError";

/** Why `allocate` failed: an SMT alignment error has its own `reason`, anything else none. */
export interface AllocateError {
  /** `SMTAlignmentError`, or `undefined` for an unexpected error. */
  readonly reason: string | undefined;
  readonly message: string;
}

export type AllocateResult =
  | { readonly ok: true; readonly cpus: CpuSet | undefined }
  | { readonly ok: false; readonly error: AllocateError };

/** How the policy is configured. */
export interface StaticPolicyConfig {
  readonly topology: CpuTopology;
  /** `cpuManagerPolicyOptions` as written. @default {} */
  readonly options?: Readonly<Record<string, string>>;
  /** @default alpha off, beta on */
  readonly gates?: PolicyOptionGates;
  /** ceil(kubeReserved.cpu + systemReserved.cpu), or the size of `reservedCpus`. */
  readonly numReservedCpus: number;
  /** `reservedSystemCPUs`; empty to let the policy choose. */
  readonly reservedCpus?: CpuSet;
  /** The Topology Manager policy, for align-by-socket's check. @default "none" */
  readonly topologyManagerPolicy?: string;
  /** Where the kubelet's CPU manager metrics are counted. @default none */
  readonly metrics?: CpuManagerMetrics;
}

/** A policy the kubelet would refuse to start with; `message` is upstream's. */
export class StaticPolicyError extends Error {
  override readonly name = "StaticPolicyError";
}

/** Upstream's `isIntegralCPUAmount` + `guaranteedCPUs`: exclusive CPUs a container gets. */
export function guaranteedCpus(pod: DeepReadonly<Pod>, container: DeepReadonly<Container>): number {
  if (qosClassOf(pod) !== "Guaranteed") return 0;
  const request = container.resources?.requests?.["cpu"];
  if (request === undefined) return 0;
  const quantity = parseQuantity(String(request));
  const whole = quantityValue(quantity);
  if (whole * 1000 !== milliValue(quantity)) return 0;
  return whole;
}

export class StaticPolicy {
  readonly name = staticPolicyName;
  readonly topology: CpuTopology;
  readonly options: StaticPolicyOptions;
  readonly reserved: CpuSet;
  /** The reserved CPUs and all their core siblings. */
  readonly reservedPhysical: CpuSet;
  /** pod UID → CPUs its init containers leave for the containers after them. */
  readonly #cpusToReuse = new Map<string, CpuSet>();
  readonly #metrics: CpuManagerMetrics | undefined;

  private constructor(
    topology: CpuTopology,
    options: StaticPolicyOptions,
    reserved: CpuSet,
    reservedPhysical: CpuSet,
    metrics: CpuManagerMetrics | undefined,
  ) {
    this.topology = topology;
    this.options = options;
    this.reserved = reserved;
    this.reservedPhysical = reservedPhysical;
    this.#metrics = metrics;
  }

  /** Upstream's `NewStaticPolicy`. Throws `StaticPolicyError` with upstream's message. */
  static create(config: StaticPolicyConfig): StaticPolicy {
    let options: StaticPolicyOptions;
    try {
      options = newStaticPolicyOptions(config.options ?? {}, config.gates);
      validateStaticPolicyOptions(options, config.topology, config.topologyManagerPolicy ?? "none");
    } catch (error: unknown) {
      if (error instanceof PolicyOptionsError) throw new StaticPolicyError(error.message);
      throw error;
    }
    const topology = config.topology;
    const explicit = config.reservedCpus ?? CpuSet.empty;
    let reserved: CpuSet;
    if (explicit.size > 0) reserved = explicit;
    else {
      const taken = takeByTopology(topology, options, topology.cpus(), config.numReservedCpus);
      reserved = taken.ok ? taken.cpus : CpuSet.empty;
    }
    if (reserved.size !== config.numReservedCpus) {
      throw new StaticPolicyError(
        `[cpumanager] unable to reserve the required amount of CPUs (size of ${reserved.toString()} did not equal ${config.numReservedCpus})`,
      );
    }
    const cores: number[] = [];
    for (const cpu of reserved) {
      const info = topology.details.get(cpu);
      if (info === undefined) {
        throw new StaticPolicyError(
          `[cpumanager] unable to build the reserved physical CPUs from the reserved set: unknown CPU ${cpu}`,
        );
      }
      cores.push(info.core);
    }
    return new StaticPolicy(
      topology,
      options,
      reserved,
      topology.cpusInCores(...cores),
      config.metrics,
    );
  }

  /** Every CPU minus the reserved ones. */
  allocatableCpus(): CpuSet {
    return this.topology.cpus().difference(this.reserved);
  }

  /** The shared pool minus the reserved CPUs: what exclusive CPUs come from. */
  availableCpus(state: CpuManagerState): CpuSet {
    return state.defaultCpuSet().difference(this.reserved);
  }

  /**
   * Upstream's `Start`: `validateState` (throws `StaticPolicyError`), then the metrics start
   * from the state.
   */
  start(state: CpuManagerState): void {
    this.#validateState(state);
    this.#metrics?.initialize(this.topology, this.availableCpus(state), state.assignedCpus());
  }

  #validateState(state: CpuManagerState): void {
    const assignments = state.assignments();
    const shared = state.defaultCpuSet();
    let all = this.topology.cpus();
    if (this.options.strictCpuReservation) all = all.difference(this.reserved);
    if (shared.isEmpty()) {
      if (assignments.size > 0) throw new StaticPolicyError("default cpuset cannot be empty");
      state.setDefaultCpuSet(all);
      return;
    }
    if (this.options.strictCpuReservation) {
      const present = this.reserved.intersection(shared);
      if (!present.isEmpty()) {
        throw new StaticPolicyError(
          `some of strictly reserved cpus: "${present.toString()}" are present in defaultCpuSet: "${shared.toString()}"`,
        );
      }
    } else if (!this.reserved.intersection(shared).equals(this.reserved)) {
      throw new StaticPolicyError(
        `not all reserved cpus: "${this.reserved.toString()}" are present in defaultCpuSet: "${shared.toString()}"`,
      );
    }
    for (const [pod, containers] of assignments) {
      for (const [container, cpus] of containers) {
        if (!shared.intersection(cpus).isEmpty()) {
          throw new StaticPolicyError(
            `pod: ${pod}, container: ${container} cpuset: "${cpus.toString()}" overlaps with default cpuset "${shared.toString()}"`,
          );
        }
      }
    }
    const known = shared.union(state.assignedCpus());
    if (!known.equals(all)) {
      throw new StaticPolicyError(
        `current set of available CPUs "${all.toString()}" doesn't match with CPUs in state "${known.toString()}"`,
      );
    }
  }

  #updateCpusToReuse(
    pod: DeepReadonly<Pod>,
    container: DeepReadonly<Container>,
    cpus: CpuSet,
  ): void {
    const uid = pod.metadata.uid ?? "";
    for (const other of [...this.#cpusToReuse.keys()]) {
      if (other !== uid) this.#cpusToReuse.delete(other);
    }
    const reuse = this.#cpusToReuse.get(uid) ?? CpuSet.empty;
    const init = (pod.spec.initContainers ?? []).find((c) => c.name === container.name);
    if (init !== undefined && !isRestartableInitContainer(init)) {
      this.#cpusToReuse.set(uid, reuse.union(cpus));
      return;
    }
    this.#cpusToReuse.set(uid, reuse.difference(cpus));
  }

  /** CPUs the pod's init containers leave for its next containers. */
  cpusToReuse(podUid: string): CpuSet {
    return this.#cpusToReuse.get(podUid) ?? CpuSet.empty;
  }

  #smtAlignment(state: CpuManagerState, count: number): AllocateError | undefined {
    if (!this.options.fullPhysicalCpusOnly) return undefined;
    const perCore = this.topology.cpusPerCore();
    if (count % perCore !== 0) {
      return {
        reason: smtAlignmentErrorReason,
        message: `SMT Alignment Error: requested ${count} cpus not multiple cpus per core = ${perCore}`,
      };
    }
    const availablePhysical = state.defaultCpuSet().difference(this.reservedPhysical).size;
    if (count > availablePhysical) {
      return {
        reason: smtAlignmentErrorReason,
        message: `SMT Alignment Error: not enough free physical CPUs: available physical CPUs = ${availablePhysical}, requested CPUs = ${count}, CPUs per core = ${perCore}`,
      };
    }
    return undefined;
  }

  /** `takeByTopology` with this policy's options. */
  take(available: CpuSet, count: number, trace?: TakeStep[]): TakeResult {
    return takeByTopology(this.topology, this.options, available, count, trace);
  }

  /**
   * Upstream's `Allocate` (container scope). `numaAffinity` is the Topology Manager's hint
   * (NUMA node ids), `undefined` for none. Idempotent for a container already in the state.
   */
  allocate(
    state: CpuManagerState,
    pod: DeepReadonly<Pod>,
    container: DeepReadonly<Container>,
    numaAffinity?: readonly number[],
    trace?: TakeStep[],
  ): AllocateResult {
    const count = guaranteedCpus(pod, container);
    if (count === 0) return { ok: true, cpus: undefined };
    if (pod.spec.resources?.requests !== undefined || pod.spec.resources?.limits !== undefined) {
      // Pod-level resources without the PodLevelResourceManagers gate: no exclusive CPUs.
      return { ok: true, cpus: undefined };
    }
    const metrics = this.#metrics;
    if (metrics === undefined)
      return this.#allocate(state, pod, container, count, numaAffinity, trace);
    // Upstream counts every pinning request, and with full-pcpus-only every (mis)aligned one.
    metrics.pinningRequests++;
    const result = this.#allocate(state, pod, container, count, numaAffinity, trace);
    if (!result.ok) metrics.pinningErrors++;
    if (this.options.fullPhysicalCpusOnly) {
      if (result.ok) metrics.addAligned(alignedPhysicalCpu, 1);
      else metrics.addAlignedFailure(alignedPhysicalCpu, 1);
    }
    return result;
  }

  #allocate(
    state: CpuManagerState,
    pod: DeepReadonly<Pod>,
    container: DeepReadonly<Container>,
    count: number,
    numaAffinity: readonly number[] | undefined,
    trace: TakeStep[] | undefined,
  ): AllocateResult {
    const smt = this.#smtAlignment(state, count);
    if (smt !== undefined) return { ok: false, error: smt };
    const uid = pod.metadata.uid ?? "";
    const existing = state.cpuSet(uid, container.name);
    if (existing !== undefined) {
      this.#updateCpusToReuse(pod, container, existing);
      return { ok: true, cpus: existing };
    }
    const allocatable = this.availableCpus(state).union(this.cpusToReuse(uid));
    let result = CpuSet.empty;
    if (numaAffinity !== undefined) {
      const aligned = this.#alignedCpus(numaAffinity, allocatable);
      const taken = this.take(aligned, Math.min(count, aligned.size), trace);
      if (!taken.ok) return { ok: false, error: { reason: undefined, message: taken.message } };
      result = taken.cpus;
    }
    const rest = this.take(allocatable.difference(result), count - result.size, trace);
    if (!rest.ok) return { ok: false, error: { reason: undefined, message: rest.message } };
    result = result.union(rest.cpus);
    state.setDefaultCpuSet(state.defaultCpuSet().difference(result));
    state.setCpuSet(uid, container.name, result);
    this.#updateCpusToReuse(pod, container, result);
    this.#metrics?.onAllocate(this.topology, result, state.assignedCpus());
    return { ok: true, cpus: result };
  }

  #alignedCpus(numas: readonly number[], allocatable: CpuSet): CpuSet {
    if (this.options.alignBySocket) {
      const sockets = this.topology.socketsInNumaNodes(...numas);
      return allocatable.intersection(this.topology.cpusInSockets(...sockets));
    }
    return allocatable.intersection(this.topology.cpusInNumaNodes(...numas));
  }

  /**
   * Upstream's `RemoveContainer`: the container's CPUs go back to the shared pool, except those
   * still assigned to another container of the pod. Unknown containers are ignored.
   */
  removeContainer(state: CpuManagerState, podUid: string, container: string): void {
    const cpus = state.cpuSet(podUid, container);
    if (cpus === undefined) return;
    state.delete(podUid, container);
    let inUse = CpuSet.empty;
    for (const [name, other] of state.containers(podUid)) {
      if (name !== container) inUse = inUse.union(other);
    }
    const released = cpus.difference(inUse);
    state.setDefaultCpuSet(state.defaultCpuSet().union(released));
    this.#metrics?.onRelease(this.topology, released, state.assignedCpus());
  }
}

/** The exclusive CPUs a pod needs in total (upstream `podGuaranteedCPUs`). */
export function podGuaranteedCpus(pod: DeepReadonly<Pod>): number {
  let init = 0;
  let restartable = 0;
  for (const c of pod.spec.initContainers ?? []) {
    if (c.resources?.requests?.["cpu"] === undefined) continue;
    const n = guaranteedCpus(pod, c);
    if (isRestartableInitContainer(c)) restartable += n;
    else init = Math.max(init, restartable + n);
  }
  let app = 0;
  for (const c of pod.spec.containers ?? []) {
    if (c.resources?.requests?.["cpu"] === undefined) continue;
    app += guaranteedCpus(pod, c);
  }
  return Math.max(init, app + restartable);
}
