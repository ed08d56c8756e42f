/**
 * The event correlator of client-go's tools/record (events_cache.go), which keeps components
 * from flooding the API with events. In order, for each new event:
 * 1. aggregation: once 10 events differing only in message are seen for the same source,
 *    object, type and reason within 10 minutes, they are recorded as one event whose message
 *    starts "(combined from similar events): ";
 * 2. deduplication: an event seen before (same source, object, field path, type, reason and
 *    message) bumps `count` and `lastTimestamp` of the first one instead of making a new one;
 * 3. spam filtering: each source may record 25 events about one object, then one more every
 *    5 minutes (a token bucket per source and object); the rest are skipped.
 * Pure apart from the injected clock; not thread-safe (nor needs to be).
 */
import type { Event } from "../../api/index.ts";
import { type Clock, rfc3339 } from "../../util/index.ts";

/** Tunables, upstream's `CorrelatorOptions` with their defaults. */
export interface CorrelatorOptions {
  /** Entries of each LRU cache. @default 4096 */
  readonly lruCacheSize?: number;
  /** Events a source may record about one object at once. @default 25 */
  readonly burst?: number;
  /** Refill of that budget, events per second. @default 1/300 */
  readonly qps?: number;
  /** Distinct messages of similar events before they are combined. @default 10 */
  readonly maxEvents?: number;
  /** Quiet time after which similar events count afresh. @default 600 */
  readonly maxIntervalSeconds?: number;
}

/** What to write for a correlated event. */
export type CorrelateResult =
  | { readonly skip: true }
  | {
      readonly skip: false;
      /** The event to write: a new one, or an earlier one with its count bumped. */
      readonly event: Event;
      /** The key writes of the same event share (later ones supersede earlier ones). */
      readonly key: string;
      /** The event exists on the server already: patch count, lastTimestamp and message. */
      readonly patch: boolean;
    };

/** A least-recently-used map of bounded size. */
class Lru<V> {
  readonly #map = new Map<string, V>();
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  get(key: string): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.#size) {
      const oldest = this.#map.keys().next().value;
      if (oldest === undefined) break;
      this.#map.delete(oldest);
    }
  }
}

const join = (parts: readonly (string | undefined)[]): string =>
  parts.map((p) => p ?? "").join("\u0000");

/** `getEventKey`: source, object (with field path), type, reason and message. */
export function eventKey(event: Event): string {
  const o = event.involvedObject;
  return join([
    event.source?.component,
    event.source?.host,
    o.kind,
    o.namespace,
    o.name,
    o.fieldPath,
    o.uid,
    o.apiVersion,
    event.type,
    event.reason,
    event.message,
  ]);
}

/** `getSpamKey`: source and object. */
function spamKey(event: Event): string {
  const o = event.involvedObject;
  return join([
    event.source?.component,
    event.source?.host,
    o.kind,
    o.namespace,
    o.name,
    o.uid,
    o.apiVersion,
  ]);
}

/** `EventAggregatorByReasonFunc`: the group key, and the message telling members apart. */
function aggregateKeyOf(event: Event): { aggregate: string; local: string } {
  const o = event.involvedObject;
  return {
    aggregate: join([
      event.source?.component,
      event.source?.host,
      o.kind,
      o.namespace,
      o.name,
      o.uid,
      o.apiVersion,
      event.type,
      event.reason,
      event.reportingComponent,
      event.reportingInstance,
    ]),
    local: event.message ?? "",
  };
}

/** The message prefix of combined events (`EventAggregatorByReasonMessageFunc`). */
export const combinedMessagePrefix = "(combined from similar events): ";

interface AggregateRecord {
  readonly localKeys: Set<string>;
  lastMs: number;
}

interface Observation {
  readonly count: number;
  readonly firstTimestamp: string;
  readonly name: string;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

/** Upstream's `EventCorrelator` with its default policies. */
export class EventCorrelator {
  readonly #clock: Clock;
  readonly #burst: number;
  readonly #qps: number;
  readonly #maxEvents: number;
  readonly #maxIntervalMs: number;
  readonly #aggregates: Lru<AggregateRecord>;
  readonly #observations: Lru<Observation>;
  readonly #buckets: Lru<Bucket>;
  #sequence = 0;

