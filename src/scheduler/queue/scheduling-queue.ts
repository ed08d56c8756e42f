/**
 * The scheduling queue (upstream's `PriorityQueue`):
 * - activeQ: pods ready to be tried, ordered by the profile's QueueSort;
 * - backoffQ: pods that failed and wait out their backoff (1 s doubling to 10 s);
 * - unschedulable pods: pods that failed and wait for a cluster event whose queueing hint says it
 *   may help (or for 5 minutes), and gated pods that a PreEnqueue plugin keeps out.
 * Events during an attempt are remembered (in-flight) and replayed when the attempt fails.
 */
import type { Pod } from "../../api/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import {
  type ClusterEvent,
  type ClusterEventWithHint,
  clusterEvents,
  eventLabel,
  isGated,
  isWildCard,
  matchAnyClusterEvent,
  matchClusterEvents,
  type NominatingInfo,
  newQueuedPodInfo,
  PodInfo,
  type QueuedPodInfo,
  type Status,
} from "../framework/index.ts";
import { KeyedHeap } from "./heap.ts";
import { InFlight } from "./in-flight.ts";
import { Nominator } from "./nominator.ts";
import { podSchedulingPropertiesChange } from "./object-events.ts";
import {
  backoffDuration,
  type Strategy,
  strategyAfterEvents,
  worthRequeuing,
} from "./queueing-hints.ts";

/** What the queue needs from a profile. */
export interface QueueProfile {
  /** Runs the PreEnqueue plugins; `plugin` names the one that gates the pod. */
  preEnqueue(pod: DeepReadonly<Pod>): { status: Status; plugin: string };
  /** Plugin name → the events (and hints) that can undo its rejections. */
  readonly eventsToRegister: ReadonlyMap<string, readonly ClusterEventWithHint[]>;
}

export interface SchedulingQueueOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  /** The active queue's order (the QueueSort plugin). */
  readonly less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  /** `spec.schedulerName` → profile. */
  readonly profiles: ReadonlyMap<string, QueueProfile>;
  /** @default 1000 */
  readonly podInitialBackoffMs?: number;
  /** @default 10000 */
  readonly podMaxBackoffMs?: number;
  /** Unschedulable pods older than this are retried anyway. @default 300000 (5 minutes) */
  readonly podMaxInUnschedulablePodsMs?: number;
  /** Whether the informer cache already has the pod bound (such pods are not nominated). */
  readonly isAssigned?: (pod: DeepReadonly<Pod>) => boolean;
}

/** Where a pod went. */
export type QueueName = "Active" | "Backoff" | "Unschedulable";

export class SchedulingQueue {
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #profiles: ReadonlyMap<string, QueueProfile>;
  readonly #initialBackoff: number;
  readonly #maxBackoff: number;
  readonly #maxInUnschedulable: number;
  readonly #activeQ: KeyedHeap<QueuedPodInfo>;
  readonly #backoffQ: KeyedHeap<QueuedPodInfo>;
  readonly #unschedulable = new Map<string, QueuedPodInfo>();
  readonly #inFlight = new InFlight();
  readonly nominator: Nominator;
  #cycle = 0;
  #waiters: (() => void)[] = [];
  #closed = false;

  constructor(options: SchedulingQueueOptions) {
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#profiles = options.profiles;
    this.#initialBackoff = options.podInitialBackoffMs ?? 1000;
    this.#maxBackoff = options.podMaxBackoffMs ?? 10_000;
    this.#maxInUnschedulable = options.podMaxInUnschedulablePodsMs ?? 300_000;
    const key = (p: QueuedPodInfo): string => p.podInfo.uid;
    this.#activeQ = new KeyedHeap(key, options.less);
    this.#backoffQ = new KeyedHeap(key, (a, b) => this.#backoffTime(a) < this.#backoffTime(b));
    this.nominator = new Nominator(options.isAssigned);
  }

