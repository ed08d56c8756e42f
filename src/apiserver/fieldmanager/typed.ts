import type { SchemaRoot } from "../../api/index.ts";
import { isPlainObject, type Json } from "../../util/index.ts";
import { type ChildNode, FieldSet } from "./field-set.ts";
import {
  compareStrings,
  formatPath,
  formatPathElement,
  index,
  type Path,
  type PathElement,
  serializePathElement,
  field as toField,
  key as toKey,
  value as toValue,
} from "./path-element.ts";
import { type Atom, newTypeResolver, type TypeRef, type TypeResolver } from "./types.ts";

/** One problem found while reading an object against its schema. */
export interface TypedValueIssue {
  readonly path: Path;
  readonly message: string;
}

/** An object does not fit its schema; the message is structured-merge-diff's. */
export class TypedValueError extends Error {
  readonly issues: readonly TypedValueIssue[];

  constructor(issues: readonly TypedValueIssue[]) {
    super(formatIssues(issues));
    this.name = "TypedValueError";
    this.issues = issues;
  }
}

function formatIssues(issues: readonly TypedValueIssue[]): string {
  const one = (i: TypedValueIssue): string =>
    i.path.length === 0 ? i.message : `${formatPath(i.path)}: ${i.message}`;
  const [first] = issues;
  if (issues.length === 1 && first !== undefined) return one(first);
  return ["errors:", ...issues.map((i) => `  ${one(i)}`)].join("\n");
}

/** How strictly to read a value: an applied configuration is strict, stored objects are not. */
export interface ReadOptions {
  /** Reject duplicate list-map keys and undeclared fields, as upstream does for apply. */
  readonly strict: boolean;
}

const lenient: ReadOptions = { strict: false };

/** Added, removed and modified leaves (and added or removed containers) between two objects. */
export interface Comparison {
  readonly added: FieldSet;
  readonly removed: FieldSet;
  readonly modified: FieldSet;
}

/**
 * Every field `value` sets, as upstream's `ToFieldSet`: scalars, atomic lists and atomic maps are
 * leaves; list-map and set items are members (`.`) plus their fields; keys of granular maps are
 * members; declared struct fields count only through what is below them. Free-form subtrees
 * follow schemaconv's deduced type: maps granular, lists atomic.
 * Throws `TypedValueError` when the value cannot be read against the schema.
 */
export function fieldSetOf(
  value: Json,
  schema: SchemaRoot,
  options: ReadOptions = { strict: true },
): FieldSet {
  const resolver = newTypeResolver(schema);
  return toFieldSet(value, resolver.root, resolver, options);
}

/** `fieldSetOf` for a resolver already at hand. */
export function toFieldSet(
  value: unknown,
  ref: TypeRef,
  resolver: TypeResolver,
  options: ReadOptions = lenient,
): FieldSet {
  const paths: Path[] = [];
  const issues: TypedValueIssue[] = [];
  const walk = (v: unknown, r: TypeRef, path: Path): void => {
    const atom = resolver.atom(r, v);
    if (atom.kind === "leaf" || atom.atomic) {
      paths.push(path);
      return;
    }
    if (v === null || v === undefined) return;
    if (atom.kind === "list") {
      if (!Array.isArray(v)) {
        paths.push(path);
        return;
      }
      const seen = new Set<string>();
      v.forEach((item: unknown, i) => {
        const pe = listItemElement(atom, item, i);
        if (typeof pe === "string") {
          // Stored objects were validated on write; an unnamable item there is skipped.
          if (options.strict) issues.push({ path, message: `element ${i}: ${pe}` });
          return;
        }
        const id = serializePathElement(pe);
        if (options.strict && seen.has(id)) {
          issues.push({ path, message: `duplicate entries for key ${formatPathElement(pe)}` });
          return;
        }
        seen.add(id);
        walk(item, atom.item, [...path, pe]);
        paths.push([...path, pe]);
      });
      return;
    }
    if (!isPlainObject(v)) {
      paths.push(path);
      return;
    }
    for (const [k, child] of Object.entries(v)) {
      const declared = atom.fields.get(k);
      const childRef = declared ?? atom.element;
      const childPath = [...path, toField(k)];
      if (childRef === undefined) {
        if (options.strict) {
          issues.push({ path: childPath, message: "field not declared in schema" });
          continue;
        }
        paths.push(childPath);
        continue;
      }
      walk(child, childRef, childPath);
      if (declared === undefined) paths.push(childPath);
    }
  };
  walk(value, ref, []);
  if (issues.length > 0) throw new TypedValueError(issues);
  return FieldSet.fromPaths(paths);
}

