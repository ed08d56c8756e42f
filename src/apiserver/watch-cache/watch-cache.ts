import { type Storage, StorageError, type WatchEvent } from "../../storage/index.ts";
import type { Logger } from "../../util/index.ts";
import { type CachedObject, newCachedObject } from "./cached-object.ts";
import { type CacheIndexFunc, ResourceCache } from "./resource-cache.ts";

interface Waiter {
  readonly revision: number;
  readonly resolve: () => void;
}

export interface WatchCacheOptions {
  /** The storage prefix everything lives under. @default "/registry/" */
  readonly root?: string;
  /** Recent events kept per resource for resuming watches. @default 10000 */
  readonly historySize?: number;
  /**
   * Indexes per resource segment (`pods`, `deployments.apps`): name → index function, kept by
   * that resource's cache for `ResourceCache.byIndex`. @default none
   */
  readonly indexes?: Readonly<Record<string, Readonly<Record<string, CacheIndexFunc>>>>;
}

/**
 * An in-memory replica of everything under the storage root, kept current by one storage watch
 * and split per resource (the key segment after the root: `pods`, `deployments.apps`). Lists and
 * watches are served from here; writes go to storage and come back through the watch.
 */
export class WatchCache {
  readonly #storage: Storage;
  readonly #logger: Logger;
  readonly #root: string;
  readonly #historySize: number;
  readonly #indexes: Readonly<Record<string, Readonly<Record<string, CacheIndexFunc>>>>;
  readonly #resources = new Map<string, ResourceCache>();
  #revision = 0;
  #startRevision = 0;
  #waiters: Waiter[] = [];
  #failure: Error | undefined;

  constructor(storage: Storage, logger: Logger, options: WatchCacheOptions = {}) {
    this.#storage = storage;
    this.#logger = logger;
    this.#root = options.root ?? "/registry/";
    this.#historySize = options.historySize ?? 10_000;
    this.#indexes = options.indexes ?? {};
  }

  /** The latest revision applied. */
  get revision(): number {
    return this.#revision;
  }

  /**
   * Loads the current state, then follows storage until `signal` aborts. Resolves `ready` once
   * loaded; the returned promise settles when the watch ends.
   */
  async start(signal: AbortSignal, ready: () => void): Promise<void> {
    const snapshot = await this.#storage.list(this.#root);
    this.#startRevision = snapshot.revision;
    this.#revision = snapshot.revision;
    for (const item of snapshot.items) {
      this.resource(segmentOf(item.key, this.#root)).seed(
        newCachedObject(item.key, item.value, item.revision),
      );
    }
    ready();
    try {
      await this.#follow(snapshot.revision, signal);
    } catch (error: unknown) {
      if (!signal.aborted) {
        this.#failure = error instanceof Error ? error : new Error(String(error));
        this.#logger.error("Watch cache stopped following storage", { error: this.#failure });
        throw this.#failure;
      }
    } finally {
      for (const waiter of this.#waiters) waiter.resolve();
      this.#waiters = [];
    }
  }

  /**
   * Applies storage's changes after `revision` until `signal` aborts. When storage has compacted
   * past the cache's revision (etcd was unreachable while the history was compacted), the
   * events in between are gone: the cache re-lists and carries on from the fresh list, as
   * upstream's cacher re-lists when its reflector's watch gets "too old resource version".
   */
  async #follow(revision: number, signal: AbortSignal): Promise<void> {
    let from = revision;
    for (;;) {
      try {
        for await (const event of this.#storage.watch(this.#root, from, signal)) {
          this.#apply(event);
        }
        return;
      } catch (error: unknown) {
        if (signal.aborted || !(error instanceof StorageError) || error.reason !== "Compacted") {
          throw error;
        }
        this.#logger.info("Watch cache fell behind storage compaction; re-listing", {
          revision: this.#revision,
        });
        from = await this.#relist();
      }
    }
  }

  /** Rebuilds every resource's cache from a fresh list; returns the list's revision. */
  async #relist(): Promise<number> {
    const snapshot = await this.#storage.list(this.#root);
    const bySegment = new Map<string, CachedObject[]>();
    for (const item of snapshot.items) {
      const segment = segmentOf(item.key, this.#root);
      let objects = bySegment.get(segment);
      if (objects === undefined) {
        objects = [];
        bySegment.set(segment, objects);
      }
      objects.push(newCachedObject(item.key, item.value, item.revision));
    }
    for (const segment of bySegment.keys()) this.resource(segment);
    for (const [segment, cache] of this.#resources) {
      cache.replace(bySegment.get(segment) ?? [], snapshot.revision);
    }
    this.#advance(snapshot.revision);
    return snapshot.revision;
  }

  /** The cache of one resource segment (`pods`, `deployments.apps`), created on first use. */
  resource(segment: string): ResourceCache {
    let cache = this.#resources.get(segment);
    if (cache === undefined) {
      const indexes = this.#indexes[segment];
      cache = new ResourceCache(this.#startRevision, {
        historySize: this.#historySize,
        ...(indexes === undefined ? {} : { indexes }),
      });
      this.#resources.set(segment, cache);
    }
    return cache;
  }

  /**
   * The latest object at `key` the cache holds, which may be behind storage: what updates and
   * deletes start from (upstream's cacher passes its copy to every GuaranteedUpdate). Nothing
   * once the cache has stopped following storage.
   */
  current(key: string): CachedObject | undefined {
    if (this.#failure !== undefined) return undefined;
    return this.#resources.get(segmentOf(key, this.#root))?.get(key);
  }

  /** Resolves once every write up to `revision` has been applied (or the cache has stopped). */
  waitFor(revision: number): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#revision >= revision) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiters.push({ revision, resolve });
    });
  }

  /** Waits until the cache holds everything storage has acknowledged so far. */
  async waitUntilFresh(): Promise<void> {
    await this.waitFor(await this.#storage.currentRevision());
  }

  #apply(event: WatchEvent): void {
    const segment = segmentOf(event.key, this.#root);
    const cache = this.resource(segment);
    if (event.type === "put") {
      cache.put(newCachedObject(event.key, event.value, event.revision, event.text));
    } else {
      cache.delete(newCachedObject(event.key, event.prevValue, event.revision));
    }
    this.#advance(event.revision);
  }

  /** Records that everything up to `revision` is applied and wakes who waited for it. */
  #advance(revision: number): void {
    this.#revision = revision;
    if (this.#waiters.length > 0) {
      const still: Waiter[] = [];
      for (const waiter of this.#waiters) {
        if (waiter.revision <= this.#revision) waiter.resolve();
        else still.push(waiter);
      }
      this.#waiters = still;
    }
  }
}

/** `/registry/deployments.apps/ns/name` → `deployments.apps`. */
function segmentOf(key: string, root: string): string {
  const rest = key.slice(root.length);
  const slash = rest.indexOf("/");
  return slash < 0 ? rest : rest.slice(0, slash);
}
