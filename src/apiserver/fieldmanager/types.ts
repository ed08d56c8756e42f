import {
  atomicList,
  bool,
  type Definitions,
  int64,
  mapList,
  obj,
  refName,
  resolve,
  type Schema,
  type SchemaRoot,
  setList,
  str,
  stringMap,
  time,
} from "../../api/index.ts";
import { isPlainObject } from "../../util/index.ts";

/**
 * What a position in an object is, the way structured-merge-diff's schema (converted from
 * OpenAPI by kube-openapi's schemaconv) sees it:
 * - `schema`: described by a schema; `preserve` carries `x-kubernetes-preserve-unknown-fields`
 *   down the tree as schemaconv does; `resource` marks a root or embedded object, whose
 *   `apiVersion`, `kind` and `metadata` are known even if the schema leaves them out;
 * - `deduced`: free-form JSON; maps are granular, lists atomic (`__untyped_deduced_`);
 * - `untyped`: free-form JSON owned as a whole (`__untyped_atomic_`, RawExtension).
 */
export type TypeRef =
  | {
      readonly kind: "schema";
      readonly schema: Schema;
      readonly preserve: boolean;
      readonly resource: boolean;
    }
  | { readonly kind: "deduced" }
  | { readonly kind: "untyped" };

/** The shape a walker sees at one position. */
export type Atom =
  | { readonly kind: "leaf" }
  | {
      readonly kind: "list";
      readonly atomic: boolean;
      /** List-map key fields; empty for a set. Meaningless when atomic. */
      readonly keys: readonly string[];
      readonly item: TypeRef;
      /** Schema defaults of the key fields, for items that omit one. */
      readonly keyDefaults: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: "map";
      readonly atomic: boolean;
      /** Declared fields (struct properties). */
      readonly fields: ReadonlyMap<string, TypeRef>;
      /** The type of undeclared keys, or `undefined` when they are not allowed. */
      readonly element: TypeRef | undefined;
    };

/** Resolves schemas against one definitions table. */
export interface TypeResolver {
  readonly root: TypeRef;
  /** The atom at `ref`; `sample` decides the shape of deduced and untyped positions. */
  atom(ref: TypeRef, sample: unknown): Atom;
  /** Whether the schema at `ref` allows `null` (`nullable: true`). */
  nullable(ref: Extract<TypeRef, { kind: "schema" }>): boolean;
}

const rawExtension = "io.k8s.apimachinery.pkg.runtime.RawExtension";
const quantity = "io.k8s.apimachinery.pkg.api.resource.Quantity";

const deduced: TypeRef = { kind: "deduced" };
const untyped: TypeRef = { kind: "untyped" };

/**
 * `metav1.ObjectMeta` as server-side apply sees it, used when a kind's schema does not describe
 * `metadata` itself: labels and annotations are granular maps, finalizers a set, owner references
 * a list-map keyed by `uid`, and `managedFields` atomic.
 */
export const objectMetaSchema: Schema = obj({
  name: str(),
  generateName: str(),
  namespace: str(),
  selfLink: str(),
  uid: str(),
  resourceVersion: str(),
  generation: int64(),
  creationTimestamp: time(),
  deletionTimestamp: time(),
  deletionGracePeriodSeconds: int64(),
  labels: stringMap(),
  annotations: stringMap(),
  ownerReferences: mapList(
    obj({
      apiVersion: str(),
      kind: str(),
      name: str(),
      uid: str(),
      controller: bool(),
      blockOwnerDeletion: bool(),
    }),
    "uid",
  ),
  finalizers: setList(str()),
  managedFields: atomicList(
    obj({
      manager: str(),
      operation: str(),
      apiVersion: str(),
      time: time(),
      fieldsType: str(),
      fieldsV1: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      subresource: str(),
    }),
  ),
});

/**
 * A resolver for objects described by `root`. It remembers the atom of every schema position it
 * has resolved (keyed by the `TypeRef`, whose children are the same objects on every visit), so
 * one resolver kept per schema resolves each position once; `root` must not change afterwards.
 */
export function newTypeResolver(root: SchemaRoot): TypeResolver {
  const definitions = root.definitions;
  // A schema position's atom never depends on the sample, except for a schema with no type at
  // all, which is free-form (deduced) and stored as `undefined`.
  const atoms = new WeakMap<TypeRef, Atom | undefined>();
  const nullables = new WeakMap<TypeRef, boolean>();
  return {
    root: { kind: "schema", schema: root.schema, preserve: false, resource: true },
    atom: (ref, sample) => {
      if (ref.kind !== "schema") return atomOf(ref, sample, definitions);
      let atom = atoms.get(ref);
      if (atom === undefined && !atoms.has(ref)) {
        atom = schemaAtom(ref.schema, ref.preserve, ref.resource, definitions);
        atoms.set(ref, atom);
      }
      return atom ?? deducedAtom(sample);
    },
    nullable: (ref) => {
      let nullable = nullables.get(ref);
      if (nullable === undefined) {
        nullable = resolve(ref.schema, definitions).nullable === true;
        nullables.set(ref, nullable);
      }
      return nullable;
    },
  };
}

