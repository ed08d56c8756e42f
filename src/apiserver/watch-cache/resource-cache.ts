import { SortedKeys } from "../../util/index.ts";
import type { CachedObject } from "./cached-object.ts";

/** A change to one object, as watchers receive it. */
export interface CacheEvent {
  readonly type: "ADDED" | "MODIFIED" | "DELETED";
  /** The new state; for DELETED, the last state carrying the deletion's resourceVersion. */
  readonly object: CachedObject;
  /** The state before this change, if the object existed. */
  readonly prev: CachedObject | undefined;
  readonly revision: number;
}

/** What a watcher wants: a namespace (or all), and a predicate on objects. */
export interface WatchFilter {
  readonly namespace: string;
  readonly matches: (object: CachedObject) => boolean;
}

/** Receives events for one watch. */
export interface WatchSink {
  /** Called in revision order. Must not throw. */
  deliver(event: CacheEvent): void;
  /**
   * Ends the watch because the cache was rebuilt from a fresh list (it fell behind storage's
   * compaction): the watcher is dropped, and a client that watches again from its last
   * resourceVersion gets 410 Expired and re-lists, as upstream's cacher makes it. A sink without
   * `terminate` stays subscribed and receives the difference as events instead. Must not throw.
   */
  terminate?(): void;
}

interface Watcher {
  readonly filter: WatchFilter;
  readonly sink: WatchSink;
}

/**
 * The values an object is indexed under (none, one or several). Must be pure: it is called
 * again with the same object when the object changes or goes.
 */
export type CacheIndexFunc = (object: CachedObject) => readonly string[];

export interface ResourceCacheOptions {
  /** How many recent events are kept for watches that resume from a resourceVersion. */
  readonly historySize: number;
  /** Named indexes kept beside the objects (see `byIndex`). @default none */
  readonly indexes?: Readonly<Record<string, CacheIndexFunc>>;
}

/**
 * The current objects of one resource, in key order, plus a window of recent events. Fed in
 * revision order by the WatchCache; read by lists and watches.
 */
export class ResourceCache {
  readonly #items = new Map<string, CachedObject>();
  /** The keys in order, in chunks: a sorted array would move every later key on each insert. */
  #sortedKeys = new SortedKeys();
  #sortedDirty = false;
  readonly #history: CacheEvent[] = [];
  #historyHead = 0;
  #historyStart: number;
  readonly #watchers = new Set<Watcher>();
  readonly #historySize: number;
  readonly #indexFuncs = new Map<string, CacheIndexFunc>();
  /** index name → value → key → object */
  readonly #indexes = new Map<string, Map<string, Map<string, CachedObject>>>();

  constructor(historyStart: number, options: ResourceCacheOptions) {
    this.#historyStart = historyStart;
    this.#historySize = options.historySize;
    for (const [name, fn] of Object.entries(options.indexes ?? {})) {
      this.#indexFuncs.set(name, fn);
      this.#indexes.set(name, new Map());
    }
  }

  /** Events after this revision are all still in history. */
  get historyStart(): number {
    return this.#historyStart;
  }

  get size(): number {
    return this.#items.size;
  }

  get(key: string): CachedObject | undefined {
    return this.#items.get(key);
  }

  /**
   * The current objects the index `name` files under `value`, in no particular order. A
   * RangeError for an index the cache was not made with.
   */
  byIndex(name: string, value: string): CachedObject[] {
    const index = this.#indexes.get(name);
    if (index === undefined) {
      throw new RangeError(`Cannot read index ${JSON.stringify(name)}: it does not exist`);
    }
    return [...(index.get(value)?.values() ?? [])];
  }

  /** Loads an object present at the cache's start (no event). */
  seed(object: CachedObject): void {
    const prev = this.#items.get(object.key);
    if (prev !== undefined) this.#unindex(prev);
    this.#items.set(object.key, object);
    this.#index(object);
    this.#sortedDirty = true;
  }