/**
 * The path element naming a list item: its key fields in a list-map (schema defaults filling
 * omitted keys), its value in a set, its index in an atomic list; or upstream's reason why the
 * item cannot be named.
 */
export function listItemElement(
  atom: Extract<Atom, { kind: "list" }>,
  item: unknown,
  i: number,
): PathElement | string {
  if (atom.atomic) return index(i);
  if (atom.keys.length > 0) {
    if (item === null) return "associative list with keys may not have a null element";
    if (!isPlainObject(item)) return "associative list with keys may not have non-map elements";
    const fields: Record<string, Json> = {};
    for (const k of atom.keys) {
      const v = item[k] !== undefined ? item[k] : atom.keyDefaults[k];
      if (v === undefined) {
        return `associative list with keys has an element that omits key field "${k}" (and doesn't have default value)`;
      }
      fields[k] = v as Json;
    }
    return toKey(fields);
  }
  if (isPlainObject(item)) return "associative list without keys has an element that's a map type";
  if (Array.isArray(item)) return "not supported: associative list with lists as elements";
  if (item === null) return "associative list without keys has an element that's an explicit null";
  return toValue(item as Json);
}

/**
 * One level of a set being built: its members and the sets below its child elements. The arrays
 * are made on first use, since most levels of most comparisons stay empty.
 */
class Level {
  #members: PathElement[] | undefined;
  #children: ChildNode[] | undefined;

  member(pe: PathElement): void {
    this.#members ??= [];
    this.#members.push(pe);
  }

  /** Adds what `below` holds under `pe`, if anything. */
  child(pe: PathElement, below: Level): void {
    if (below.isEmpty()) return;
    this.#children ??= [];
    this.#children.push({ pe, set: below.toSet() });
  }

  isEmpty(): boolean {
    return this.#members === undefined && this.#children === undefined;
  }

