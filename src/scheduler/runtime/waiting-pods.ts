/**
 * Pods parked at Permit (upstream's `waitingPod` and `waitingPodsMap`). Each plugin that answered
 * Wait gets a timer; the pod proceeds when every such plugin allowed it, and is rejected by the
 * first explicit rejection or expired timer:
 * `rejected due to timeout after waiting 5m0s at plugin GangScheduling`.
 */
import type { Pod } from "../../api/index.ts";
import type { Clock, DeepReadonly } from "../../util/index.ts";
import {
  formatGoDuration,
  type Status,
  success,
  unschedulable,
  type WaitingPod,
  withPlugin,
} from "../framework/index.ts";

export class WaitingPodImpl implements WaitingPod {
  readonly pod: DeepReadonly<Pod>;
  readonly nodeName: string;
  /** Settles once with the outcome of the wait. */
  readonly outcome: Promise<Status>;
  readonly #pending = new Set<string>();
  readonly #timers = new AbortController();
  #settle: (status: Status) => void = () => undefined;
  #done = false;

  /** `waits`: plugin → how long it waits (ms). Timers start now. */
  constructor(
    pod: DeepReadonly<Pod>,
    nodeName: string,
    waits: ReadonlyMap<string, number>,
    clock: Clock,
  ) {
    this.pod = pod;
    this.nodeName = nodeName;
    this.outcome = new Promise<Status>((resolve) => {
      this.#settle = resolve;
    });
    const signal = this.#timers.signal;
    for (const [plugin, ms] of waits) {
      this.#pending.add(plugin);
      clock.sleep(ms, signal).then(
        () =>
          this.reject(
            plugin,
            `rejected due to timeout after waiting ${formatGoDuration(ms)} at plugin ${plugin}`,
          ),
        (reason: unknown) => {
          // The wait ended before the timer: that abort is expected; anything else is a bug.
          if (!signal.aborted) throw reason;
        },
      );
    }
  }

  get uid(): string {
    return this.pod.metadata.uid ?? "";
  }

  pendingPlugins(): string[] {
    return [...this.#pending];
  }

  allow(plugin: string): void {
    if (this.#done) return;
    this.#pending.delete(plugin);
    if (this.#pending.size === 0) this.#finish(success);
  }

  reject(plugin: string, message: string): void {
    if (this.#done) return;
    this.#finish(withPlugin(unschedulable(message), plugin));
  }

  #finish(status: Status): void {
    this.#done = true;
    this.#timers.abort();
    this.#settle(status);
  }
}

/** The waiting pods of one profile, by uid. */
export class WaitingPods {
  readonly #pods = new Map<string, WaitingPodImpl>();

  add(pod: WaitingPodImpl): void {
    this.#pods.set(pod.uid, pod);
  }

  remove(uid: string): void {
    this.#pods.delete(uid);
  }

  get(uid: string): WaitingPodImpl | undefined {
    return this.#pods.get(uid);
  }

  forEach(fn: (pod: WaitingPod) => void): void {
    for (const pod of [...this.#pods.values()]) fn(pod);
  }

  get size(): number {
    return this.#pods.size;
  }
}
