import type { Clock } from "../../util/index.ts";

/** Upstream's `ExpectationsTimeout`: expectations older than this count as satisfied. */
export const expectationsTimeoutMs = 5 * 60 * 1000;

export interface ExpectationsOptions {
  /** How long a record stays authoritative before it counts as satisfied. @default 300000 */
  readonly ttlMs?: number;
}

interface Record {
  adds: number;
  dels: number;
  /** Keys ("ns/name") of the objects whose deletion is awaited. */
  readonly deleting: Set<string>;
  readonly since: number;
}

/**
 * client-go's `UIDTrackingControllerExpectations` for one controller: the creations and deletions
 * a controller has asked for and not yet seen in its informer. While a controller key has
 * unobserved expectations, the controller must not act on its (stale) cache again, or it would
 * create or delete twice. Expectations are satisfied when every expected event has been
 * observed, when the record is older than the TTL (5 minutes, a watch may have dropped an
 * event), or when no record exists.
 *
 * Keys are the controller's workqueue keys ("ns/name"). Not safe across processes; one
 * instance belongs to one controller.
 */
export class Expectations {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #records = new Map<string, Record>();

  constructor(clock: Clock, options: ExpectationsOptions = {}) {
    this.#clock = clock;
    this.#ttlMs = options.ttlMs ?? expectationsTimeoutMs;
  }

  /** Replaces the record of `key`: `count` creations are now expected. */
  expectCreations(key: string, count: number): void {
    this.#records.set(key, {
      adds: count,
      dels: 0,
      deleting: new Set(),
      since: this.#clock.now().getTime(),
    });
  }

  /** Replaces the record of `key`: the objects named by `objectKeys` are expected to go. */
  expectDeletions(key: string, objectKeys: readonly string[]): void {
    this.#records.set(key, {
      adds: 0,
      dels: objectKeys.length,
      deleting: new Set(objectKeys),
      since: this.#clock.now().getTime(),
    });
  }

  /** An expected creation was seen (or will never happen because the request failed). */
  creationObserved(key: string): void {
    const record = this.#records.get(key);
    if (record !== undefined) record.adds--;
  }

  /**
   * The deletion of `objectKey` was seen (or the request failed). Counts only for objects this
   * controller expected to delete, once each: a pod seen first with a deletionTimestamp and
   * then as deleted is observed once.
   */
  deletionObserved(key: string, objectKey: string): void {
    const record = this.#records.get(key);
    if (record === undefined || !record.deleting.delete(objectKey)) return;
    record.dels--;
  }

  /** Whether the controller may trust its cache for `key` and act again. */
  satisfied(key: string): boolean {
    const record = this.#records.get(key);
    if (record === undefined) return true;
    if (record.adds <= 0 && record.dels <= 0) return true;
    return this.#clock.now().getTime() - record.since > this.#ttlMs;
  }

  /** What is still awaited for `key`; `undefined` without a record. For logs and tests. */
  pending(key: string): { creations: number; deletions: number } | undefined {
    const record = this.#records.get(key);
    if (record === undefined) return undefined;
    return { creations: Math.max(0, record.adds), deletions: Math.max(0, record.dels) };
  }

  /** Forgets `key`, when its controller object is gone. */
  delete(key: string): void {
    this.#records.delete(key);
  }
}