  #now(): number {
    return this.#clock.now().getTime();
  }

  /** A new pod (an unscheduled pod was added). */
  add(pod: DeepReadonly<Pod>): void {
    const info = newQueuedPodInfo(pod, this.#now());
    if (this.#moveToActiveQ(info, clusterEvents.unscheduledPodAdd)) this.#broadcast();
  }

  /** Moves the pods to the active queue (or, when in flight, remembers to retry them). */
  activate(pods: readonly DeepReadonly<Pod>[]): void {
    let activated = false;
    for (const pod of pods) {
      const uid = pod.metadata.uid ?? "";
      let info = this.#unschedulable.get(uid);
      if (info === undefined) {
        info = this.#backoffQ.get(uid);
        if (info !== undefined) this.#backoffQ.delete(uid);
      }
      if (info !== undefined) {
        if (this.#moveToActiveQ(info, clusterEvents.forceActivate)) activated = true;
      } else if (this.#inFlight.has(uid)) {
        this.#inFlight.record(clusterEvents.forceActivate, undefined, pod);
      }
    }
    if (activated) this.#broadcast();
  }

  /** The number of pods popped so far. */
  schedulingCycle(): number {
    return this.#cycle;
  }

  /**
   * The next pod to schedule; waits while the active queue is empty. Resolves undefined once the
   * queue is closed or `signal` aborts.
   */
  async pop(signal?: AbortSignal): Promise<QueuedPodInfo | undefined> {
    for (;;) {
      if (this.#closed || signal?.aborted === true) return undefined;
      const info = this.#activeQ.pop();
      if (info !== undefined) {
        this.#cycle++;
        info.attempts++;
        info.unschedulablePlugins.clear();
        info.pendingPlugins.clear();
        this.#inFlight.start(info.podInfo.uid);
        return info;
      }
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          signal?.removeEventListener("abort", wake);
          resolve();
        };
        this.#waiters.push(wake);
        signal?.addEventListener("abort", wake, { once: true });
      });
    }
  }

  /**
   * Takes a pending pod out of the queue for the cycle under way (upstream's `PopSpecificPod`),
   * wherever it waits, unless a PreEnqueue plugin gates it or it is already in flight. The caller
   * owns the entry as it owns what `pop` returns (call `done` or re-add it).
   */
  popSpecific(uid: string): QueuedPodInfo | undefined {
    if (this.#inFlight.has(uid)) return undefined;
    let info = this.#activeQ.get(uid);
    if (info !== undefined) {
      this.#activeQ.delete(uid);
    } else {
      info = this.#backoffQ.get(uid);
      if (info !== undefined) {
        this.#backoffQ.delete(uid);
      } else {
        info = this.#unschedulable.get(uid);
        if (info === undefined || isGated(info)) return undefined;
        this.#unschedulable.delete(uid);
      }
    }
    info.attempts++;
    info.initialAttemptTimestamp ??= this.#now();
    info.unschedulablePlugins.clear();
    info.pendingPlugins.clear();
    this.#inFlight.start(uid);
    return info;
  }

  /**
   * An event that concerns only these pods (a new member of their gang): asks their rejecting
   * plugins, as `moveAllToActiveOrBackoffQueue` does, without visiting every unschedulable pod.
   */
  movePodsToActiveOrBackoffQueue(
    uids: readonly string[],
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
  ): void {
    const candidates: QueuedPodInfo[] = [];
    for (const uid of uids) {
      const info = this.#unschedulable.get(uid);
      if (info !== undefined) candidates.push(info);
    }
    this.#movePods(candidates, event, oldObj, newObj);
  }

  /** How many pending pods each queue holds, by `pick(pod)` (undefined: not counted). */
  countBy(
    pick: (pod: DeepReadonly<Pod>) => string | undefined,
  ): Record<"active" | "backoff" | "unschedulable" | "gated", Set<string>> {
    const out = {
      active: new Set<string>(),
      backoff: new Set<string>(),
      unschedulable: new Set<string>(),
      gated: new Set<string>(),
    };
    const add = (set: Set<string>, info: QueuedPodInfo): void => {
      const key = pick(info.podInfo.pod);
      if (key !== undefined) set.add(key);
    };
    for (const info of this.#activeQ.list()) add(out.active, info);
    for (const info of this.#backoffQ.list()) add(out.backoff, info);
    for (const info of this.#unschedulable.values()) {
      add(isGated(info) ? out.gated : out.unschedulable, info);
    }
    return out;
  }

  /** The attempt of a popped pod is over (call for every pod `pop` returned). */
  done(uid: string): void {
    this.#inFlight.done(uid);
  }

  /**
   * A failed attempt's pod comes back: to the active queue, backoff or the unschedulable pods,
   * depending on its rejecting plugins and the events seen while it was in flight.
   */
  addUnschedulableIfNotPresent(info: QueuedPodInfo): QueueName | undefined {
    const uid = info.podInfo.uid;
    try {
      if (this.#unschedulable.has(uid) || this.#activeQ.has(uid) || this.#backoffQ.has(uid)) {
        return undefined;
      }
      if (info.unschedulablePlugins.size === 0 && info.pendingPlugins.size === 0) {
        info.consecutiveErrorsCount++;
      } else {
        info.unschedulableCount++;
        info.consecutiveErrorsCount = 0;
      }
      info.timestamp = this.#now();
      info.backoffExpiration = 0;
      const strategy = this.#hintForInFlightPod(info);
      const queue = this.#requeue(info, strategy, "ScheduleAttemptFailure");
      this.#logger.v(3).info("Pod moved to an internal scheduling queue", {
        pod: info.podInfo.key,
        queue,
        unschedulablePlugins: [...info.unschedulablePlugins],
      });
      if (queue !== "Unschedulable") this.#broadcast();
      return queue;
    } finally {
      this.done(uid);
    }
  }

  /** An unscheduled pod changed. */
  update(oldPod: DeepReadonly<Pod>, newPod: DeepReadonly<Pod>): void {
    const uid = newPod.metadata.uid ?? "";
    const events = podSchedulingPropertiesChange(newPod, oldPod);
    if (this.#inFlight.has(uid)) {
      for (const event of events) this.#inFlight.record(event, oldPod, newPod);
      return;
    }
    for (const heap of [this.#activeQ, this.#backoffQ]) {
      const info = heap.get(uid);
      if (info !== undefined) {
        info.podInfo = new PodInfo(newPod);
        heap.addOrUpdate(info);
        this.nominator.update(oldPod, info.podInfo);
        return;
      }
    }
    const info = this.#unschedulable.get(uid);
    if (info !== undefined) {
      info.podInfo = new PodInfo(newPod);
      this.nominator.update(oldPod, info.podInfo);
      for (const event of events) {
        const strategy = this.#worthRequeuing(info, event, oldPod, newPod);
        if (strategy === "skip") continue;
        this.#unschedulable.delete(uid);
        if (this.#requeue(info, strategy, eventLabel(event)) !== "Unschedulable") {
          this.#broadcast();
          break;
        }
      }
      return;
    }
    const fresh = newQueuedPodInfo(newPod, this.#now());
    if (this.#moveToActiveQ(fresh, clusterEvents.unscheduledPodUpdate)) this.#broadcast();
  }

  /** An unscheduled pod was deleted (or bound). */
  delete(pod: DeepReadonly<Pod>): void {
    const uid = pod.metadata.uid ?? "";
    this.nominator.delete(pod);
    if (this.#activeQ.delete(uid)) return;
    if (this.#backoffQ.delete(uid)) return;
    this.#unschedulable.delete(uid);
  }

  /** An event that may make unschedulable pods schedulable: ask their rejecting plugins. */
  moveAllToActiveOrBackoffQueue(
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
    preCheck?: (pod: DeepReadonly<Pod>) => boolean,
  ): void {
    if (!this.#isEventOfInterest(event)) return;
    const candidates: QueuedPodInfo[] = [];
    for (const info of this.#unschedulable.values()) {
      if (preCheck === undefined || preCheck(info.podInfo.pod)) candidates.push(info);
    }
    this.#movePods(candidates, event, oldObj, newObj);
  }

  /** A bound pod appeared: it may satisfy affinity or spreading of unschedulable pods. */
  assignedPodAdded(pod: DeepReadonly<Pod>): void {
    this.moveAllToActiveOrBackoffQueue(clusterEvents.assignedPodAdd, undefined, pod);
  }

  /** A bound pod changed. */
  assignedPodUpdated(
    oldPod: DeepReadonly<Pod>,
    newPod: DeepReadonly<Pod>,
    event: ClusterEvent,
  ): void {
    this.moveAllToActiveOrBackoffQueue(event, oldPod, newPod);
  }

  /** Moves pods whose backoff is over to the active queue. */
  flushBackoffQCompleted(): void {
    const now = this.#now();
    let activated = false;
    for (;;) {
      const top = this.#backoffQ.peek();
      if (top === undefined || this.#backoffTime(top) > now) break;
      this.#backoffQ.pop();
      if (this.#moveToActiveQ(top, { resource: "*", actionType: 8191, label: "BackoffComplete" })) {
        activated = true;
      }
    }
    if (activated) this.#broadcast();
  }

  /** Retries pods that have been unschedulable for longer than the limit (5 minutes). */
  flushUnschedulablePodsLeftover(): void {
    const now = this.#now();
    const stale: QueuedPodInfo[] = [];
    for (const info of this.#unschedulable.values()) {
      if (now - info.timestamp > this.#maxInUnschedulable) stale.push(info);
    }
    if (stale.length > 0)
      this.#movePods(stale, clusterEvents.unschedulableTimeout, undefined, undefined);
  }

  /** Runs the backoff (every second) and unschedulable (every 30 s) flushes until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const every = async (ms: number, fn: () => void): Promise<void> => {
      while (!signal.aborted) {
        try {
          await this.#clock.sleep(ms, signal);
        } catch (error: unknown) {
          if (signal.aborted) return;
          throw error;
        }
        fn();
      }
    };
    await Promise.all([
      every(1000, () => this.flushBackoffQCompleted()),
      every(30_000, () => this.flushUnschedulablePodsLeftover()),
    ]);
  }

  /** Wakes pending `pop`s; they resolve undefined. */
  close(): void {
    this.#closed = true;
    this.#broadcast();
  }

  addNominatedPod(podInfo: PodInfo, info?: NominatingInfo): void {
    this.nominator.add(podInfo, info);
  }

  /** Where each pending pod sits, by `namespace/name` (for tests and debugging). */
  pendingPods(): { active: string[]; backoff: string[]; unschedulable: string[] } {
    const names = (infos: Iterable<QueuedPodInfo>): string[] =>
      [...infos].map((i) => i.podInfo.key).sort();
    return {
      active: names(this.#activeQ.list()),
      backoff: names(this.#backoffQ.list()),
      unschedulable: names(this.#unschedulable.values()),
    };
  }

  /** The queue entry of a pending pod. */
  get(uid: string): QueuedPodInfo | undefined {
    return this.#activeQ.get(uid) ?? this.#backoffQ.get(uid) ?? this.#unschedulable.get(uid);
  }

  // ---- internals ----

  #broadcast(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  #backoffTime(info: QueuedPodInfo): number {
    if (info.backoffExpiration === 0) {
      info.backoffExpiration =
        info.timestamp + backoffDuration(info, this.#initialBackoff, this.#maxBackoff);
    }
    return info.backoffExpiration;
  }

  #isBackingOff(info: QueuedPodInfo): boolean {
    return this.#backoffTime(info) > this.#now();
  }

  /** Runs PreEnqueue; a gated pod goes (or stays) with the unschedulable pods. */
  #moveToActiveQ(info: QueuedPodInfo, event: ClusterEvent): boolean {
    const uid = info.podInfo.uid;
    const profile = this.#profiles.get(info.podInfo.pod.spec.schedulerName ?? "default-scheduler");
    const gate = profile?.preEnqueue(info.podInfo.pod);
    if (gate !== undefined && gate.status.code !== "Success") {
      info.unschedulablePlugins.add(gate.plugin);
      info.gatingPlugin = gate.plugin;
      info.gatingPluginEvents = (profile?.eventsToRegister.get(gate.plugin) ?? []).map(
        (e) => e.event,
      );
      if (!this.#activeQ.has(uid) && !this.#backoffQ.has(uid)) this.#unschedulable.set(uid, info);
      this.#logger.v(5).info("Pod is gated", {
        pod: info.podInfo.key,
        plugin: gate.plugin,
        event: eventLabel(event),
      });
      return false;
    }
    info.gatingPlugin = "";
    info.gatingPluginEvents = [];
    info.initialAttemptTimestamp ??= this.#now();
    this.#unschedulable.delete(uid);
    this.#backoffQ.delete(uid);
    this.#activeQ.addOrUpdate(info);
    if (event === clusterEvents.unscheduledPodAdd || event === clusterEvents.unscheduledPodUpdate) {
      this.nominator.add(info.podInfo);
    }
    return true;
  }

  #requeue(info: QueuedPodInfo, strategy: Strategy, label: string): QueueName {
    const uid = info.podInfo.uid;
    if (strategy === "skip") {
      this.#unschedulable.set(uid, info);
      return "Unschedulable";
    }
    if (strategy === "afterBackoff" && this.#isBackingOff(info)) {
      this.#unschedulable.delete(uid);
      this.#backoffQ.addOrUpdate(info);
      return "Backoff";
    }
    return this.#moveToActiveQ(info, { resource: "*", actionType: 8191, label })
      ? "Active"
      : "Unschedulable";
  }

  #isEventOfInterest(event: ClusterEvent): boolean {
    if (isWildCard(event)) return true;
    for (const profile of this.#profiles.values()) {
      for (const hints of profile.eventsToRegister.values()) {
        for (const h of hints) if (matchClusterEvents(h.event, event)) return true;
      }
    }
    return false;
  }

  #worthRequeuing(
    info: QueuedPodInfo,
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
  ): Strategy {
    const pod = info.podInfo.pod;
    const profile = this.#profiles.get(pod.spec.schedulerName ?? "default-scheduler");
    return worthRequeuing(profile, info, event, oldObj, newObj, this.#logger);
  }

  #hintForInFlightPod(info: QueuedPodInfo): Strategy {
    return strategyAfterEvents(info, this.#inFlight.eventsFor(info.podInfo.uid), (e) =>
      this.#worthRequeuing(info, e.event, e.oldObj, e.newObj),
    );
  }

  #movePods(
    infos: readonly QueuedPodInfo[],
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
  ): void {
    let activated = false;
    for (const info of infos) {
      if (isGated(info) && !matchAnyClusterEvent(event, info.gatingPluginEvents)) continue;
      const strategy = this.#worthRequeuing(info, event, oldObj, newObj);
      if (strategy === "skip") continue;
      this.#unschedulable.delete(info.podInfo.uid);
      if (this.#requeue(info, strategy, eventLabel(event)) !== "Unschedulable") activated = true;
    }
    this.#inFlight.record(event, oldObj, newObj);
    if (activated) this.#broadcast();
  }
}
