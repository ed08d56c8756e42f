/** Wire types of `scheduling.k8s.io/v1` PriorityClass (cluster-scoped; no spec). */
import type { ObjectMeta } from "../../meta/types.ts";

export type PreemptionPolicy = "PreemptLowerPriority" | "Never";

export interface PriorityClass {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  value: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: PreemptionPolicy;
  [field: string]: unknown;
}

/** The largest value a user-defined class may have; larger ones are reserved for the system. */
export const highestUserDefinablePriority = 1_000_000_000;
/** The prefix reserved for the built-in classes. */
export const systemPriorityClassPrefix = "system-";

/** The two built-in classes and their fixed values. */
export const systemPriorityClasses: readonly { name: string; value: number }[] = [
  { name: "system-node-critical", value: 2_000_001_000 },
  { name: "system-cluster-critical", value: 2_000_000_000 },
];
