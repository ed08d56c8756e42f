import type { SchemaRoot } from "../../api/index.ts";
import { isPlainObject, type Json } from "../../util/index.ts";
import { FieldSet } from "./field-set.ts";
import {
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
 * Upstream's `Compare`: leaves that were added, removed or changed between `lhs` and `rhs`, plus
 * every container (struct, map, list item) that appeared or disappeared as a whole. Duplicate
 * list-map items are compared as one atomic value, as upstream does.
 */
export function compareValues(
  lhs: unknown,
  rhs: unknown,
  ref: TypeRef,
  resolver: TypeResolver,
): Comparison {
  const added: Path[] = [];
  const removed: Path[] = [];
  const modified: Path[] = [];
  const leaf = (l: unknown, r: unknown, path: Path): void => {
    if (l === undefined) added.push(path);
    else if (r === undefined) removed.push(path);
    else if (!jsonEqual(l, r)) modified.push(path);
  };
  const walk = (l: unknown, r: unknown, ref: TypeRef, path: Path): void => {
    const atom = resolver.atom(ref, r !== undefined ? r : l);
    if (!walkContainer(l, r, atom, path)) {
      leaf(l, r, path);
      return;
    }
    if (l === undefined) added.push(path);
    else if (r === undefined) removed.push(path);
  };
  // Returns false when the position is compared as a leaf.
  const walkContainer = (l: unknown, r: unknown, atom: Atom, path: Path): boolean => {
    if (atom.kind === "leaf" || atom.atomic) return false;
    if (atom.kind === "list") {
      if (!isListish(l) || !isListish(r)) return false;
      if (isEmptyList(l) && isEmptyList(r)) return false;
      const left = groupItems(atom, l);
      const right = groupItems(atom, r);
      const order = [...left.keys(), ...[...right.keys()].filter((id) => !left.has(id))];
      for (const id of order) {
        const ls = left.get(id);
        const rs = right.get(id);
        const pe = (ls ?? rs)?.pe;
        if (pe === undefined) continue;
        const itemPath = [...path, pe];
        const lItems = ls?.items ?? [];
        const rItems = rs?.items ?? [];
        if (lItems.length <= 1 && rItems.length <= 1) {
          walk(lItems[0], rItems[0], atom.item, itemPath);
        } else if (lItems.length >= 2 && rItems.length >= 2) {
          if (!jsonEqual(lItems, rItems)) modified.push(itemPath);
        } else if (lItems.length >= 2) {
          if (rItems.length > 0) walk(undefined, rItems[0], atom.item, itemPath);
          removed.push(itemPath);
        } else {
          if (lItems.length > 0) walk(lItems[0], undefined, atom.item, itemPath);
          added.push(itemPath);
        }
      }
      return true;
    }
    if (!isMapish(l) || !isMapish(r)) return false;
    if (isEmptyMap(l) && isEmptyMap(r)) return false;
    const lm = isPlainObject(l) ? l : {};
    const rm = isPlainObject(r) ? r : {};
    const keys = [...Object.keys(lm), ...Object.keys(rm).filter((k) => !(k in lm))];
    for (const k of keys) {
      const childRef = atom.fields.get(k) ?? atom.element ?? { kind: "untyped" };
      walk(lm[k], rm[k], childRef, [...path, toField(k)]);
    }
    return true;
  };
  walk(lhs, rhs, ref, []);
  return {
    added: FieldSet.fromPaths(added),
    removed: FieldSet.fromPaths(removed),
    modified: FieldSet.fromPaths(modified),
  };
}

/** Whether a comparison found no difference at all. */
export function isSame(c: Comparison): boolean {
  return c.added.isEmpty() && c.removed.isEmpty() && c.modified.isEmpty();
}

/** Items of a list grouped by path element, in first-seen order; unnamable items are skipped. */
export function groupItems(
  atom: Extract<Atom, { kind: "list" }>,
  list: unknown,
): Map<string, { pe: PathElement; items: unknown[] }> {
  const out = new Map<string, { pe: PathElement; items: unknown[] }>();
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
