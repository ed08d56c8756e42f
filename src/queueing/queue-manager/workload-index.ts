/**
 * What the admission cycle knows about Workloads between cycles, kept current from Workload
 * events instead of recomputed from the whole cache every cycle (Kueue keeps the same two
 * structures: its cache's per-ClusterQueue usage, and its queue manager's pending heaps with
 * their `inadmissibleWorkloads`):
 * - per ClusterQueue, the Workloads holding quota there and the sums of what they reserve and
 *   what the admitted ones use; per LocalQueue, how many reserve and how many are admitted;
 * - per LocalQueue, the pending Workloads (not finished, no reservation, active, not being
 *   deleted), each either active (tried by the next cycle) or parked as inadmissible.
 *
 * A parked Workload stays parked across its own status updates (a Pending message written by
 * the cycle) unless its spec, reclaimable pods or Evicted condition change, as Kueue's
 * `PushOrUpdate`; it goes back to the active ones when quota is released in its ClusterQueue's
 * cohort (`QueueAssociatedInadmissibleWorkloadsAfter`) or when queues, flavors or namespaces
 * change. Amounts are integers (millicores, bytes, counts), so sums stay exact.
 */
import type { KueueWorkload } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { type ReservingWorkload, WorkloadInfoCache } from "../cache/workload-info.ts";

type Wl = DeepReadonly<KueueWorkload>;

/** Where one Workload counts. */
interface Entry {
  readonly workload: Wl;
  /** `namespace/queueName`. */
  readonly localQueue: string;
  readonly kind: "reserving" | "pending" | "other";
  /** Set when `kind` is `reserving`. */
  readonly reserving?: ReservingWorkload;
  readonly admitted: boolean;
}

/** A ClusterQueue's reservations: the preemption candidates and their sums. */
export interface ClusterQueueUsage {
  /** By `namespace/name`. */
  readonly reserving: ReadonlyMap<string, ReservingWorkload>;
  /** What every reserving Workload reserves, per `flavor/resource`. */
  readonly reserved: ReadonlyMap<string, number>;
  /** What the admitted ones use, per `flavor/resource`. */
  readonly admitted: ReadonlyMap<string, number>;
  readonly admittedCount: number;
}

interface MutableUsage {
  readonly reserving: Map<string, ReservingWorkload>;
  readonly reserved: Map<string, number>;
  readonly admitted: Map<string, number>;
  admittedCount: number;
  /** `reserving` as a list, built when asked for and dropped on change. */
  list: ReservingWorkload[] | undefined;
}

export interface LocalQueueCounts {
  readonly reserving: number;
  readonly admitted: number;
}

/** A parked Workload and the ClusterQueue whose cycle parked it ("" when it has none). */
export interface ParkedWorkload {
  readonly workload: Wl;
  readonly clusterQueue: string;
}

function addAmounts(into: Map<string, number>, amounts: ReadonlyMap<string, number>, sign: 1 | -1) {
  for (const [k, v] of amounts) {
    const next = (into.get(k) ?? 0) + sign * v;
    if (next === 0) into.delete(k);
    else into.set(k, next);
  }
}

/** Whether some amount of `after` is below the same amount in `before`. */
function shrinks(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): boolean {
  for (const [k, v] of before) if ((after.get(k) ?? 0) < v) return true;
  return false;
}

/** Kueue's `PushOrUpdate` test: nothing changed that could make a parked Workload admissible. */
function sameForQueueing(a: Wl, b: Wl): boolean {
  const generation = (w: Wl) => w.metadata.generation;
  const spec =
    generation(a) !== undefined && generation(b) !== undefined
      ? generation(a) === generation(b)
      : JSON.stringify(a.spec) === JSON.stringify(b.spec);
  const evicted = (w: Wl) =>
    JSON.stringify(w.status?.conditions?.find((c) => c.type === "Evicted") ?? null);
  return (
    spec &&
    JSON.stringify(a.status?.reclaimablePods ?? null) ===
      JSON.stringify(b.status?.reclaimablePods ?? null) &&
    evicted(a) === evicted(b)
  );
}

