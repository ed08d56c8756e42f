/**
 * Records core/v1 Events through the API, as the scheduler's `FailedScheduling`, `Scheduled` and
 * `Preempted` events. Repeats of the same event (same object, type, reason and message) within
 * ten minutes bump `count` and `lastTimestamp` of the first one instead of creating another,
 * like client-go's event correlator, so a pod retried every few seconds does not flood the API.
 */
import type { Event, KubeObject } from "../api/index.ts";
import { type Client, eventsResource, isNotFound } from "../client/index.ts";
import { type Clock, type DeepReadonly, type Logger, rfc3339 } from "../util/index.ts";
import type { ConcurrencyLimit } from "./concurrency-limit.ts";
import type { EventRecorder } from "./framework/index.ts";

/** Longer messages are cut to this many characters (upstream's note length limit). */
export const eventMessageLimit = 1024;
const seriesWindowMs = 10 * 60 * 1000;
const defaultMaxSeries = 4096;

export interface ApiEventRecorderOptions {
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
  /** `source.component` and `reportingComponent`. @default "default-scheduler" */
  readonly component?: string;
  /** `reportingInstance`. @default the component */
  readonly instance?: string;
  /** Bounds the event writes in flight (shared by recorders). @default unbounded */
  readonly limit?: ConcurrencyLimit;
  /**
   * With `limit`: a new event is dropped (and logged at verbosity 2) while this many writes wait
   * for a turn, as client-go's broadcaster drops events once its queue of 1,000 is full.
   * @default 1000
   */
  readonly maxQueued?: number;
  /** Series remembered for repeats; the oldest go first once full. @default 4096 */
  readonly maxSeries?: number;
}

interface Series {
  readonly name: string;
  readonly namespace: string;
  count: number;
  lastSeen: number;
  /** Serializes the writes of one series. */
  pending: Promise<void>;
}

/** Cuts `message` to the limit, ending with " ..." as upstream. */
export function truncateMessage(message: string, limit = eventMessageLimit): string {
  if (message.length <= limit) return message;
  return `${message.slice(0, limit - 4)} ...`;
}

export class ApiEventRecorder implements EventRecorder {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #component: string;
  readonly #instance: string;
  readonly #limit: ConcurrencyLimit | undefined;
  readonly #maxQueued: number;
  readonly #maxSeries: number;
  readonly #series = new Map<string, Series>();
  readonly #inFlight = new Set<Promise<void>>();
  #seq = 0;

  constructor(options: ApiEventRecorderOptions) {
    this.#client = options.client;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#component = options.component ?? "default-scheduler";
    this.#instance = options.instance ?? this.#component;
    this.#limit = options.limit;
    this.#maxQueued = options.maxQueued ?? 1000;
    this.#maxSeries = options.maxSeries ?? defaultMaxSeries;
  }

  #write<T>(call: () => Promise<T>): Promise<T> {
    return this.#limit === undefined ? call() : this.#limit.run(call);
  }

  event(
    regarding: DeepReadonly<KubeObject>,
    type: "Normal" | "Warning",
    reason: string,
    action: string,
    message: string,
  ): void {
    if (this.#limit?.closed === true) return;
    if (this.#limit !== undefined && this.#limit.waiting >= this.#maxQueued) {
      this.#logger.v(2).info("Dropping event: too many event writes waiting", {
        reason,
        object: regarding.metadata.name,
      });
      return;
    }
    const text = truncateMessage(message);
    const key = [regarding.metadata.uid ?? "", type, reason, text].join("\u0000");
    const now = this.#clock.now().getTime();
    const existing = this.#series.get(key);
    let work: Promise<void>;
    if (existing !== undefined && now - existing.lastSeen < seriesWindowMs) {
      existing.count++;
      existing.lastSeen = now;
      const count = existing.count;
      const bump = (): Promise<void> => this.#bump(existing, count, now);
      work = existing.pending.then(bump, bump);
      existing.pending = work;
    } else {
      if (this.#series.size >= this.#maxSeries) this.#evict(now);
      const series: Series = {
        name: this.#name(regarding, now),
        namespace: regarding.metadata.namespace ?? "default",
        count: 1,
        lastSeen: now,
        pending: Promise.resolve(),
      };
      work = this.#create(series, regarding, type, reason, action, text, now);
      series.pending = work;
      this.#series.set(key, series);
    }
    const tracked = work.catch((error: unknown) => {
      // Writes still waiting when the scheduler stopped are dropped on purpose.
      if (this.#limit?.closed === true) return;
      this.#logger.error("Cannot record event", { reason, object: regarding.metadata.name, error });
    });
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
  }

  /** Resolves once every event write started so far has finished. */
  async flush(): Promise<void> {
    await Promise.all([...this.#inFlight]);
  }

  #name(regarding: DeepReadonly<KubeObject>, now: number): string {
    this.#seq = (this.#seq + 1) % 1_000_000;
    const nanos = BigInt(now) * 1_000_000n + BigInt(this.#seq);
    return `${regarding.metadata.name ?? "object"}.${nanos.toString(16)}`;
  }

  /**
   * Makes room once the series are full: the expired ones go, then the oldest (a Map keeps
   * insertion order) until half the limit is left, so a scan happens once per `maxSeries / 2`
   * new series rather than on every new one.
   */
  #evict(now: number): void {
    for (const [key, series] of this.#series) {
      if (now - series.lastSeen >= seriesWindowMs) this.#series.delete(key);
    }
    for (const key of this.#series.keys()) {
      if (this.#series.size <= this.#maxSeries / 2) break;
      this.#series.delete(key);
    }
  }

  async #create(
    series: Series,
    regarding: DeepReadonly<KubeObject>,
    type: string,
    reason: string,
    action: string,
    message: string,
    now: number,
  ): Promise<void> {
    const time = rfc3339(new Date(now));
    const event: Event = {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: series.name, namespace: series.namespace },
      involvedObject: {
        kind: regarding.kind ?? "Pod",
        apiVersion: regarding.apiVersion ?? "v1",
        ...(regarding.metadata.namespace === undefined
          ? {}
          : { namespace: regarding.metadata.namespace }),
        ...(regarding.metadata.name === undefined ? {} : { name: regarding.metadata.name }),
        ...(regarding.metadata.uid === undefined ? {} : { uid: regarding.metadata.uid }),
        ...(regarding.metadata.resourceVersion === undefined
          ? {}
          : { resourceVersion: regarding.metadata.resourceVersion }),
      },
      reason,
      message,
      source: { component: this.#component },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      type,
      action,
      reportingComponent: this.#component,
      reportingInstance: this.#instance,
    };
    await this.#write(() => this.#client.create(eventsResource, event));
  }

  async #bump(series: Series, count: number, now: number): Promise<void> {
    try {
      await this.#write(() =>
        this.#client.patch(eventsResource, series.namespace, series.name, "merge", {
          count,
          lastTimestamp: rfc3339(new Date(now)),
        }),
      );
    } catch (error: unknown) {
      // The first event was never written or is gone: the next repeat starts a new series.
      if (!isNotFound(error)) throw error;
      series.lastSeen = 0;
    }
  }
}
