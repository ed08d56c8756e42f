import { isPlainObject } from "../../util/index.ts";
import {
  comparePathElements,
  deserializePathElement,
  formatPath,
  type Path,
  type PathElement,
  serializePathElement,
} from "./path-element.ts";

/** A path element and the set of paths below it. */
export interface ChildNode {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

/**
 * An immutable set of field paths, shaped like structured-merge-diff's `fieldpath.Set`: the
 * path elements that are members at this level, plus a child set per path element that has
 * members below it. A path can be both a member and have children (a list-map item that is owned
 * as a whole and field by field), which FieldsV1 writes as `".": {}`.
 */
export class FieldSet {
  readonly #members: readonly PathElement[];
  readonly #children: readonly ChildNode[];

  private constructor(members: readonly PathElement[], children: readonly ChildNode[]) {
    this.#members = members;
    this.#children = children;
  }

  static readonly #empty = new FieldSet([], []);

  /** The set with no paths. */
  static empty(): FieldSet {
    return FieldSet.#empty;
  }

  /** The set of the given paths. An empty path names the whole object and is ignored. */
  static of(...paths: readonly Path[]): FieldSet {
    return FieldSet.fromPaths(paths);
  }

  /** The set of the given paths, in any order, duplicates allowed. */
  static fromPaths(paths: Iterable<Path>): FieldSet {
    const members: PathElement[] = [];
    const below = new Map<string, { pe: PathElement; rest: Path[] }>();
    for (const path of paths) {
      const [head, ...rest] = path;
      if (head === undefined) continue;
      if (rest.length === 0) {
        members.push(head);
        continue;
      }
      const id = serializePathElement(head);
      const group = below.get(id);
      if (group === undefined) below.set(id, { pe: head, rest: [rest] });
      else group.rest.push(rest);
    }
    const children: ChildNode[] = [];
    for (const { pe, rest } of below.values()) children.push({ pe, set: FieldSet.fromPaths(rest) });
    return FieldSet.#make(sortUnique(members), children.sort(byElement));
  }

  /**
   * The set whose top level has `members` plus, below each child's element, that child's set: in
   * any order, repeats allowed (repeated children are united). Takes ownership of both arrays.
   * Builds in one pass what `fromPaths` builds by grouping whole paths.
   */
  static fromParts(members: PathElement[], children: ChildNode[]): FieldSet {
    if (members.length === 0 && children.length === 0) return FieldSet.#empty;
    const kept = children.filter((c) => !c.set.isEmpty()).sort(byElement);
    const merged: ChildNode[] = [];
    for (const child of kept) {
      const last = merged[merged.length - 1];
      if (last !== undefined && comparePathElements(last.pe, child.pe) === 0) {
        merged[merged.length - 1] = { pe: last.pe, set: last.set.union(child.set) };
      } else merged.push(child);
    }
    return FieldSet.#make(sortUnique(members), merged);
  }

  /**
   * `fromParts` for parts already in order: `members` sorted and unique, `children` sorted,
   * unique and non-empty (a map's fields, built from its sorted keys).
   */
  static fromSortedParts(members: PathElement[], children: ChildNode[]): FieldSet {
    return members.length === 0 && children.length === 0
      ? FieldSet.#empty
      : new FieldSet(members, children);
  }

  static #make(members: readonly PathElement[], children: readonly ChildNode[]): FieldSet {
    const kept = children.filter((c) => !c.set.isEmpty());
    return members.length === 0 && kept.length === 0
      ? FieldSet.#empty
      : new FieldSet(members, kept);
  }

  /**
   * Decodes a FieldsV1 trie. Keys with an unknown element type are dropped, as upstream does;
   * anything else malformed throws `SyntaxError`.
   */
  static fromFieldsV1(fields: unknown): FieldSet {
    if (fields === undefined || fields === null) return FieldSet.#empty;
    if (!isPlainObject(fields)) throw new SyntaxError("FieldsV1 must be a JSON object");
    return decodeLevel(fields).set ?? FieldSet.#empty;
  }

