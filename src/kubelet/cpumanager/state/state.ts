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

  constructor(defaultCpuSet: CpuSet = CpuSet.empty, assignments: Assignments = new Map()) {
    this.#defaultCpuSet = defaultCpuSet;
    for (const [pod, containers] of assignments) this.#assignments.set(pod, new Map(containers));
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
    containers.set(container, cpus);
  }

  /** Drops one assignment (and the pod once it has none). Unknown ones are ignored. */
  delete(pod: string, container: string): void {
    const containers = this.#assignments.get(pod);
    if (containers === undefined) return;
    containers.delete(container);
    if (containers.size === 0) this.#assignments.delete(pod);
  }

  /** A copy of every assignment. */
  assignments(): Map<string, Map<string, CpuSet>> {
    return new Map([...this.#assignments].map(([pod, c]) => [pod, new Map(c)]));
  }

  /** The union of every exclusive assignment. */
  assignedCpus(): CpuSet {
    return CpuSet.empty.union(...[...this.#assignments.values()].flatMap((c) => [...c.values()]));
  }
}