export class WorkloadIndex {
  readonly info: WorkloadInfoCache;
  readonly #entries = new Map<string, Entry>();
  readonly #usage = new Map<string, MutableUsage>();
  readonly #localQueues = new Map<string, { reserving: number; admitted: number }>();
  readonly #active = new Map<string, Map<string, Wl>>();
  readonly #parked = new Map<string, Map<string, ParkedWorkload>>();
  readonly #released = new Set<string>();

  constructor(info: WorkloadInfoCache = new WorkloadInfoCache()) {
    this.info = info;
  }

  /** An index of `workloads`, none parked. */
  static of(workloads: readonly Wl[], info?: WorkloadInfoCache): WorkloadIndex {
    const index = new WorkloadIndex(info);
    for (const w of workloads) index.upsert(w);
    return index;
  }

  /** The Workload as last recorded, by `namespace/name`. */
  get(key: string): Wl | undefined {
    return this.#entries.get(key)?.workload;
  }

  /** Records the current version of a Workload (idempotent). */
  upsert(workload: Wl): void {
    const state = this.info.state(workload);
    const old = this.#entries.get(state.key);
    if (old?.workload === workload) return;
    let wasParked: ParkedWorkload | undefined;
    if (old !== undefined) wasParked = this.#remove(state.key, old, workload);
    let entry: Entry;
    if (state.finished) {
      entry = { workload, localQueue: state.localQueueKey, kind: "other", admitted: false };
    } else if (state.reserved) {
      const clusterQueue = workload.status?.admission?.clusterQueue ?? "";
      const reserving = {
        workload,
        key: state.key,
        clusterQueue,
        usage: this.info.usage(workload),
      };
      entry = {
        workload,
        localQueue: state.localQueueKey,
        kind: "reserving",
        reserving,
        admitted: state.admitted,
      };
      this.#addReserving(entry, reserving);
    } else if (
      workload.spec.active === false ||
      workload.metadata.deletionTimestamp !== undefined
    ) {
      entry = { workload, localQueue: state.localQueueKey, kind: "other", admitted: false };
    } else {
      entry = { workload, localQueue: state.localQueueKey, kind: "pending", admitted: false };
      if (
        wasParked !== undefined &&
        old?.localQueue === entry.localQueue &&
        sameForQueueing(old.workload, workload)
      ) {
        this.#bucket(this.#parked, entry.localQueue).set(state.key, {
          workload,
          clusterQueue: wasParked.clusterQueue,
        });
      } else {
        this.#bucket(this.#active, entry.localQueue).set(state.key, workload);
      }
    }
    this.#entries.set(state.key, entry);
  }

  /** Forgets a deleted Workload. */
  delete(key: string): void {
    const old = this.#entries.get(key);
    if (old === undefined) return;
    this.#remove(key, old, undefined);
    this.#entries.delete(key);
  }

  /** Parks a pending Workload the cycle of `clusterQueue` found inadmissible. */
  park(localQueue: string, key: string, clusterQueue: string): void {
    const active = this.#active.get(localQueue);
    const workload = active?.get(key);
    if (active === undefined || workload === undefined) return;
    active.delete(key);
    if (active.size === 0) this.#active.delete(localQueue);
    this.#bucket(this.#parked, localQueue).set(key, { workload, clusterQueue });
  }

  /** Makes every parked Workload whose ClusterQueue is in `clusterQueues` (or all) active. */
  unpark(clusterQueues?: ReadonlySet<string>): void {
    for (const [localQueue, parked] of this.#parked) {
      for (const [key, p] of parked) {
        if (clusterQueues !== undefined && !clusterQueues.has(p.clusterQueue)) continue;
        parked.delete(key);
        this.#bucket(this.#active, localQueue).set(key, p.workload);
      }
      if (parked.size === 0) this.#parked.delete(localQueue);
    }
  }

  /** The ClusterQueues that released quota since the last call. */
  takeReleased(): Set<string> {
    const released = new Set(this.#released);
    this.#released.clear();
    return released;
  }

  /** Active pending Workloads by LocalQueue key, then by `namespace/name`. */
  get active(): ReadonlyMap<string, ReadonlyMap<string, Wl>> {
    return this.#active;
  }

  /** Parked pending Workloads by LocalQueue key, then by `namespace/name`. */
  get parked(): ReadonlyMap<string, ReadonlyMap<string, ParkedWorkload>> {
    return this.#parked;
  }

  usage(clusterQueue: string): ClusterQueueUsage | undefined {
    return this.#usage.get(clusterQueue);
  }

  /** The Workloads holding quota in a ClusterQueue. */
  reserving(clusterQueue: string): readonly ReservingWorkload[] {
    const usage = this.#usage.get(clusterQueue);
    if (usage === undefined) return [];
    usage.list ??= [...usage.reserving.values()];
    return usage.list;
  }

  localQueueCounts(localQueue: string): LocalQueueCounts {
    return this.#localQueues.get(localQueue) ?? { reserving: 0, admitted: 0 };
  }

  #bucket<V>(map: Map<string, Map<string, V>>, localQueue: string): Map<string, V> {
    let bucket = map.get(localQueue);
    if (bucket === undefined) {
      bucket = new Map();
      map.set(localQueue, bucket);
    }
    return bucket;
  }

  #addReserving(entry: Entry, reserving: ReservingWorkload): void {
    let usage = this.#usage.get(reserving.clusterQueue);
    if (usage === undefined) {
      usage = {
        reserving: new Map(),
        reserved: new Map(),
        admitted: new Map(),
        admittedCount: 0,
        list: undefined,
      };
      this.#usage.set(reserving.clusterQueue, usage);
    }
    usage.reserving.set(reserving.key, reserving);
    usage.list = undefined;
    addAmounts(usage.reserved, reserving.usage, 1);
    let counts = this.#localQueues.get(entry.localQueue);
    if (counts === undefined) {
      counts = { reserving: 0, admitted: 0 };
      this.#localQueues.set(entry.localQueue, counts);
    }
    counts.reserving++;
    if (entry.admitted) {
      addAmounts(usage.admitted, reserving.usage, 1);
      usage.admittedCount++;
      counts.admitted++;
    }
  }

  /** Takes `old` out of every structure; returns it when it was parked. */
  #remove(key: string, old: Entry, next: Wl | undefined): ParkedWorkload | undefined {
    if (old.kind === "reserving" && old.reserving !== undefined) {
      const cq = old.reserving.clusterQueue;
      const usage = this.#usage.get(cq);
      if (usage !== undefined) {
        usage.reserving.delete(key);
        usage.list = undefined;
        addAmounts(usage.reserved, old.reserving.usage, -1);
        if (old.admitted) {
          addAmounts(usage.admitted, old.reserving.usage, -1);
          usage.admittedCount--;
        }
        if (usage.reserving.size === 0) this.#usage.delete(cq);
      }
      const counts = this.#localQueues.get(old.localQueue);
      if (counts !== undefined) {
        counts.reserving--;
        if (old.admitted) counts.admitted--;
        if (counts.reserving === 0) this.#localQueues.delete(old.localQueue);
      }
      const still =
        next !== undefined &&
        !this.info.state(next).finished &&
        this.info.state(next).reserved &&
        next.status?.admission?.clusterQueue === cq;
      if (!still || shrinks(old.reserving.usage, this.info.usage(next as Wl))) {
        this.#released.add(cq);
      }
      return undefined;
    }
    if (old.kind !== "pending") return undefined;
    const active = this.#active.get(old.localQueue);
    if (active?.delete(key) === true) {
      if (active.size === 0) this.#active.delete(old.localQueue);
      return undefined;
    }
    const parked = this.#parked.get(old.localQueue);
    const was = parked?.get(key);
    if (parked !== undefined && was !== undefined) {
      parked.delete(key);
      if (parked.size === 0) this.#parked.delete(old.localQueue);
    }
    return was;
  }
}
