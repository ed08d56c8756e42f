/**
 * Allocates every container of a pod, init containers first (upstream's resource-allocation
 * admit handler with the Topology Manager's `none` scope), and turns a failure into the
 * admission verdict the kubelet writes: the SMT alignment error's own reason, or
 * `UnexpectedAdmissionError` / `Allocate failed due to <error>, which is unexpected`.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { StaticPolicy } from "./policy-static.ts";
import type { CpuManagerState } from "./state/state.ts";
import type { TakeStep } from "./take/accumulator.ts";

/** The admission failure reason for errors without a type of their own. */
export const unexpectedAdmissionError = "UnexpectedAdmissionError";

export type AllocatePodResult =
  | { readonly ok: true; readonly changed: boolean }
  | {
      readonly ok: false;
      readonly changed: boolean;
      readonly reason: string;
      readonly message: string;
    };

type Container = NonNullable<Pod["spec"]["containers"]>[number];

/** Init containers, then app containers: the kubelet's allocation order. */
export function containersOf(pod: DeepReadonly<Pod>): readonly DeepReadonly<Container>[] {
  return [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])];
}

export interface AllocatePodOptions {
  /** Keep what earlier containers got when a later one fails (a pod being restored). */
  readonly keepOnFailure?: boolean;
  /** The Topology Manager's NUMA hint for every container. */
  readonly numaAffinity?: readonly number[];
  /** Collects each container's decisions. */
  readonly trace?: (container: string) => TakeStep[] | undefined;
}

export function allocatePod(
  policy: StaticPolicy,
  state: CpuManagerState,
  pod: DeepReadonly<Pod>,
  options: AllocatePodOptions = {},
): AllocatePodResult {
  const uid = pod.metadata.uid ?? "";
  const before = new Set(state.containers(uid).keys());
  let changed = false;
  for (const container of containersOf(pod)) {
    const result = policy.allocate(
      state,
      pod,
      container,
      options.numaAffinity,
      options.trace?.(container.name),
    );
    if (result.ok) {
      if (result.cpus !== undefined && !before.has(container.name)) changed = true;
      continue;
    }
    if (options.keepOnFailure !== true) {
      for (const name of state.containers(uid).keys()) {
        if (!before.has(name)) policy.removeContainer(state, uid, name);
      }
    }
    const { reason, message } = result.error;
    return reason === undefined
      ? {
          ok: false,
          changed,
          reason: unexpectedAdmissionError,
          message: `Allocate failed due to ${message}, which is unexpected`,
        }
      : { ok: false, changed, reason, message };
  }
  return { ok: true, changed };
}
