/**
 * `CpuSet`: an immutable set of logical CPU ids (k8s.io/utils/cpuset), printed and parsed in the
 * Linux list format the kernel, the kubelet's checkpoint and `taskset -c` use (`0-3,8-11`).
 */

/** Go's `strconv.Atoi` for the ids of a CPU list, with its error text. */
function atoi(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) {
    throw new SyntaxError(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range`);
  }
  return value;
}

/** Sorts ids ascending and drops duplicates, in place; skips the sort when already sorted. */
function sortedUnique(ids: number[]): number[] {
  let sorted = true;
  for (let i = 1; i < ids.length; i++) {
    if ((ids[i] as number) <= (ids[i - 1] as number)) {
      sorted = false;
      break;
    }
  }
  if (sorted) return ids;
  ids.sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < ids.length; i++) {
    if (i === 0 || ids[i] !== ids[n - 1]) ids[n++] = ids[i] as number;
  }
  ids.length = n;
  return ids;
}

/** The union of two ascending, duplicate-free lists. */
function mergeUnion(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? (a[i] as number) : Number.POSITIVE_INFINITY;
    const y = j < b.length ? (b[j] as number) : Number.POSITIVE_INFINITY;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  return out;
}

/** An immutable, sorted set of CPU ids. Every operation returns a new set (or this one). */
export class CpuSet {
  /** Ascending, without duplicates. */
  readonly #ids: readonly number[];

  private constructor(sortedUnique: readonly number[]) {
    this.#ids = sortedUnique;
  }

  static readonly empty: CpuSet = new CpuSet([]);

  /** The set of the given ids (any order, duplicates ignored). */
  static of(...ids: readonly number[]): CpuSet {
    return CpuSet.from(ids);
  }

  static from(ids: Iterable<number>): CpuSet {
    return new CpuSet(sortedUnique(Array.from(ids)));
  }

  /** `from..to` inclusive. */
  static range(from: number, to: number): CpuSet {
    const ids: number[] = [];
    for (let id = from; id <= to; id++) ids.push(id);
    return new CpuSet(ids);
  }

  /**
   * Parses the Linux list format (`"0-3,8,10-11"`; `""` is the empty set), as upstream's
   * `cpuset.Parse`. Throws `SyntaxError`/`RangeError` with upstream's message on bad input.
   */
  static parse(text: string): CpuSet {
    if (text === "") return CpuSet.empty;
    const ids: number[] = [];
    for (const part of text.split(",")) {
      const dash = part.indexOf("-");
      if (dash === -1) {
        ids.push(atoi(part));
        continue;
      }
      const start = atoi(part.slice(0, dash));
      const end = atoi(part.slice(dash + 1));
      if (start > end) {
        throw new RangeError(`invalid range ${JSON.stringify(part)} (${start} > ${end})`);
      }
      for (let id = start; id <= end; id++) ids.push(id);
    }
    return CpuSet.from(ids);
  }

  get size(): number {
    return this.#ids.length;
  }

  isEmpty(): boolean {
    return this.#ids.length === 0;
  }

  has(id: number): boolean {
    let lo = 0;
    let hi = this.#ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const value = this.#ids[mid] as number;
      if (value === id) return true;
      if (value < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** The ids in ascending order (a copy). */
  toArray(): number[] {
    return [...this.#ids];
  }

  [Symbol.iterator](): Iterator<number> {
    return this.#ids[Symbol.iterator]();
  }

  union(...others: readonly CpuSet[]): CpuSet {
    const nonEmpty = others.filter((o) => !o.isEmpty());
    if (nonEmpty.length === 0) return this;
    if (nonEmpty.length === 1) {
      const other = nonEmpty[0] as CpuSet;
      return this.isEmpty() ? other : new CpuSet(mergeUnion(this.#ids, other.#ids));
    }
    const all: number[] = [...this.#ids];
    for (const o of nonEmpty) for (const id of o.#ids) all.push(id);
    return new CpuSet(sortedUnique(all));
  }

  intersection(other: CpuSet): CpuSet {
    const a = this.#ids;
    const b = other.#ids;
    const out: number[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const x = a[i] as number;
      const y = b[j] as number;
      if (x === y) {
        out.push(x);
        i++;
        j++;
      } else if (x < y) i++;
      else j++;
    }
    return out.length === a.length ? this : new CpuSet(out);
  }

  difference(other: CpuSet): CpuSet {
    if (other.isEmpty() || this.isEmpty()) return this;
    const a = this.#ids;
    const b = other.#ids;
    const out: number[] = [];
    let j = 0;
    for (const x of a) {
      while (j < b.length && (b[j] as number) < x) j++;
      if (j < b.length && b[j] === x) continue;
      out.push(x);
    }
    return out.length === a.length ? this : new CpuSet(out);
  }

  filter(keep: (id: number) => boolean): CpuSet {
    return new CpuSet(this.#ids.filter(keep));
  }

  isSubsetOf(other: CpuSet): boolean {
    return this.difference(other).isEmpty();
  }

  equals(other: CpuSet): boolean {
    return (
      this.#ids.length === other.#ids.length && this.#ids.every((id, i) => other.#ids[i] === id)
    );
  }

  /** The Linux list format: `"0-3,8,10-11"`; `""` when empty. */
  toString(): string {
    const parts: string[] = [];
    let i = 0;
    while (i < this.#ids.length) {
      const start = this.#ids[i] as number;
      let end = start;
      while (i + 1 < this.#ids.length && this.#ids[i + 1] === end + 1) {
        end++;
        i++;
      }
      parts.push(start === end ? String(start) : `${start}-${end}`);
      i++;
    }
    return parts.join(",");
  }
}