  /** Applies a put. */
  put(object: CachedObject): void {
    const prev = this.#items.get(object.key);
    this.#items.set(object.key, object);
    if (prev !== undefined) this.#unindex(prev);
    this.#index(object);
    if (prev === undefined) this.#insertKey(object.key);
    this.#record({
      type: prev === undefined ? "ADDED" : "MODIFIED",
      object,
      prev,
      revision: object.revision,
    });
  }

  /** Applies a delete; `last` is the final state carrying the deletion revision. */
  delete(last: CachedObject): void {
    const prev = this.#items.get(last.key);
    if (prev === undefined) return;
    this.#items.delete(last.key);
    this.#unindex(prev);
    this.#removeKey(last.key);
    this.#record({ type: "DELETED", object: last, prev, revision: last.revision });
  }

  /**
   * Replaces every object with `objects`, a fresh list of storage at `revision`, after the
   * cache missed events it can no longer replay. History restarts at `revision`. Watchers whose
   * sink can `terminate` are ended; the others receive what changed as ADDED, MODIFIED and
   * DELETED events at `revision`.
   */
  replace(objects: readonly CachedObject[], revision: number): void {
    const events: CacheEvent[] = [];
    const fresh = new Map(objects.map((object) => [object.key, object]));
    for (const [key, prev] of this.#items) {
      if (!fresh.has(key)) events.push({ type: "DELETED", object: prev, prev, revision });
    }
    for (const object of objects) {
      const prev = this.#items.get(object.key);
      if (prev === undefined) events.push({ type: "ADDED", object, prev, revision });
      else if (prev.revision !== object.revision) {
        events.push({ type: "MODIFIED", object, prev, revision });
      }
    }
    this.#items.clear();
    for (const index of this.#indexes.values()) index.clear();
    for (const object of objects) this.seed(object);
    this.#history.length = 0;
    this.#historyHead = 0;
    this.#historyStart = revision;
    for (const watcher of [...this.#watchers]) {
      if (watcher.sink.terminate !== undefined) {
        this.#watchers.delete(watcher);
        watcher.sink.terminate();
      } else {
        for (const event of events) deliverFiltered(watcher, event);
      }
    }
  }

  /** Objects under `namespace` (all when empty), in key order, from `startKey` on. */
  *list(namespace: string, startKey?: string): Generator<CachedObject> {
    for (const key of this.#keys().from(startKey ?? "")) {
      const object = this.#items.get(key);
      if (object === undefined) continue;
      if (namespace !== "" && object.namespace !== namespace) {
        if (object.namespace > namespace) return;
        continue;
      }
      yield object;
    }
  }

  /**
   * Starts a watch: replays history events after `after` (which must be ≥ historyStart), then
   * delivers live events. Returns the function that stops the watch.
   */
  watch(after: number, filter: WatchFilter, sink: WatchSink): () => void {
    const watcher: Watcher = { filter, sink };
    for (const event of this.#eventsAfter(after)) deliverFiltered(watcher, event);
    this.#watchers.add(watcher);
    return () => {
      this.#watchers.delete(watcher);
    };
  }

  /** Synthetic ADDED events for every current object that matches, for watches from "0". */
  *initialEvents(filter: WatchFilter): Generator<CacheEvent> {
    for (const object of this.list(filter.namespace)) {
      if (filter.matches(object)) {
        yield { type: "ADDED", object, prev: undefined, revision: object.revision };
      }
    }
  }

  get watcherCount(): number {
    return this.#watchers.size;
  }

  #index(object: CachedObject): void {
    for (const [name, fn] of this.#indexFuncs) {
      const index = this.#indexes.get(name);
      if (index === undefined) continue;
      for (const value of fn(object)) {
        let objects = index.get(value);
        if (objects === undefined) {
          objects = new Map();
          index.set(value, objects);
        }
        objects.set(object.key, object);
      }
    }
  }

  #unindex(object: CachedObject): void {
    for (const [name, fn] of this.#indexFuncs) {
      const index = this.#indexes.get(name);
      if (index === undefined) continue;
      for (const value of fn(object)) {
        const objects = index.get(value);
        objects?.delete(object.key);
        if (objects?.size === 0) index.delete(value);
      }
    }
  }

  #record(event: CacheEvent): void {
    if (this.#history.length - this.#historyHead >= this.#historySize) {
      const dropped = this.#history[this.#historyHead];
      this.#historyHead++;
      if (dropped !== undefined) this.#historyStart = dropped.revision;
      if (this.#historyHead > 4096 && this.#historyHead * 2 > this.#history.length) {
        this.#history.splice(0, this.#historyHead);
        this.#historyHead = 0;
      }
    }
    this.#history.push(event);
    for (const watcher of this.#watchers) deliverFiltered(watcher, event);
  }

  *#eventsAfter(after: number): Generator<CacheEvent> {
    // History is in revision order: find the first event past `after` by binary search.
    let lo = this.#historyHead;
    let hi = this.#history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#history[mid]?.revision ?? 0) <= after) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.#history.length; i++) {
      const event = this.#history[i];
      if (event !== undefined) yield event;
    }
  }

  #keys(): SortedKeys {
    if (this.#sortedDirty) {
      this.#sortedKeys = SortedKeys.fromSorted([...this.#items.keys()].sort(compareKeys));
      this.#sortedDirty = false;
    }
    return this.#sortedKeys;
  }

  #insertKey(key: string): void {
    if (!this.#sortedDirty) this.#sortedKeys.add(key);
  }

  #removeKey(key: string): void {
    if (!this.#sortedDirty) this.#sortedKeys.delete(key);
  }
}

/** Turns a change into what one filtered watcher sees, including selector transitions. */
function deliverFiltered(watcher: Watcher, event: CacheEvent): void {
  const { namespace, matches } = watcher.filter;
  if (namespace !== "" && event.object.namespace !== namespace) return;
  const prevMatches = event.prev !== undefined && matches(event.prev);
  if (event.type === "DELETED") {
    if (prevMatches) watcher.sink.deliver(event);
    return;
  }
  const curMatches = matches(event.object);
  if (curMatches) {
    // Usually the watcher sees the change as it is (the same event object for every watcher);
    // a selector it starts or stops matching turns it into ADDED or DELETED.
    const type = prevMatches ? "MODIFIED" : "ADDED";
    watcher.sink.deliver(event.type === type ? event : { ...event, type });
  } else if (prevMatches && event.prev !== undefined) {
    // The object left the selection: upstream's watch cache sends DELETED with the new revision.
    watcher.sink.deliver({ ...event, type: "DELETED" });
  }
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
