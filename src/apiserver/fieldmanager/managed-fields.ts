import {
  ApiError,
  badRequest,
  type ManagedFieldsEntry,
  type SchemaRoot,
  withoutManagedFields,
} from "../../api/index.ts";
import { errorMessage, isPlainObject, type Json, type JsonObject } from "../../util/index.ts";
import { ConflictsError, conflictError, conflictsFrom } from "./conflict.ts";
import { type CreatedFields, type CreatedPart, CreateMemo, createPartKey } from "./create-memo.ts";
import { type ChildNode, FieldSet } from "./field-set.ts";
import {
  allowedConflictsFromLastApplied,
  kubectlApplyManager,
  updateLastApplied,
} from "./last-applied.ts";
import {
  capUpdateManagers,
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  keepTimestampsIfUnchanged,
  type ManagerIdentity,
  type Managers,
  managerIdentifier,
} from "./managers.ts";
import { dropNulls, mergeValues, prune } from "./merge.ts";
import { compareStrings, field, type PathElement, serializePathElement } from "./path-element.ts";
import {
  addedFields,
  addedFieldsBelow,
  type Comparison,
  compareValues,
  isSame,
  jsonEqual,
  TypedValueError,
  toFieldSet,
} from "./typed.ts";
import { newTypeResolver, type TypeResolver } from "./types.ts";

/** Input of a non-apply write (create, update, patch): operation "Update". */
export interface UpdateManagedFieldsInput {
  /** The stored object, `undefined` on create. */
  readonly live: JsonObject | undefined;
  /** The object about to be stored; its `metadata.managedFields` is what the client sent. */
  readonly updated: JsonObject;
  readonly manager: string;
  /** `v1`, `apps/v1`: the version the request was served at. */
  readonly apiVersion: string;
  /** `status`, `scale`…; absent for the main resource. */
  readonly subresource?: string;
  /** RFC 3339, whole seconds, for the entries this write touches. */
  readonly time: string;
  readonly schema: SchemaRoot;
  /** Fields never tracked (upstream's reset fields). @default `defaultIgnoredFields(subresource)` */
  readonly ignoredFields?: FieldSet;
}

/** Input of a server-side apply (PATCH `application/apply-patch+yaml`). */
export interface ApplyConfigurationInput {
  /** The stored object, `undefined` when the apply creates it. */
  readonly live: JsonObject | undefined;
  /** The configuration sent by the client (its full intent). */
  readonly applied: JsonObject;
  readonly manager: string;
  readonly apiVersion: string;
  /** `force=true`: take conflicting fields over instead of failing. */
  readonly force: boolean;
  readonly time: string;
  readonly schema: SchemaRoot;
  readonly subresource?: string;
  /** @default `defaultIgnoredFields(subresource)` */
  readonly ignoredFields?: FieldSet;
}

/** The object after an apply, and its managed fields. */
export interface ApplyResult {
  /** The merged object, with `metadata.managedFields` set (or removed when empty). */
  readonly object: JsonObject;
  readonly managedFields: ManagedFieldsEntry[];
}

/**
 * Metadata that is never owned (upstream's `stripMetaManager`): removed from the writer's entry
 * after each write, exactly these paths, not what is below them.
 */
export const strippedFields: FieldSet = FieldSet.of(
  [field("apiVersion")],
  [field("kind")],
  [field("metadata")],
  ...["name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation"]
    .concat(["managedFields", "resourceVersion"])
    .map((name) => [field("metadata"), field(name)]),
);

/** `strippedFields` below `f:metadata`. */
const strippedMetadataFields: FieldSet = FieldSet.fromPaths(
  strippedFields
    .paths()
    .filter((path) => path.length === 2)
    .map((path) => path.slice(1)),
);

/**
 * What a registry strategy typically resets (upstream's `GetResetFields`): `status` on the main
 * resource, `spec` on the status subresource, nothing elsewhere. Pass `FieldSet.empty()` for a
 * kind without a status subresource, whose status is written through the main resource.
 */
