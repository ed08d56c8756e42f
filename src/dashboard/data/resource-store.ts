/**
 * One resource's objects as the API server last told them: a map from `namespace/name` to the
 * object, the resourceVersion of that state, and listeners told after every change. A list
 * replaces everything; watch events add, change or remove one object. Objects are stored as
 * decoded and never mutated.
 */

/** What every stored object has. */
export interface StoredObject {
  readonly metadata: {
    readonly name?: string;
    readonly namespace?: string;
    readonly resourceVersion?: string;
  };
}

/** Where a store stands: still loading, in sync with the server, or failing (and retrying). */
export type StoreState =
  | { readonly kind: "loading" }
  | { readonly kind: "synced" }
  | { readonly kind: "failing"; readonly message: string };

/** The key a store files an object under: `namespace/name`, or `name` for cluster objects. */
export function keyOf(object: StoredObject): string {
  const ns = object.metadata.namespace ?? "";
  return ns === "" ? (object.metadata.name ?? "") : `${ns}/${object.metadata.name ?? ""}`;
}

export class ResourceStore<T extends StoredObject> {
  readonly resource: string;
  readonly #objects = new Map<string, T>();
  readonly #listeners = new Set<() => void>();
  #items: readonly T[] | undefined;
  #resourceVersion: string | undefined;
  #state: StoreState = { kind: "loading" };
  /** Bumped on every change: views compare it to skip recomputing. */
  #generation = 0;

  constructor(resource: string) {
    this.resource = resource;
  }

  get generation(): number {
    return this.#generation;
  }

  get state(): StoreState {
    return this.#state;
  }

  /** The resourceVersion to resume a watch from; undefined before the first list. */
  get resourceVersion(): string | undefined {
    return this.#resourceVersion;
  }

  /** Every object, sorted by key; the same array until the next change. */
  items(): readonly T[] {
    this.#items ??= [...this.#objects.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, object]) => object);
    return this.#items;
  }

  get(key: string): T | undefined {
    return this.#objects.get(key);
  }

  get size(): number {
    return this.#objects.size;
  }

  /** Calls `listener` after each change; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A list result: the whole state at `resourceVersion`. */
  replace(items: readonly T[], resourceVersion: string): void {
    this.#objects.clear();
    for (const item of items) this.#objects.set(keyOf(item), item);
    this.#resourceVersion = resourceVersion;
    this.#state = { kind: "synced" };
    this.#changed();
  }

  /** An ADDED or MODIFIED event. */
  upsert(object: T): void {
    this.#objects.set(keyOf(object), object);
    this.#resourceVersion = object.metadata.resourceVersion ?? this.#resourceVersion;
    this.#changed();
  }

  /** A DELETED event. */
  remove(object: T): void {
    this.#objects.delete(keyOf(object));
    this.#resourceVersion = object.metadata.resourceVersion ?? this.#resourceVersion;
    this.#changed();
  }

  /** A BOOKMARK: the state is current at `resourceVersion`, nothing changed. */
  bookmark(resourceVersion: string): void {
    this.#resourceVersion = resourceVersion;
  }

  /** Forgets the resume point, so the next sync lists again (after a 410 Gone). */
  expire(): void {
    this.#resourceVersion = undefined;
  }

  setState(state: StoreState): void {
    if (state.kind === this.#state.kind && !("message" in state)) return;
    this.#state = state;
    this.#notify();
  }

  #changed(): void {
    this.#items = undefined;
    this.#generation++;
    this.#notify();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
