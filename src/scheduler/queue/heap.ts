/**
 * A binary heap with keyed access (upstream's `backend/heap`): O(log n) push, pop, update and
 * delete by key, O(1) peek and lookup. `less(a, b)` puts `a` nearer the top.
 */
export class KeyedHeap<T> {
  readonly #items: T[] = [];
  readonly #index = new Map<string, number>();
  readonly #keyOf: (item: T) => string;
  readonly #less: (a: T, b: T) => boolean;

  constructor(keyOf: (item: T) => string, less: (a: T, b: T) => boolean) {
    this.#keyOf = keyOf;
    this.#less = less;
  }

  get size(): number {
    return this.#items.length;
  }

  has(key: string): boolean {
    return this.#index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.#index.get(key);
    return i === undefined ? undefined : this.#items[i];
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  /** Adds the item, or replaces the item with the same key and restores the order. */
  addOrUpdate(item: T): void {
    const key = this.#keyOf(item);
    const i = this.#index.get(key);
    if (i !== undefined) {
      this.#items[i] = item;
      this.#fix(i);
      return;
    }
    this.#items.push(item);
    const at = this.#items.length - 1;
    this.#index.set(key, at);
    this.#up(at);
  }

  pop(): T | undefined {
    const top = this.#items[0];
    if (top === undefined) return undefined;
    this.#removeAt(0);
    return top;
  }

  /** Removes the item with `key`; false when absent. */
  delete(key: string): boolean {
    const i = this.#index.get(key);
    if (i === undefined) return false;
    this.#removeAt(i);
    return true;
  }

  /** The items in heap order (not sorted). */
  list(): T[] {
    return this.#items.slice();
  }

  #removeAt(i: number): void {
    const last = this.#items.length - 1;
    const removed = this.#items[i] as T;
    this.#index.delete(this.#keyOf(removed));
    if (i !== last) {
      const moved = this.#items[last] as T;
      this.#items[i] = moved;
      this.#index.set(this.#keyOf(moved), i);
    }
    this.#items.pop();
    if (i < this.#items.length) this.#fix(i);
  }

  #fix(i: number): void {
    if (!this.#down(i)) this.#up(i);
  }

  #swap(i: number, j: number): void {
    const a = this.#items[i] as T;
    const b = this.#items[j] as T;
    this.#items[i] = b;
    this.#items[j] = a;
    this.#index.set(this.#keyOf(b), i);
    this.#index.set(this.#keyOf(a), j);
  }

  #up(i: number): void {
    let child = i;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.#less(this.#items[child] as T, this.#items[parent] as T)) break;
      this.#swap(child, parent);
      child = parent;
    }
  }

  /** Sifts down; true when the item moved. */
  #down(i: number): boolean {
    const n = this.#items.length;
    let parent = i;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= n) break;
      let best = left;
      const right = left + 1;
      if (right < n && this.#less(this.#items[right] as T, this.#items[left] as T)) best = right;
      if (!this.#less(this.#items[best] as T, this.#items[parent] as T)) break;
      this.#swap(best, parent);
      parent = best;
    }
    return parent > i;
  }
}