export function defaultIgnoredFields(subresource: string | undefined): FieldSet {
  if (subresource === undefined || subresource === "") return FieldSet.of([field("status")]);
  if (subresource === "status") return FieldSet.of([field("spec")]);
  return FieldSet.empty();
}

/** The manager kubectl's CSA→SSA upgrade attributes pre-existing fields to. */
export const beforeFirstApplyManager = "before-first-apply";

interface Engine {
  readonly resolver: TypeResolver;
  readonly ignored: FieldSet;
  readonly apiVersion: string;
  readonly subresource: string;
  readonly time: string;
  /** Creates' field sets by object shape; absent where the caller chose the ignored fields. */
  readonly createMemo: CreateMemo | undefined;
}

/**
 * Managed fields after a non-apply write. Fields that were added or changed go to `manager`
 * and leave every other entry; removed fields leave every entry; empty entries are dropped.
 * Client-supplied `metadata.managedFields` replace the live ones when they decode (the JSON
 * patch of kubectl's CSA→SSA migration); `[]` (or `[{}]`) resets tracking, and an existing object
 * without entries stays untracked until its next apply, as upstream does. On a subresource the
 * request's entries are ignored. Never throws for an unreadable object: like upstream's
 * `UpdateNoErrors`, it then returns no entries.
 */
export function updateManagedFields(input: UpdateManagedFieldsInput): ManagedFieldsEntry[] {
  return updateWith(engineOf(input, newTypeResolver(input.schema)), input);
}

function updateWith(engine: Engine, input: UpdateManagedFieldsInput): ManagedFieldsEntry[] {
  const subresource = input.subresource ?? "";
  const requested = metadataOf(input.updated)?.["managedFields"];
  let managers: Managers;
  if (subresource !== "") {
    managers = decodeOrEmpty(metadataOf(input.live)?.["managedFields"]);
  } else if (isResetManagedFields(requested)) {
    managers = new Map();
  } else {
    const live = metadataOf(input.live)?.["managedFields"];
    // A client that sends back the entries it read (a PUT of a fetched object) sends the live
    // ones: decoding those is a lookup once the field manager has seen them.
    managers = decodeOrEmpty(live !== undefined && jsonEqual(requested, live) ? live : requested);
    if (managers.size === 0) managers = decodeOrEmpty(live);
  }
  // An existing object whose tracking was reset (or never started) is not tracked by updates.
  if (managers.size === 0 && input.live !== undefined) return [];
  try {
    const next = withoutManagedFields(input.updated);
    if (input.live === undefined && managers.size === 0) {
      return encodeManagedFields(trackCreate(engine, next, input.manager));
    }
    const live = withoutManagedFields(input.live ?? {});
    return encodeManagedFields(trackUpdate(engine, live, next, managers, input.manager));
  } catch (error: unknown) {
    if (error instanceof TypedValueError) return [];
    throw error;
  }
}

/**
 * Server-side apply: merges `applied` into `live`, removes what `manager` applied last time and
 * omits now (unless someone else owns it), and records `manager`'s Apply entry. Throws a 409
 * `ApiError` with upstream's message and `FieldManagerConflict` causes when the configuration
 * changes a field another manager owns, unless `force`. For manager `kubectl`, conflicts with
 * fields the last-applied annotation shows as client-side applied are taken over silently, and
 * that annotation is kept in sync, as upstream does for `kubectl apply --server-side`.
 */
export function applyConfiguration(input: ApplyConfigurationInput): ApplyResult {
  return applyWith(engineOf(input, newTypeResolver(input.schema)), input);
}