  constructor(clock: Clock, options: CorrelatorOptions = {}) {
    const size = options.lruCacheSize ?? 4096;
    this.#clock = clock;
    this.#burst = options.burst ?? 25;
    this.#qps = options.qps ?? 1 / 300;
    this.#maxEvents = options.maxEvents ?? 10;
    this.#maxIntervalMs = (options.maxIntervalSeconds ?? 600) * 1000;
    this.#aggregates = new Lru(size);
    this.#observations = new Lru(size);
    this.#buckets = new Lru(size);
  }

  /** A name for a new event about `objectName`: `<name>.<UnixNano in hex>`, unique here. */
  eventName(objectName: string, now: Date): string {
    // The clock has millisecond precision: a per-correlator sequence fills the nanoseconds.
    const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(this.#sequence++ % 1_000_000);
    return `${objectName}.${nanos.toString(16)}`;
  }

  /** Correlates `event` (a new event as a recorder makes it); does not modify it. */
  correlate(event: Event): CorrelateResult {
    const now = this.#clock.now();
    const { event: aggregated, key } = this.#aggregate(event, now);
    const observed = this.#observe(aggregated, key);
    // client-go's EventCorrelateResult.Skip: the spam filter drops this event (not a test skip).
    if (this.#isSpam(observed.event, now.getTime())) return { skip: true };
    return { skip: false, event: observed.event, key, patch: observed.patch };
  }

  /** `EventAggregate`. */
  #aggregate(event: Event, now: Date): { event: Event; key: string } {
    const nowMs = now.getTime();
    const { aggregate, local } = aggregateKeyOf(event);
    let record = this.#aggregates.get(aggregate);
    if (record === undefined || nowMs - record.lastMs > this.#maxIntervalMs) {
      record = { localKeys: new Set(), lastMs: nowMs };
    }
    record.localKeys.add(local);
    record.lastMs = nowMs;
    this.#aggregates.set(aggregate, record);
    if (record.localKeys.size < this.#maxEvents) return { event, key: eventKey(event) };
    // Do not let the set grow past the maximum.
    const first = record.localKeys.values().next().value;
    if (first !== undefined) record.localKeys.delete(first);
    const time = rfc3339(now);
    const combined: Event = {
      apiVersion: "v1",
      kind: "Event",
      metadata: {
        name: this.eventName(event.involvedObject.name ?? "", now),
        namespace: event.metadata.namespace ?? "",
      },
      involvedObject: { ...event.involvedObject },
      reason: event.reason ?? "",
      message: `${combinedMessagePrefix}${event.message ?? ""}`,
      source: { ...event.source },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      type: event.type ?? "",
      eventTime: null,
    };
    return { event: combined, key: aggregate };
  }

  /** `eventObserve`: a repeat takes the first one's name and first timestamp, count + 1. */
  #observe(event: Event, key: string): { event: Event; patch: boolean } {
    const last = this.#observations.get(key);
    let observed = event;
    if (last !== undefined && last.count > 0) {
      observed = {
        ...event,
        metadata: { ...event.metadata, name: last.name },
        firstTimestamp: last.firstTimestamp,
        count: last.count + 1,
      };
    }
    this.#observations.set(key, {
      count: observed.count ?? 1,
      firstTimestamp: observed.firstTimestamp ?? "",
      name: observed.metadata.name ?? "",
    });
    return { event: observed, patch: observed !== event };
  }

  /** `EventSourceObjectSpamFilter.Filter`: true when the source spent its budget for the object. */
  #isSpam(event: Event, nowMs: number): boolean {
    const key = spamKey(event);
    const bucket = this.#buckets.get(key) ?? { tokens: this.#burst, atMs: nowMs };
    bucket.tokens = Math.min(
      this.#burst,
      bucket.tokens + (Math.max(0, nowMs - bucket.atMs) / 1000) * this.#qps,
    );
    bucket.atMs = nowMs;
    const spam = bucket.tokens < 1;
    if (!spam) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    return spam;
  }
}
