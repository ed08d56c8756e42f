import { type KubeObject, objectKeyOf } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** Computes the values an object is indexed under (none, one or several). Must be pure. */
export type IndexFunc<T extends KubeObject> = (object: DeepReadonly<T>) => readonly string[];

/** Named index functions. */
export type Indexers<T extends KubeObject> = Readonly<Record<string, IndexFunc<T>>>;

/** The built-in index every informer has: objects by `metadata.namespace` ("" when cluster-scoped). */
export const namespaceIndex = "namespace";

/** Indexes an object under its namespace. */
export function namespaceIndexFunc(object: DeepReadonly<KubeObject>): readonly string[] {
  return [object.metadata.namespace ?? ""];
}

/** The store key of an object: `namespace/name`, or `name` when it has no namespace. */
export function keyOf(object: DeepReadonly<KubeObject>): string {
  return objectKeyOf(object as KubeObject);
}

/**
 * A read-only view of an informer's store: objects by key and by index value. Objects are frozen
 * and shared: never mutate them (`structuredClone` first). Lists come in no particular order.
 */
export interface Indexer<T extends KubeObject> {
  /** The object stored under `namespace/name` (or `name`). */
  get(key: string): DeepReadonly<T> | undefined;
  list(): DeepReadonly<T>[];
  listKeys(): string[];
  /** Objects whose index function `indexName` returned `value`. RangeError for an unknown index. */
  byIndex(indexName: string, value: string): DeepReadonly<T>[];
  /** The keys of those objects. */
  indexKeys(indexName: string, value: string): string[];
  readonly size: number;
}

/**
 * The store behind an informer. Only its informer writes to it, from one event at a time on the
 * event loop, so readers always see a consistent state between events (thread-safe by
 * construction). Exposed to everyone else as an `Indexer`.
 */
export class Store<T extends KubeObject> implements Indexer<T> {
  readonly #items = new Map<string, DeepReadonly<T>>();
  readonly #indexers = new Map<string, IndexFunc<T>>();
  /** index name → value → keys */
  readonly #indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Indexers<T> = {}) {
    this.addIndexers({ [namespaceIndex]: namespaceIndexFunc, ...indexers });
  }

  get size(): number {
    return this.#items.size;
  }

  /** Adds index functions and indexes what is already stored. A name in use is a TypeError. */
  addIndexers(indexers: Indexers<T>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.#indexers.has(name)) {
        throw new TypeError(`Cannot add indexer ${JSON.stringify(name)}: it already exists`);
      }
      this.#indexers.set(name, fn);
      const index = new Map<string, Set<string>>();
      this.#indices.set(name, index);
      for (const [key, object] of this.#items) addToIndex(index, fn(object), key);
    }
  }

  get(key: string): DeepReadonly<T> | undefined {
    return this.#items.get(key);
  }

  list(): DeepReadonly<T>[] {
    return [...this.#items.values()];
  }

  listKeys(): string[] {
    return [...this.#items.keys()];
  }

  byIndex(indexName: string, value: string): DeepReadonly<T>[] {
    const objects: DeepReadonly<T>[] = [];
    for (const key of this.indexKeys(indexName, value)) {
      const object = this.#items.get(key);
      if (object !== undefined) objects.push(object);
    }
    return objects;
  }

  indexKeys(indexName: string, value: string): string[] {
    const index = this.#indices.get(indexName);
    if (index === undefined) {
      throw new RangeError(`Cannot read index ${JSON.stringify(indexName)}: it does not exist`);
    }
    return [...(index.get(value) ?? [])];
  }

  /** Inserts or replaces the object under its key; returns what was there before. */
  upsert(object: DeepReadonly<T>): DeepReadonly<T> | undefined {
    const key = keyOf(object);
    const old = this.#items.get(key);
    if (old !== undefined) this.#unindex(key, old);
    this.#items.set(key, object);
    this.#index(key, object);
    return old;
  }

  /** Removes the object under `key`; returns it, or undefined when there was none. */
  delete(key: string): DeepReadonly<T> | undefined {
    const old = this.#items.get(key);
    if (old === undefined) return undefined;
    this.#unindex(key, old);
    this.#items.delete(key);
    return old;
  }

  /** Replaces the whole content. */
  replace(objects: readonly DeepReadonly<T>[]): void {
    this.#items.clear();
    for (const index of this.#indices.values()) index.clear();
    for (const object of objects) this.upsert(object);
  }

  #index(key: string, object: DeepReadonly<T>): void {
    for (const [name, fn] of this.#indexers) {
      const index = this.#indices.get(name);
      if (index !== undefined) addToIndex(index, fn(object), key);
    }
  }

  #unindex(key: string, object: DeepReadonly<T>): void {
    for (const [name, fn] of this.#indexers) {
      const index = this.#indices.get(name);
      if (index === undefined) continue;
      for (const value of fn(object)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }
}

function addToIndex(index: Map<string, Set<string>>, values: readonly string[], key: string): void {
  for (const value of values) {
    let keys = index.get(value);
    if (keys === undefined) {
      keys = new Set();
      index.set(value, keys);
    }
    keys.add(key);
  }
}