function applyWith(engine: Engine, input: ApplyConfigurationInput): ApplyResult {
  const appliedMeta = metadataOf(input.applied);
  if (appliedMeta?.["managedFields"] !== undefined && appliedMeta["managedFields"] !== null) {
    throw badRequest("metadata.managedFields must be nil");
  }
  const patchVersion =
    typeof input.applied["apiVersion"] === "string" ? input.applied["apiVersion"] : "";
  if (patchVersion !== input.apiVersion) {
    throw badRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${patchVersion}, expected: ${input.apiVersion}`,
    );
  }
  let managers: Managers;
  try {
    managers = decodeManagedFields(metadataOf(input.live)?.["managedFields"]);
  } catch (error: unknown) {
    throw new ApiError(
      500,
      "InternalError",
      `failed to decode managed fields: ${messageOf(error)}`,
    );
  }
  const live = withoutManagedFields(input.live ?? {});
  const applied = input.applied;
  try {
    toFieldSet(applied, engine.resolver.root, engine.resolver, { strict: true });
  } catch (error: unknown) {
    if (!(error instanceof TypedValueError)) throw error;
    throw new ApiError(
      500,
      "InternalError",
      `failed to create typed patch object (${objectGvkNn(applied)}): ${error.message}`,
    );
  }
  if (managers.size === 0 && input.live !== undefined) {
    managers = trackUpdate(engine, {}, live, managers, beforeFirstApplyManager);
  }
  let result: { object: unknown; managers: Managers };
  try {
    result = trackApply(engine, live, applied, managers, input.manager, input.force);
  } catch (error: unknown) {
    if (!(error instanceof ConflictsError)) throw error;
    if (input.manager !== kubectlApplyManager) throw conflictError(error.conflicts);
    const allowed = allowedConflictsFromLastApplied(live, input.apiVersion, engine.resolver);
    if (allowed === undefined) throw conflictError(error.conflicts);
    const remaining = error.conflicts.filter((c) => !allowed.has(c.path));
    if (remaining.length > 0) throw conflictError(remaining);
    result = trackApply(engine, live, applied, managers, input.manager, true);
  }
  let object = dropNulls(result.object, engine.resolver.root, engine.resolver) as JsonObject;
  if (input.manager === kubectlApplyManager)
    object = updateLastApplied(object, applied) as JsonObject;
  let managedFields = encodeManagedFields(result.managers);
  const liveFields = metadataOf(input.live)?.["managedFields"];
  if (input.live !== undefined && jsonEqual(withoutManagedFields(object), live)) {
    managedFields = keepTimestampsIfUnchanged(liveFields, managedFields);
  }
  const meta = metadataOf(object);
  if (meta !== undefined) {
    if (managedFields.length > 0) meta["managedFields"] = managedFields as unknown as Json;
    else delete meta["managedFields"];
  }
  return { object, managedFields };
}

/**
 * `updateManagedFields` and `applyConfiguration` with the schema types each resolves kept
 * between calls: the API server holds one for its lifetime, so every write after the first of a
 * kind skips resolving the kind's schema again.
 */
export interface FieldManager {
  update(input: UpdateManagedFieldsInput): ManagedFieldsEntry[];
  apply(input: ApplyConfigurationInput): ApplyResult;
}

/**
 * A `FieldManager` whose resolved types are keyed by `SchemaRoot` object (held weakly): a schema
 * must not be changed in place once used; a changed kind (a CRD update) brings a new root.
 */
export function newFieldManager(): FieldManager {
  const resolved = new WeakMap<SchemaRoot, { resolver: TypeResolver; memo: CreateMemo }>();
  const resolvedOf = (schema: SchemaRoot): { resolver: TypeResolver; memo: CreateMemo } => {
    let entry = resolved.get(schema);
    if (entry === undefined) {
      entry = { resolver: newTypeResolver(schema), memo: new CreateMemo() };
      resolved.set(schema, entry);
    }
    return entry;
  };
  return {
    update: (input) => {
      const { resolver, memo } = resolvedOf(input.schema);
      return updateWith(engineOf(input, resolver, memo), input);
    },
    apply: (input) => applyWith(engineOf(input, resolvedOf(input.schema).resolver), input),
  };
}

function engineOf(
  input: {
    readonly apiVersion: string;
    readonly subresource?: string;
    readonly time: string;
    readonly ignoredFields?: FieldSet;
  },
  resolver: TypeResolver,
  createMemo?: CreateMemo,
): Engine {
  return {
    resolver,
    ignored: input.ignoredFields ?? defaultIgnoredFields(input.subresource),
    apiVersion: input.apiVersion,
    subresource: input.subresource ?? "",
    time: input.time,
    // The memo's sets are the default ignored fields' (which depend on the subresource only).
    createMemo: input.ignoredFields === undefined ? createMemo : undefined,
  };
}

/**
 * Upstream's `Updater.update`: compares the objects and takes every added or changed field away
 * from the other managers (a conflict unless `force`) and every removed field from all of them.
 */
function updateOthers(
  engine: Engine,
  live: unknown,
  next: unknown,
  managers: Managers,
  workflow: string,
  force: boolean,
): { managers: Managers; compare: Comparison } {
  const raw = compareValues(live, next, engine.resolver.root, engine.resolver);
  const compare: Comparison = {
    added: raw.added.recursiveDifference(engine.ignored),
    removed: raw.removed.recursiveDifference(engine.ignored),
    modified: raw.modified.recursiveDifference(engine.ignored),
  };
  const changed = compare.modified.union(compare.added);
  const conflicts = new Map<string, FieldSet>();
  for (const [id, entry] of managers) {
    if (id === workflow) continue;
    const overlap = entry.set.intersection(changed);
    if (!overlap.isEmpty()) conflicts.set(id, overlap);
  }
  if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFrom(conflicts));
  const out: Managers = new Map();
  for (const [id, entry] of managers) {
    let set = entry.set;
    if (id !== workflow) {
      set = set.difference(conflicts.get(id) ?? FieldSet.empty()).difference(compare.removed);
    }
    if (!set.isEmpty()) out.set(id, { ...entry, set });
  }
  return { managers: out, compare };
}

const currentOperation = "current-operation";

/** The Update layers upstream stacks: compare, strip metadata, merge into the writer's entry, cap. */
function trackUpdate(
  engine: Engine,
  live: unknown,
  next: unknown,
  managers: Managers,
  manager: string,
): Managers {
  const { managers: out, compare } = updateOthers(
    engine,
    live,
    next,
    managers,
    currentOperation,
    true,
  );
  if (isSame(compare)) return capUpdateManagers(out);
  const own = compare.modified
    .union(compare.added)
    .difference(compare.removed)
    .recursiveDifference(engine.ignored)
    .difference(strippedFields);
  if (own.isEmpty()) return capUpdateManagers(out);
  const identity: ManagerIdentity = {
    manager,
    operation: "Update",
    apiVersion: engine.apiVersion,
    subresource: engine.subresource,
  };
  const id = managerIdentifier(identity);
  const previous = out.get(id);
  out.set(id, {
    ...identity,
    set: previous === undefined ? own : own.union(previous.set),
    time: engine.time,
    ...(previous?.original === undefined ? {} : { original: previous.original }),
  });
  return capUpdateManagers(out);
}

/**
 * `trackUpdate` of a new object that names no managers: nothing to compare against and nobody
 * to take fields from, so the writer owns every field the object sets, less the ignored and
 * stripped ones. The same entry `trackUpdate(engine, {}, next, new Map(), manager)` makes.
 */
function trackCreate(engine: Engine, next: JsonObject, manager: string): Managers {
  const out: Managers = new Map();
  const created = createdFields(engine, next);
  if (created.set.isEmpty()) return out;
  const identity: ManagerIdentity = {
    manager,
    operation: "Update",
    apiVersion: engine.apiVersion,
    subresource: engine.subresource,
  };
  out.set(managerIdentifier(identity), {
    ...identity,
    set: created.set,
    time: engine.time,
    // Encoded once per shape: the entry's FieldsV1 is the memo's.
    original: created,
  });
  return capUpdateManagers(out);
}

/**
 * The fields a create owns, less the ignored and stripped ones. With the engine's memo, put
 * together top-level field by top-level field from the parts of earlier creates of the same
 * shape (the memo is used only with the default ignored fields, which are top-level fields).
 */
function createdFields(engine: Engine, next: JsonObject): CreatedFields {
  const memo = engine.createMemo;
  if (memo === undefined) {
    const set = addedFields(next, engine.resolver.root, engine.resolver)
      .recursiveDifference(engine.ignored)
      .difference(strippedFields);
    return { set, fieldsV1: set.toFieldsV1() };
  }
  const members: PathElement[] = [];
  const children: ChildNode[] = [];
  const fieldsV1: Record<string, unknown> = {};
  // Sorted as the set's elements are, so the parts go in as they come.
  for (const key of Object.keys(next).sort(compareStrings)) {
    if (next[key] === undefined) continue;
    const pe = field(key);
    if (engine.ignored.hasMember(pe)) continue;
    const partKey = createPartKey(engine.subresource, key, next[key]);
    const part = memo.get(partKey) ?? memo.set(partKey, createdPart(engine, next, key, pe));
    if (part.member) members.push(pe);
    if (!part.below.isEmpty()) children.push({ pe, set: part.below });
    if (part.fieldsV1 !== undefined) fieldsV1[serializePathElement(pe)] = part.fieldsV1;
  }
  return { set: FieldSet.fromSortedParts(members, children), fieldsV1 };
}

/** What a create owns at and below the top-level field `key` (`pe`) of `next`, and its FieldsV1. */
function createdPart(engine: Engine, next: JsonObject, key: string, pe: PathElement): CreatedPart {
  let below = addedFieldsBelow(next, key, engine.resolver.root, engine.resolver);
  if (key === "metadata") below = below.difference(strippedMetadataFields);
  const member = !strippedFields.hasMember(pe);
  const alone = FieldSet.fromSortedParts(
    member ? [pe] : [],
    below.isEmpty() ? [] : [{ pe, set: below }],
  );
  const entry = alone.toFieldsV1()[serializePathElement(pe)];
  return { member, below, fieldsV1: entry as Record<string, unknown> | undefined };
}

/** Upstream's `Updater.Apply` plus the metadata stripping and timestamp layers. */
function trackApply(
  engine: Engine,
  live: unknown,
  applied: unknown,
  managers: Managers,
  manager: string,
  force: boolean,
): { object: unknown; managers: Managers } {
  const { resolver } = engine;
  const identity: ManagerIdentity = {
    manager,
    operation: "Apply",
    apiVersion: engine.apiVersion,
    subresource: engine.subresource,
  };
  const id = managerIdentifier(identity);
  const previous = managers.get(id);
  const set = toFieldSet(applied, resolver.root, resolver, { strict: true }).recursiveDifference(
    engine.ignored,
  );
  const withApplier: Managers = new Map(managers);
  withApplier.set(id, {
    ...identity,
    set,
    time: previous?.time,
    ...(previous?.original === undefined ? {} : { original: previous.original }),
  });
  const merged = mergeValues(live, applied, resolver.root, resolver);
  let owned = FieldSet.empty();
  for (const entry of withApplier.values()) owned = owned.union(entry.set);
  const pruned = prune(merged, owned, previous?.set, resolver);
  const { managers: out } = updateOthers(engine, live, pruned, withApplier, id, force);
  const mine = out.get(id);
  if (mine !== undefined) {
    const kept = mine.set.difference(strippedFields);
    if (kept.isEmpty()) out.delete(id);
    else out.set(id, { ...mine, set: kept, time: engine.time });
  }
  return { object: pruned, managers: out };
}

function decodeOrEmpty(entries: unknown): Managers {
  try {
    return decodeManagedFields(entries);
  } catch {
    return new Map();
  }
}

function metadataOf(obj: JsonObject | undefined): Record<string, Json> | undefined {
  const meta = obj?.["metadata"];
  return isPlainObject(meta) ? (meta as Record<string, Json>) : undefined;
}

/** `ns/name; group/version, Kind=Kind`, as upstream identifies the object in typed errors. */
function objectGvkNn(obj: JsonObject): string {
  const meta = metadataOf(obj);
  const text = (v: unknown): string => (typeof v === "string" ? v : "");
  const apiVersion = text(obj["apiVersion"]);
  const gv = apiVersion.includes("/") ? apiVersion : `/${apiVersion}`;
  return `${text(meta?.["namespace"])}/${text(meta?.["name"])}; ${gv}, Kind=${text(obj["kind"])}`;
}

function messageOf(error: unknown): string {
  return errorMessage(error);
}