const leafAtom: Atom = { kind: "leaf" };
const deducedMapAtom: Atom = { kind: "map", atomic: false, fields: new Map(), element: deduced };

/** A free-form position: a granular map when the sample is an object, else a leaf. */
function deducedAtom(sample: unknown): Atom {
  return isPlainObject(sample) ? deducedMapAtom : leafAtom;
}

function atomOf(ref: TypeRef, sample: unknown, definitions: Definitions): Atom {
  switch (ref.kind) {
    case "untyped":
      return leafAtom;
    case "deduced":
      return deducedAtom(sample);
    case "schema":
      return schemaAtom(ref.schema, ref.preserve, ref.resource, definitions) ?? deducedAtom(sample);
  }
}

/** The atom of a schema position; `undefined` for a schema with no type (free-form). */
function schemaAtom(
  raw: Schema,
  inherited: boolean,
  resource: boolean,
  definitions: Definitions,
): Atom | undefined {
  const name = refName(raw);
  if (name === rawExtension) return leafAtom;
  if (name === quantity) return leafAtom;
  const schema = resolve(raw, definitions);
  if (schema["x-kubernetes-int-or-string"] === true) return leafAtom;
  const preserve = inherited || schema["x-kubernetes-preserve-unknown-fields"] === true;
  const child = (s: Schema): TypeRef => ({
    kind: "schema",
    schema: s,
    preserve,
    resource: resolve(s, definitions)["x-kubernetes-embedded-resource"] === true,
  });

  if (schema.type === "array" || (schema.type === undefined && schema.items !== undefined)) {
    const items = schema.items;
    const item = items === undefined ? untyped : child(items);
    const { atomic, keys } = listRelationship(schema);
    const itemProperties = items === undefined ? undefined : resolve(items, definitions).properties;
    const keyDefaults: Record<string, unknown> = {};
    for (const k of keys) {
      const d = itemProperties?.[k]?.default;
      if (d !== undefined) keyDefaults[k] = d;
    }
    return { kind: "list", atomic, keys, item, keyDefaults };
  }

  const isObject =
    schema.type === "object" ||
    schema.properties !== undefined ||
    schema.additionalProperties !== undefined ||
    resource;
  if (isObject) {
    const fields = new Map<string, TypeRef>();
    for (const [k, s] of Object.entries(schema.properties ?? {})) fields.set(k, child(s));
    if (resource) addResourceFields(fields, definitions);
    const declared = Object.keys(schema.properties ?? {}).length > 0;
    const additional = schema.additionalProperties;
    let element: TypeRef | undefined;
    if (additional === undefined) element = preserve || !declared ? deduced : undefined;
    else if (additional === true) element = deduced;
    else if (additional === false) element = undefined;
    else element = child(additional);
    return { kind: "map", atomic: schema["x-kubernetes-map-type"] === "atomic", fields, element };
  }

  if (schema.type !== undefined) return leafAtom;
  // No type at all: free-form, like schemaconv's deduced type.
  return undefined;
}

function addResourceFields(fields: Map<string, TypeRef>, definitions: Definitions): void {
  const string: TypeRef = { kind: "schema", schema: str(), preserve: false, resource: false };
  if (!fields.has("apiVersion")) fields.set("apiVersion", string);
  if (!fields.has("kind")) fields.set("kind", string);
  const meta = fields.get("metadata");
  const described =
    meta?.kind === "schema" &&
    Object.keys(resolve(meta.schema, definitions).properties ?? {}).length > 0;
  if (!described) {
    fields.set("metadata", {
      kind: "schema",
      schema: objectMetaSchema,
      preserve: false,
      resource: false,
    });
  }
}

/** kube-openapi's list relationship: list-type first, then a `merge` patch strategy. */
function listRelationship(schema: Schema): { atomic: boolean; keys: readonly string[] } {
  const listType = schema["x-kubernetes-list-type"];
  if (listType === "atomic") return { atomic: true, keys: [] };
  if (listType === "set") return { atomic: false, keys: [] };
  if (listType === "map")
    return { atomic: false, keys: schema["x-kubernetes-list-map-keys"] ?? [] };
  const strategy = schema["x-kubernetes-patch-strategy"];
  if (strategy === "merge" || strategy === "merge,retainKeys") {
    const mergeKey = schema["x-kubernetes-patch-merge-key"];
    return { atomic: false, keys: mergeKey === undefined ? [] : [mergeKey] };
  }
  return { atomic: true, keys: [] };
}
