/**
 * What the planning CLI (`gantry cpus`) reports: where a set of CPUs sits, why each group of
 * CPUs was chosen, and how a sequence of pods lands under several option sets (containers
 * spanning L3 caches, L3 caches shared between exclusive containers, NUMA spread). Pure.
 */
import { isRestartableInitContainer, type Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { allocatePod } from "./allocate-pod.ts";
import type { CpuSet } from "./cpuset.ts";
import type { StaticPolicy } from "./policy-static.ts";
import { CpuManagerState } from "./state/state.ts";
import type { TakeStep } from "./take/accumulator.ts";
import type { CpuTopology } from "./topology/topology.ts";

/** `"L3 0,1; NUMA 0; socket 0"`: the domains a set of CPUs touches. */
export function describeCpus(topology: CpuTopology, cpus: CpuSet): string {
  return `L3 ${topology.uncoreCachesOf(cpus).join(",")}; NUMA ${topology.numaNodesOf(cpus).join(",")}; socket ${topology.socketsOf(cpus).join(",")}`;
}

const stepNames: Readonly<Record<TakeStep["kind"], string>> = {
  "numa-node": "NUMA node",
  socket: "socket",
  "uncore-cache": "L3 (uncore) cache",
  "partial-uncore-cache": "part of L3 (uncore) cache",
  core: "core",
  cpu: "CPU",
  distribute: "NUMA node",
};

/** One line per decision: `L3 (uncore) cache 1: 8-15,40-47 (needs 16 ≥ its 16 CPUs, all free)`. */
export function explainSteps(topology: CpuTopology, steps: readonly TakeStep[]): string[] {
  return steps.map((step) => {
    const where = step.kind === "cpu" ? "" : ` [${describeCpus(topology, step.cpus)}]`;
    return `${stepNames[step.kind]} ${step.id}: ${step.cpus.toString()} (${step.why})${where}`;
  });
}

/** One pod's fate under an option set. */
export interface PodPlacement {
  readonly pod: string;
  readonly admitted: boolean;
  readonly reason?: string;
  readonly message?: string;
}

/** One long-running container's exclusive CPUs. */
export interface ContainerPlacement {
  readonly pod: string;
  readonly container: string;
  readonly cpus: string;
  readonly l3: readonly number[];
  readonly numa: readonly number[];
}

/** The numbers to choose an option set by. */
export interface PlacementSummary {
  readonly admitted: number;
  readonly rejected: number;
  /** App containers and sidecars holding exclusive CPUs. */
  readonly exclusiveContainers: number;
  /** Of those, how many have CPUs in more than one L3 cache. */
  readonly spanningL3: number;
  /** L3 caches holding exclusive CPUs of more than one container. */
  readonly sharedL3: number;
  /** The most NUMA nodes one container spans. */
  readonly maxNumaNodes: number;
  /** Containers with CPUs on more than one NUMA node. */
  readonly spanningNuma: number;
  /** CPUs left in the shared pool. */
  readonly sharedPool: number;
}

export interface Placement {
  readonly pods: readonly PodPlacement[];
  readonly containers: readonly ContainerPlacement[];
  readonly summary: PlacementSummary;
  readonly state: CpuManagerState;
}

function podName(pod: DeepReadonly<Pod>): string {
  return `${pod.metadata.namespace ?? "default"}/${pod.metadata.name ?? ""}`;
}

/** Admits `pods` in order on a fresh node with `policy`, and measures the result. */
export function placePods(policy: StaticPolicy, pods: readonly DeepReadonly<Pod>[]): Placement {
  const state = new CpuManagerState();
  policy.start(state);
  const results: PodPlacement[] = pods.map((pod) => {
    const result = allocatePod(policy, state, pod);
    return result.ok
      ? { pod: podName(pod), admitted: true }
      : { pod: podName(pod), admitted: false, reason: result.reason, message: result.message };
  });
  const topology = policy.topology;
  const containers: ContainerPlacement[] = [];
  const assignments = state.assignments();
  for (const pod of pods) {
    const assigned = assignments.get(pod.metadata.uid ?? "");
    if (assigned === undefined) continue;
    const finishedInits = new Set(
      (pod.spec.initContainers ?? [])
        .filter((c) => !isRestartableInitContainer(c))
        .map((c) => c.name),
    );
    for (const [name, cpus] of assigned) {
      if (finishedInits.has(name)) continue;
      containers.push({
        pod: podName(pod),
        container: name,
        cpus: cpus.toString(),
        l3: topology.uncoreCachesOf(cpus),
        numa: topology.numaNodesOf(cpus),
      });
    }
  }
  const holders = new Map<number, number>();
  for (const c of containers) for (const l3 of c.l3) holders.set(l3, (holders.get(l3) ?? 0) + 1);
  return {
    pods: results,
    containers,
    state,
    summary: {
      admitted: results.filter((r) => r.admitted).length,
      rejected: results.filter((r) => !r.admitted).length,
      exclusiveContainers: containers.length,
      spanningL3: containers.filter((c) => c.l3.length > 1).length,
      sharedL3: [...holders.values()].filter((n) => n > 1).length,
      maxNumaNodes: Math.max(0, ...containers.map((c) => c.numa.length)),
      spanningNuma: containers.filter((c) => c.numa.length > 1).length,
      sharedPool: state.defaultCpuSet().size,
    },
  };
}
