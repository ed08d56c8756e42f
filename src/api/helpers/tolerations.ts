/**
 * Toleration ↔ taint matching, as upstream's `k8s.io/component-helpers/scheduling/corev1`: the
 * scheduler filters and scores with it, the kubelet and the node lifecycle controller evict with it.
 */
import type { DeepReadonly } from "../../util/index.ts";
import type { Taint } from "../core/v1/node-types.ts";
import type { Toleration } from "../core/v1/pod-template.ts";

const decimalInteger = /^-?(0|[1-9][0-9]*)$/;

function integerOf(text: string | undefined): bigint | undefined {
  if (text === undefined || !decimalInteger.test(text)) return undefined;
  const parsed = BigInt(text);
  return parsed >= -(1n << 63n) && parsed < 1n << 63n ? parsed : undefined;
}

/**
 * Whether one toleration tolerates one taint:
 * 1. an empty `effect` matches every effect, otherwise the effects must be equal;
 * 2. an empty `key` matches every key (with `operator: Exists`), otherwise the keys must be equal;
 * 3. `Equal` (the default) compares values, `Exists` matches any value;
 * 4. `Lt`/`Gt` compare the values as decimal int64s: `Lt` tolerates a taint whose value is less
 *    than the toleration's, `Gt` one whose value is greater; a value that is not an integer
 *    tolerates nothing.
 */
export function toleratesTaint(
  toleration: DeepReadonly<Toleration>,
  taint: DeepReadonly<Taint>,
): boolean {
  const effect = toleration.effect ?? "";
  if (effect !== "" && effect !== taint.effect) return false;
  const key = toleration.key ?? "";
  if (key !== "" && key !== taint.key) return false;
  switch (toleration.operator ?? "") {
    case "":
    case "Equal":
      return (toleration.value ?? "") === (taint.value ?? "");
    case "Exists":
      return true;
    case "Lt":
    case "Gt": {
      const limit = integerOf(toleration.value);
      const actual = integerOf(taint.value);
      if (limit === undefined || actual === undefined) return false;
      return toleration.operator === "Lt" ? actual < limit : actual > limit;
    }
    default:
      return false;
  }
}

/** Whether any of the tolerations tolerates the taint. */
export function tolerationsTolerateTaint(
  tolerations: readonly DeepReadonly<Toleration>[] | undefined,
  taint: DeepReadonly<Taint>,
): boolean {
  if (tolerations === undefined) return false;
  // Indexed loops here and below: this runs for every node the scheduler filters, over arrays
  // that informers froze, and V8 allocates an iterator for `for…of` over a frozen array.
  for (let i = 0; i < tolerations.length; i++) {
    if (toleratesTaint(tolerations[i] as DeepReadonly<Toleration>, taint)) return true;
  }
  return false;
}

/** Selects the taints a check cares about; see `doNotScheduleTaints`. */
export type TaintFilter = (taint: DeepReadonly<Taint>) => boolean;

/** The taints that keep new pods off a node: `NoSchedule` and `NoExecute`. */
export const doNotScheduleTaints: TaintFilter = (taint) =>
  taint.effect === "NoSchedule" || taint.effect === "NoExecute";

/**
 * The first taint (in node order) that `inclusion` selects and no toleration tolerates, or
 * `undefined` when the pod tolerates every selected taint. Without `inclusion`, every taint counts.
 */
export function findMatchingUntoleratedTaint(
  taints: readonly DeepReadonly<Taint>[] | undefined,
  tolerations: readonly DeepReadonly<Toleration>[] | undefined,
  inclusion?: TaintFilter,
): DeepReadonly<Taint> | undefined {
  if (taints === undefined) return undefined;
  for (let i = 0; i < taints.length; i++) {
    const taint = taints[i] as DeepReadonly<Taint>;
    if (inclusion !== undefined && !inclusion(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}