  toSet(): FieldSet {
    return this.isEmpty()
      ? FieldSet.empty()
      : FieldSet.fromParts(this.#members ?? [], this.#children ?? []);
  }
}

/** The three sets of a comparison, one level at a time. */
class LevelDiff {
  readonly added = new Level();
  readonly removed = new Level();
  readonly modified = new Level();
}

/**
 * Upstream's `Compare`: leaves that were added, removed or changed between `lhs` and `rhs`, plus
 * every container (struct, map, list item) that appeared or disappeared as a whole. Duplicate
 * list-map items are compared as one atomic value, as upstream does. The sets are built level by
 * level as the walk returns, so no path is copied or grouped again.
 */
export function compareValues(
  lhs: unknown,
  rhs: unknown,
  ref: TypeRef,
  resolver: TypeResolver,
): Comparison {
  const root = containerDiff(lhs, rhs, resolver.atom(ref, rhs !== undefined ? rhs : lhs), resolver);
  // The root itself is no path: only what is below it counts.
  if (root === undefined) {
    return { added: FieldSet.empty(), removed: FieldSet.empty(), modified: FieldSet.empty() };
  }
  return {
    added: root.added.toSet(),
    removed: root.removed.toSet(),
    modified: root.modified.toSet(),
  };
}

/**
 * `compareValues({}, rhs, …).added` without the comparison: every field of an object that did
 * not exist before (a create). A map's keys are sorted once and its set is built from them as
 * they come, so nothing is compared, grouped or sorted again.
 */
export function addedFields(rhs: unknown, ref: TypeRef, resolver: TypeResolver): FieldSet {
  return addedIn(rhs, resolver.atom(ref, rhs), resolver) ?? FieldSet.empty();
}

/**
 * `addedFields` below one member of the object `obj` of type `ref`: what a create owns under
 * `obj[key]` (empty where the member is a leaf).
 */
export function addedFieldsBelow(
  obj: Readonly<Record<string, unknown>>,
  key: string,
  ref: TypeRef,
  resolver: TypeResolver,
): FieldSet {
  const atom = resolver.atom(ref, obj);
  if (atom.kind !== "map" || atom.atomic) return FieldSet.empty();
  const value = obj[key];
  const below = addedIn(
    value,
    resolver.atom(atom.fields.get(key) ?? atom.element ?? untypedRef, value),
    resolver,
  );
  return below ?? FieldSet.empty();
}

/** What `containerDiff(undefined, r, …)` adds; `undefined` where it compares a leaf. */
function addedIn(r: unknown, atom: Atom, resolver: TypeResolver): FieldSet | undefined {
  if (atom.kind === "leaf" || atom.atomic) return undefined;
  if (atom.kind === "list") {
    if (!Array.isArray(r) || r.length === 0) return undefined;
    const members: PathElement[] = [];
    const children: ChildNode[] = [];
    for (const { pe, items } of groupItems(atom, r).values()) {
      // Duplicate list-map items are one atomic value, as `compareItems` treats them.
      if (items.length === 1) {
        const below = addedIn(items[0], resolver.atom(atom.item, items[0]), resolver);
        if (below !== undefined) children.push({ pe, set: below });
      }
      members.push(pe);
    }
    return FieldSet.fromParts(members, children);
  }
  if (!isPlainObject(r)) return undefined;
  const keys = Object.keys(r);
  if (keys.length === 0) return undefined;
  keys.sort(compareStrings);
  const members: PathElement[] = [];
  const children: ChildNode[] = [];
  for (const k of keys) {
    const pe = toField(k);
    const v = r[k];
    const below = addedIn(
      v,
      resolver.atom(atom.fields.get(k) ?? atom.element ?? untypedRef, v),
      resolver,
    );
    if (below !== undefined && !below.isEmpty()) children.push({ pe, set: below });
    members.push(pe);
  }
  return FieldSet.fromSortedParts(members, children);
}

/** Compares the position `pe` of the level `out`. */
function compareAt(
  l: unknown,
  r: unknown,
  ref: TypeRef,
  pe: PathElement,
  out: LevelDiff,
  resolver: TypeResolver,
): void {
  // One value on both sides (a subtree an update kept as it was): nothing differs below it.
  if (l === r) return;
  const below = containerDiff(l, r, resolver.atom(ref, r !== undefined ? r : l), resolver);
  if (below === undefined) {
    if (l === undefined) out.added.member(pe);
    else if (r === undefined) out.removed.member(pe);
    else if (!jsonEqual(l, r)) out.modified.member(pe);
    return;
  }
  out.added.child(pe, below.added);
  out.removed.child(pe, below.removed);
  out.modified.child(pe, below.modified);
  if (l === undefined) out.added.member(pe);
  else if (r === undefined) out.removed.member(pe);
}

/** The differences inside a container; `undefined` when the position is compared as a leaf. */
function containerDiff(
  l: unknown,
  r: unknown,
  atom: Atom,
  resolver: TypeResolver,
): LevelDiff | undefined {
  if (atom.kind === "leaf" || atom.atomic) return undefined;
  if (atom.kind === "list") {
    if (!isListish(l) || !isListish(r)) return undefined;
    if (isEmptyList(l) && isEmptyList(r)) return undefined;
    const out = new LevelDiff();
    const left = groupItems(atom, l);
    const right = groupItems(atom, r);
    for (const [id, ls] of left) compareItems(ls, right.get(id), atom.item, out, resolver);
    for (const [id, rs] of right) {
      if (!left.has(id)) compareItems(undefined, rs, atom.item, out, resolver);
    }
    return out;
  }
  if (!isMapish(l) || !isMapish(r)) return undefined;
  if (isEmptyMap(l) && isEmptyMap(r)) return undefined;
  const out = new LevelDiff();
  const lm = isPlainObject(l) ? l : emptyMap;
  const rm = isPlainObject(r) ? r : emptyMap;
  // Own keys only: a key such as `constructor` must not find Object.prototype's member.
  for (const k of Object.keys(lm)) {
    compareAt(
      lm[k],
      Object.hasOwn(rm, k) ? rm[k] : undefined,
      atom.fields.get(k) ?? atom.element ?? untypedRef,
      toField(k),
      out,
      resolver,
    );
  }
  for (const k of Object.keys(rm)) {
    if (Object.hasOwn(lm, k)) continue;
    compareAt(
      undefined,
      rm[k],
      atom.fields.get(k) ?? atom.element ?? untypedRef,
      toField(k),
      out,
      resolver,
    );
  }
  return out;
}

/** Compares the items one path element names in two lists (usually one each, or none). */
function compareItems(
  ls: ItemGroup | undefined,
  rs: ItemGroup | undefined,
  item: TypeRef,
  out: LevelDiff,
  resolver: TypeResolver,
): void {
  const pe = (ls ?? rs)?.pe;
  if (pe === undefined) return;
  const lItems = ls?.items ?? [];
  const rItems = rs?.items ?? [];
  if (lItems.length <= 1 && rItems.length <= 1) {
    compareAt(lItems[0], rItems[0], item, pe, out, resolver);
  } else if (lItems.length >= 2 && rItems.length >= 2) {
    if (!jsonEqual(lItems, rItems)) out.modified.member(pe);
  } else if (lItems.length >= 2) {
    if (rItems.length > 0) compareAt(undefined, rItems[0], item, pe, out, resolver);
    out.removed.member(pe);
  } else {
    if (lItems.length > 0) compareAt(lItems[0], undefined, item, pe, out, resolver);
    out.added.member(pe);
  }
}

const untypedRef: TypeRef = { kind: "untyped" };
const emptyMap: Readonly<Record<string, unknown>> = Object.freeze({});

/** Whether a comparison found no difference at all. */
export function isSame(c: Comparison): boolean {
  return c.added.isEmpty() && c.removed.isEmpty() && c.modified.isEmpty();
}

/** The items of a list one path element names, in list order. */
export interface ItemGroup {
  readonly pe: PathElement;
  readonly items: unknown[];
}

/** Items of a list grouped by path element, in first-seen order; unnamable items are skipped. */
export function groupItems(
  atom: Extract<Atom, { kind: "list" }>,
  list: unknown,
): Map<string, ItemGroup> {
  const out = new Map<string, ItemGroup>();
  if (!Array.isArray(list)) return out;
  list.forEach((item: unknown, i) => {
    const pe = listItemElement(atom, item, i);
    if (typeof pe === "string") return;
    const id = serializePathElement(pe);
    const group = out.get(id);
    if (group === undefined) out.set(id, { pe, items: [item] });
    else group.items.push(item);
  });
  return out;
}

function isListish(v: unknown): boolean {
  return v === undefined || v === null || Array.isArray(v);
}

function isMapish(v: unknown): boolean {
  return v === undefined || v === null || isPlainObject(v);
}

function isEmptyList(v: unknown): boolean {
  return !Array.isArray(v) || v.length === 0;
}

function isEmptyMap(v: unknown): boolean {
  return !isPlainObject(v) || Object.keys(v).length === 0;
}

/** Structural JSON equality; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}
