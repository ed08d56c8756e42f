/**
 * The CPU manager's state (upstream `state.State`): the shared pool ("default cpuset") and the
 * exclusive assignments, pod UID → container name → CPUs. In memory; the checkpoint is written
 * by whoever owns the state (see `checkpoint.ts`). Reads return copies or immutable sets.
 */
import { CpuSet } from "../cpuset.ts";

/** pod UID → container name → CPUs. */
export type Assignments = ReadonlyMap<string, ReadonlyMap<string, CpuSet>>;

export class CpuManagerState {
  #defaultCpuSet: CpuSet;
  readonly #assignments = new Map<string, Map<string, CpuSet>>();
  /** CPU id → how many assignments hold it (init containers' CPUs may be reused). */
  readonly #holders: number[] = [];
  /** The union of every assignment, computed on demand and kept until the next change. */
  #assigned: CpuSet | undefined;

  constructor(defaultCpuSet: CpuSet = CpuSet.empty, assignments: Assignments = new Map()) {
    this.#defaultCpuSet = defaultCpuSet;
    for (const [pod, containers] of assignments) {
      this.#assignments.set(pod, new Map(containers));
      for (const cpus of containers.values()) this.#hold(cpus, 1);
    }
  }

  #hold(cpus: CpuSet, delta: 1 | -1): void {
    for (const cpu of cpus) this.#holders[cpu] = (this.#holders[cpu] ?? 0) + delta;
    this.#assigned = undefined;
  }

  defaultCpuSet(): CpuSet {
    return this.#defaultCpuSet;
  }

  setDefaultCpuSet(cpus: CpuSet): void {
    this.#defaultCpuSet = cpus;
  }

  cpuSet(pod: string, container: string): CpuSet | undefined {
    return this.#assignments.get(pod)?.get(container);
  }

  setCpuSet(pod: string, container: string, cpus: CpuSet): void {
    let containers = this.#assignments.get(pod);
    if (containers === undefined) {
      containers = new Map();
      this.#assignments.set(pod, containers);
    }
    const old = containers.get(container);
    if (old !== undefined) this.#hold(old, -1);
    containers.set(container, cpus);
    this.#hold(cpus, 1);
  }

  /** Drops one assignment (and the pod once it has none). Unknown ones are ignored. */
  delete(pod: string, container: string): void {
    const containers = this.#assignments.get(pod);
    if (containers === undefined) return;
    const cpus = containers.get(container);
    if (cpus === undefined) return;
    containers.delete(container);
    if (containers.size === 0) this.#assignments.delete(pod);
    this.#hold(cpus, -1);
  }

  /** One pod's assignments (container name → CPUs), a copy; empty for an unknown pod. */
  containers(pod: string): Map<string, CpuSet> {
    return new Map(this.#assignments.get(pod));
  }

  /** A copy of every assignment. */
  assignments(): Map<string, Map<string, CpuSet>> {
    return new Map([...this.#assignments].map(([pod, c]) => [pod, new Map(c)]));
  }

  /** The union of every exclusive assignment. */
  assignedCpus(): CpuSet {
    if (this.#assigned === undefined) {
      const ids: number[] = [];
      this.#holders.forEach((count, cpu) => {
        if (count > 0) ids.push(cpu);
      });
      this.#assigned = CpuSet.from(ids);
    }
    return this.#assigned;
  }
}
