import { deepCopy, isPlainObject } from "../../util/index.ts";
import { FieldSet } from "./field-set.ts";
import {
  type Path,
  type PathElement,
  pathElementsEqual,
  serializePathElement,
  field as toField,
} from "./path-element.ts";
import { listItemElement, toFieldSet } from "./typed.ts";
import type { TypeRef, TypeResolver } from "./types.ts";

/**
 * Upstream's `Merge` with the keep-right rule: every leaf `rhs` sets wins, granular maps are
 * merged key by key, list-maps and sets item by item, atomic values are replaced. Nothing is
 * removed. Items keep `lhs`'s order except where `rhs` reorders the items both sides share.
 * Returns new values; the inputs are not modified.
 */
export function mergeValues(
  lhs: unknown,
  rhs: unknown,
  ref: TypeRef,
  resolver: TypeResolver,
): unknown {
  if (rhs === undefined) return deepCopy(lhs);
  if (lhs === undefined) return deepCopy(rhs);
  const atom = resolver.atom(ref, rhs);
  if (atom.kind === "leaf" || atom.atomic) return deepCopy(rhs);
  if (atom.kind === "list") {
    const l = lhs === null ? [] : lhs;
    const r = rhs === null ? [] : rhs;
    if (!Array.isArray(l) || !Array.isArray(r)) return deepCopy(rhs);
    if (l.length === 0 && r.length === 0) return deepCopy(rhs);
    return mergeLists(
      l,
      r,
      (a, b) => mergeValues(a, b, atom.item, resolver),
      (item, i) => {
        const pe = listItemElement(atom, item, i);
        return typeof pe === "string" ? undefined : pe;
      },
    );
  }
  const l = lhs === null ? {} : lhs;
  const r = rhs === null ? {} : rhs;
  if (!isPlainObject(l) || !isPlainObject(r)) return deepCopy(rhs);
  if (Object.keys(l).length === 0 && Object.keys(r).length === 0) return deepCopy(rhs);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(l)) {
    const childRef = atom.fields.get(k) ?? atom.element ?? { kind: "untyped" };
    out[k] = k in r ? mergeValues(v, r[k], childRef, resolver) : deepCopy(v);
  }
  for (const [k, v] of Object.entries(r)) if (!(k in l)) out[k] = deepCopy(v);
  return out;
}

/**
 * structured-merge-diff's list merge order: walk both lists; items only in `lhs` stay where they
 * were, items in `rhs` come in `rhs` order, and shared items are emitted in `rhs`'s relative
 * order. When `lhs` holds duplicates of an item `rhs` also has, they collapse into one.
 */
function mergeLists(
  lhs: readonly unknown[],
  rhs: readonly unknown[],
  mergeItem: (l: unknown, r: unknown) => unknown,
  elementOf: (item: unknown, i: number) => PathElement | undefined,
): unknown[] {
  const index = (list: readonly unknown[]) => {
    const pes: { pe: PathElement; id: string; item: unknown }[] = [];
    const observed = new Map<string, { item: unknown; count: number }>();
    list.forEach((item, i) => {
      const pe = elementOf(item, i);
      if (pe === undefined) return;
      const id = serializePathElement(pe);
      const seen = observed.get(id);
      if (seen === undefined) observed.set(id, { item, count: 1 });
      else seen.count++;
      pes.push({ pe, id, item });
    });
    return { pes, observed };
  };
  const left = index(lhs);
  const right = index(rhs);
  const lhsValue = (id: string): unknown => {
    const seen = left.observed.get(id);
    return seen === undefined || seen.count > 1 ? undefined : seen.item;
  };
  const shared = right.pes.filter((p) => left.observed.has(p.id)).map((p) => p.pe);
  let next = shared.shift();
  const merged = new Set<string>();
  const out: unknown[] = [];
  let li = 0;
  let ri = 0;
  while (li < left.pes.length || ri < right.pes.length) {
    const l = left.pes[li];
    const r = right.pes[ri];
    if (l !== undefined && r !== undefined) {
      if (pathElementsEqual(l.pe, r.pe)) {
        merged.add(l.id);
        out.push(mergeItem(lhsValue(l.id), right.observed.get(r.id)?.item));
        li++;
        ri++;
        next = shared.shift();
        continue;
      }
      if (right.observed.has(l.id) && next !== undefined && !pathElementsEqual(next, l.pe)) {
        li++;
        continue;
      }
    }
    if (l !== undefined) {
      if (!right.observed.has(l.id)) {
        out.push(mergeItem(l.item, undefined));
        li++;
        continue;
      }
      if (merged.has(l.id)) {
        li++;
        continue;
      }
    }
    if (r !== undefined) {
      merged.add(r.id);
      out.push(mergeItem(lhsValue(r.id), right.observed.get(r.id)?.item));
      ri++;
      if (next !== undefined && pathElementsEqual(next, r.pe)) next = shared.shift();
    }
  }
  return out;
}