  /** The FieldsV1 trie, keys ordered and escaped exactly as Kubernetes writes them. */
  toFieldsV1(): Record<string, unknown> {
    return this.#encode(false);
  }

  #encode(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && !this.isEmpty()) out["."] = {};
    let mi = 0;
    let ci = 0;
    while (mi < this.#members.length || ci < this.#children.length) {
      const m = this.#members[mi];
      const c = this.#children[ci];
      const order = m === undefined ? 1 : c === undefined ? -1 : comparePathElements(m, c.pe);
      if (order < 0 && m !== undefined) {
        out[serializePathElement(m)] = {};
        mi++;
      } else if (c !== undefined) {
        out[serializePathElement(c.pe)] = c.set.#encode(order === 0);
        if (order === 0) mi++;
        ci++;
      }
    }
    return out;
  }

  /** The members at the top level, sorted. */
  get members(): readonly PathElement[] {
    return this.#members;
  }

  isEmpty(): boolean {
    return this.#members.length === 0 && this.#children.length === 0;
  }

  /** Whether `path` itself is in the set (not merely a prefix of a path in it). */
  has(path: Path): boolean {
    const [head, ...rest] = path;
    if (head === undefined) return false;
    if (rest.length === 0) return findElement(this.#members, head) >= 0;
    return this.withPrefix(head).has(rest);
  }

  /** Whether `pe` is a top-level member. */
  hasMember(pe: PathElement): boolean {
    return findElement(this.#members, pe) >= 0;
  }

  /** The paths below `pe`, with `pe` removed from their front. */
  withPrefix(pe: PathElement): FieldSet {
    return this.#child(pe) ?? FieldSet.#empty;
  }

  #child(pe: PathElement): FieldSet | undefined {
    let lo = 0;
    let hi = this.#children.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const node = this.#children[mid];
      if (node === undefined) break;
      const c = comparePathElements(node.pe, pe);
      if (c === 0) return node.set;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The child path elements that have paths below them, sorted. */
  get childElements(): readonly PathElement[] {
    return this.#children.map((c) => c.pe);
  }

  /** Every path in upstream's iteration order: members first, then each child's paths. */
  paths(): Path[] {
    const out: Path[] = [];
    const walk = (set: FieldSet, prefix: Path): void => {
      for (const m of set.#members) out.push([...prefix, m]);
      for (const c of set.#children) walk(c.set, [...prefix, c.pe]);
    };
    walk(this, []);
    return out;
  }

  /** Paths in either set. */
  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const members = mergeSorted(this.#members, other.#members, "union");
    const children = zipChildren(this.#children, other.#children, (a, b) => {
      if (a === undefined) return b;
      if (b === undefined) return a;
      return a.union(b);
    });
    return FieldSet.#make(members, children);
  }

  /** Paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    const members = mergeSorted(this.#members, other.#members, "intersection");
    const children = zipChildren(this.#children, other.#children, (a, b) =>
      a === undefined || b === undefined ? undefined : a.intersection(b),
    );
    return FieldSet.#make(members, children);
  }

  /** Paths in this set and not in `other`; removing a path keeps the paths below it. */
  difference(other: FieldSet): FieldSet {
    if (other.isEmpty() || this.isEmpty()) return this;
    const members = mergeSorted(this.#members, other.#members, "difference");
    const children = zipChildren(this.#children, other.#children, (a, b) =>
      a === undefined ? undefined : b === undefined ? a : a.difference(b),
    );
    return FieldSet.#make(members, children);
  }

  /** Like `difference`, but a path in `other` also removes every path below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.isEmpty() || this.isEmpty()) return this;
    const members = mergeSorted(this.#members, other.#members, "difference");
    const children: ChildNode[] = [];
    for (const node of this.#children) {
      if (other.hasMember(node.pe)) continue;
      const theirs = other.#child(node.pe);
      children.push({ pe: node.pe, set: theirs ? node.set.recursiveDifference(theirs) : node.set });
    }
    return FieldSet.#make(members, children);
  }

  equals(other: FieldSet): boolean {
    if (this === other) return true;
    if (this.#members.length !== other.#members.length) return false;
    if (this.#children.length !== other.#children.length) return false;
    for (let i = 0; i < this.#members.length; i++) {
      const a = this.#members[i];
      const b = other.#members[i];
      if (a === undefined || b === undefined || comparePathElements(a, b) !== 0) return false;
    }
    for (let i = 0; i < this.#children.length; i++) {
      const a = this.#children[i];
      const b = other.#children[i];
      if (a === undefined || b === undefined || comparePathElements(a.pe, b.pe) !== 0) return false;
      if (!a.set.equals(b.set)) return false;
    }
    return true;
  }

  /** One path per line, as upstream's `Set.String()` does. */
  toString(): string {
    return this.paths().map(formatPath).join("\n");
  }
}

function byElement(a: ChildNode, b: ChildNode): number {
  return comparePathElements(a.pe, b.pe);
}

function sortUnique(elements: PathElement[]): PathElement[] {
  elements.sort(comparePathElements);
  return elements.filter(
    (pe, i) => i === 0 || comparePathElements(elements[i - 1] ?? pe, pe) !== 0,
  );
}

function findElement(sorted: readonly PathElement[], pe: PathElement): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = comparePathElements(sorted[mid] ?? pe, pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function mergeSorted(
  a: readonly PathElement[],
  b: readonly PathElement[],
  op: "union" | "intersection" | "difference",
): PathElement[] {
  const out: PathElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    const c = x === undefined ? 1 : y === undefined ? -1 : comparePathElements(x, y);
    if (c < 0 && x !== undefined) {
      if (op !== "intersection") out.push(x);
      i++;
    } else if (c > 0 && y !== undefined) {
      if (op === "union") out.push(y);
      j++;
    } else if (x !== undefined) {
      if (op !== "difference") out.push(x);
      i++;
      j++;
    }
  }
  return out;
}

function zipChildren(
  a: readonly ChildNode[],
  b: readonly ChildNode[],
  combine: (x: FieldSet | undefined, y: FieldSet | undefined) => FieldSet | undefined,
): ChildNode[] {
  const out: ChildNode[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    const c = x === undefined ? 1 : y === undefined ? -1 : comparePathElements(x.pe, y.pe);
    let pe: PathElement;
    let set: FieldSet | undefined;
    if (c < 0 && x !== undefined) {
      pe = x.pe;
      set = combine(x.set, undefined);
      i++;
    } else if (c > 0 && y !== undefined) {
      pe = y.pe;
      set = combine(undefined, y.set);
      j++;
    } else if (x !== undefined && y !== undefined) {
      pe = x.pe;
      set = combine(x.set, y.set);
      i++;
      j++;
    } else {
      break;
    }
    if (set !== undefined && !set.isEmpty()) out.push({ pe, set });
  }
  return out;
}

/** Decodes one level of the trie: whether the level is itself a member, and its contents. */
function decodeLevel(fields: Record<string, unknown>): { member: boolean; set?: FieldSet } {
  const members: PathElement[] = [];
  const children: ChildNode[] = [];
  let member = false;
  for (const [name, child] of Object.entries(fields)) {
    if (name === ".") {
      member = true;
      continue;
    }
    const pe = deserializePathElement(name);
    if (!isPlainObject(child)) throw new SyntaxError(`FieldsV1 entry "${name}" must be an object`);
    if (pe === undefined) continue;
    const below = decodeLevel(child);
    if (below.member) members.push(pe);
    if (below.set !== undefined) children.push({ pe, set: below.set });
  }
  // A level with nothing below it (`{}`, `{".":{}}`, or only unknown keys) is a member.
  const set = FieldSet.fromParts(members, children);
  return set.isEmpty() ? { member: true } : { member, set };
}
