/**
 * Per-object memo of what Workloads request and use, so that a cycle over thousands of
 * Workloads does not recompute pod requests for objects it has already seen. Informer objects
 * are immutable values replaced on every update, so an entry keyed by the object itself stays
 * valid for as long as the object lives (and goes with it: the maps are weak).
 */
import {
  findWorkloadCondition,
  hasQuotaReservation,
  isWorkloadAdmitted,
  isWorkloadFinished,
  type KueueWorkload,
  type PodSet,
  quotaReservedCondition,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { queueOrderTimestamp, workloadPriority } from "../queue-manager/ordering.ts";
import { type FlavorResourceAmounts, workloadUsage } from "./quota.ts";
import { podSetRequests } from "./requests.ts";

/** A Workload holding quota, with what it uses per `flavor/resource`. */
export interface ReservingWorkload {
  readonly workload: DeepReadonly<KueueWorkload>;
  /** `namespace/name`. */
  readonly key: string;
  readonly clusterQueue: string;
  readonly usage: ReadonlyMap<string, number>;
}

/** A Workload's place in its ClusterQueue's order (see `queue-manager/ordering.ts`). */
export interface OrderKey {
  readonly priority: number;
  /** Queue-order timestamp, epoch milliseconds. */
  readonly time: number;
  /** `namespace/name`, the last tie-breaker. */
  readonly key: string;
}

/** What a cycle asks of every Workload, read once per object. */
export interface WorkloadState {
  /** `namespace/name`. */
  readonly key: string;
  /** `namespace/queueName`: the LocalQueue's key. */
  readonly localQueueKey: string;
  readonly finished: boolean;
  readonly reserved: boolean;
  readonly admitted: boolean;
  /** It has a QuotaReserved condition (it was seen by a cycle before). */
  readonly seen: boolean;
}

export class WorkloadInfoCache {
  readonly #states = new WeakMap<object, WorkloadState>();
  readonly #requests = new WeakMap<object, ReadonlyMap<string, number>>();
  readonly #usage = new WeakMap<object, FlavorResourceAmounts>();
  readonly #order = new WeakMap<object, OrderKey>();
  readonly #shape = new WeakMap<object, string>();

  /** The per-pod requests of a PodSet (millicores for cpu). */
  readonly requests = (podSet: DeepReadonly<PodSet>): ReadonlyMap<string, number> => {
    let value = this.#requests.get(podSet);
    if (value === undefined) {
      value = podSetRequests(podSet);
      this.#requests.set(podSet, value);
    }
    return value;
  };

  /** The Workload's key and condition flags. */
  state(workload: DeepReadonly<KueueWorkload>): WorkloadState {
    let value = this.#states.get(workload);
    if (value === undefined) {
      const namespace = workload.metadata.namespace ?? "";
      value = {
        key: `${namespace}/${workload.metadata.name ?? ""}`,
        localQueueKey: `${namespace}/${workload.spec.queueName ?? ""}`,
        finished: isWorkloadFinished(workload),
        reserved: hasQuotaReservation(workload),
        admitted: isWorkloadAdmitted(workload),
        seen:
          findWorkloadCondition(workload.status?.conditions, quotaReservedCondition) !== undefined,
      };
      this.#states.set(workload, value);
    }
    return value;
  }

  /** What an admitted Workload uses per `flavor/resource` (empty without an admission). */
  usage(workload: DeepReadonly<KueueWorkload>): ReadonlyMap<string, number> {
    let value = this.#usage.get(workload);
    if (value === undefined) {
      const byName = new Map(workload.spec.podSets.map((p) => [p.name, p]));
      value = workloadUsage(workload, (name) => {
        const podSet = byName.get(name);
        return podSet === undefined ? new Map() : this.requests(podSet);
      });
      this.#usage.set(workload, value);
    }
    return value;
  }

  /** Where the Workload goes in its ClusterQueue's order. */
  order(workload: DeepReadonly<KueueWorkload>): OrderKey {
    let value = this.#order.get(workload);
    if (value === undefined) {
      value = {
        priority: workloadPriority(workload),
        time: queueOrderTimestamp(workload),
        key: this.state(workload).key,
      };
      this.#order.set(workload, value);
    }
    return value;
  }

  /**
   * What flavor assignment reads of the Workload (its PodSets and reclaimable pods), as a
   * string: two Workloads with the same shape get the same flavors and fit the same quota.
   */
  shape(workload: DeepReadonly<KueueWorkload>): string {
    let value = this.#shape.get(workload);
    if (value === undefined) {
      value = JSON.stringify([workload.spec.podSets, workload.status?.reclaimablePods ?? null]);
      this.#shape.set(workload, value);
    }
    return value;
  }
}

/** Negative when `a` goes before `b` in a ClusterQueue (`compareWorkloads` over order keys). */
export function compareOrder(a: OrderKey, b: OrderKey): number {
  return b.priority - a.priority || a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}