/**
 * Upstream's `RemoveItems`: drops every field and item that is a member of `set`, descending
 * where `set` has paths below. A map or list left empty by removal disappears (upstream leaves a
 * null, which decoding drops). Returns `undefined` when nothing is left.
 */
export function removeItems(
  value: unknown,
  set: FieldSet,
  ref: TypeRef,
  resolver: TypeResolver,
): unknown {
  if (set.isEmpty()) return value;
  const atom = resolver.atom(ref, value);
  if (atom.kind === "leaf" || atom.atomic) return value;
  if (atom.kind === "list") {
    if (!Array.isArray(value) || value.length === 0) return value;
    const out: unknown[] = [];
    value.forEach((item: unknown, i) => {
      const pe = listItemElement(atom, item, i);
      if (typeof pe === "string") {
        out.push(item);
        return;
      }
      if (set.hasMember(pe)) return;
      const below = set.withPrefix(pe);
      out.push(below.isEmpty() ? item : (removeItems(item, below, atom.item, resolver) ?? {}));
    });
    return out.length === 0 ? undefined : out;
  }
  if (!isPlainObject(value) || Object.keys(value).length === 0) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const pe = toField(k);
    if (set.hasMember(pe)) continue;
    const below = set.withPrefix(pe);
    if (below.isEmpty()) {
      out[k] = v;
      continue;
    }
    const childRef = atom.fields.get(k) ?? atom.element ?? { kind: "untyped" };
    const kept = removeItems(v, below, childRef, resolver);
    if (kept !== undefined) out[k] = kept;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * Upstream's `EnsureNamedFieldsAreMembers`: adds, as members, the declared struct fields that
 * have paths below them (not map keys or list items), so that pruning can drop a struct that
 * lost all its fields.
 */
export function ensureNamedFieldsAreMembers(
  set: FieldSet,
  ref: TypeRef,
  resolver: TypeResolver,
): FieldSet {
  const extra: Path[] = [];
  const walk = (s: FieldSet, r: TypeRef, prefix: Path): void => {
    const atom = resolver.atom(r, {});
    for (const pe of s.childElements) {
      let childRef: TypeRef = { kind: "untyped" };
      if (atom.kind === "map" && pe.kind === "field") {
        const declared = atom.fields.get(pe.name);
        if (declared !== undefined) extra.push([...prefix, pe]);
        childRef = declared ?? atom.element ?? childRef;
      } else if (atom.kind === "list") {
        childRef = atom.item;
      }
      walk(s.withPrefix(pe), childRef, [...prefix, pe]);
    }
  };
  walk(set, ref, []);
  return extra.length === 0 ? set : set.union(FieldSet.fromPaths(extra));
}

/**
 * Drops `null` values of fields whose schema is not `nullable`, as decoding into Go types (or
 * CRD null pruning) does after an apply merged a `null` from the configuration.
 */
export function dropNulls(value: unknown, ref: TypeRef, resolver: TypeResolver): unknown {
  const atom = resolver.atom(ref, value);
  if (atom.kind === "leaf" || atom.atomic) return value;
  if (atom.kind === "list") {
    return Array.isArray(value) ? value.map((item) => dropNulls(item, atom.item, resolver)) : value;
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const childRef = atom.fields.get(k) ?? atom.element ?? { kind: "untyped" };
    if (v === null && !isNullable(childRef, resolver)) continue;
    out[k] = dropNulls(v, childRef, resolver);
  }
  return out;
}

function isNullable(ref: TypeRef, resolver: TypeResolver): boolean {
  if (ref.kind !== "schema") return true;
  return resolver.nullable(ref);
}

/**
 * Upstream's prune: removes what the applier owned last time (`last`) and no longer applies,
 * then adds back whatever any manager (the applier's new set included, in `owned`) still owns
 * and whatever the applier never owned.
 */
export function prune(
  merged: unknown,
  owned: FieldSet,
  last: FieldSet | undefined,
  resolver: TypeResolver,
): unknown {
  if (last === undefined || last.isEmpty()) return merged;
  const root = resolver.root;
  const named = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, root, resolver);
  const fieldsOf = (v: unknown): FieldSet => named(toFieldSet(v ?? {}, root, resolver));
  const lastNamed = named(last);
  const mergedSet = fieldsOf(merged);
  const firstCut = removeItems(merged, lastNamed, root, resolver);
  const ownedBack = removeItems(
    merged,
    mergedSet.difference(fieldsOf(firstCut).union(named(owned))),
    root,
    resolver,
  );
  const dangling = mergedSet.difference(fieldsOf(ownedBack)).intersection(lastNamed);
  return removeItems(merged, dangling, root, resolver) ?? {};
}
