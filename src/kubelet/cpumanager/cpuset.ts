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

/** An immutable, sorted set of CPU ids. Every operation returns a new set. */
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
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    return new CpuSet(sorted);
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
    if (others.every((o) => o.isEmpty())) return this;
    return CpuSet.from([...this.#ids, ...others.flatMap((o) => o.#ids)]);
  }

  intersection(other: CpuSet): CpuSet {
    return new CpuSet(this.#ids.filter((id) => other.has(id)));
  }

  difference(other: CpuSet): CpuSet {
    if (other.isEmpty()) return this;
    return new CpuSet(this.#ids.filter((id) => !other.has(id)));
  }

  filter(keep: (id: number) => boolean): CpuSet {
    return new CpuSet(this.#ids.filter(keep));
  }

  isSubsetOf(other: CpuSet): boolean {
    return this.#ids.every((id) => other.has(id));
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
