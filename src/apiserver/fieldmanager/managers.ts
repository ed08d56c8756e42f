import type { ManagedFieldsEntry } from "../../api/index.ts";
import { errorMessage, isPlainObject } from "../../util/index.ts";
import { FieldSet } from "./field-set.ts";
import { goJson } from "./path-element.ts";
import { jsonEqual } from "./typed.ts";

/** Who wrote a set of fields: upstream's manager identity without time and fields. */
export interface ManagerIdentity {
  readonly manager: string;
  readonly operation: "Apply" | "Update";
  /** For Apply entries this is not part of the identity, only the version last applied. */
  readonly apiVersion: string;
  /** `""` for the main resource. */
  readonly subresource: string;
}

/** One decoded `managedFields` entry. */
export interface ManagerEntry extends ManagerIdentity {
  readonly set: FieldSet;
  readonly time: string | undefined;
  /** The entry as decoded, so an unchanged set keeps its FieldsV1 byte for byte. */
  readonly original?: { readonly fieldsV1: Record<string, unknown>; readonly set: FieldSet };
}

/** Entries keyed by `managerIdentifier`; at most one per identity. */
export type Managers = Map<string, ManagerEntry>;

/**
 * Upstream's `BuildManagerIdentifier`: the entry as JSON without fields, time and (for Apply)
 * apiVersion. Apply entries of one manager therefore share an identity across versions, Update
 * entries have one per (manager, apiVersion, subresource).
 */
export function managerIdentifier(id: ManagerIdentity): string {
  const parts: string[] = [];
  if (id.manager !== "") parts.push(`"manager":${goJson(id.manager)}`);
  parts.push(`"operation":${goJson(id.operation)}`);
  if (id.operation === "Update" && id.apiVersion !== "") {
    parts.push(`"apiVersion":${goJson(id.apiVersion)}`);
  }
  if (id.subresource !== "") parts.push(`"subresource":${goJson(id.subresource)}`);
  return `{${parts.join(",")}}`;
}

/**
 * The sets of FieldsV1 objects nobody changes: those `encodeManagedFields` made and storage's
 * copies of them (`carryDecodedSets`). Decoding an object's managedFields on its next write then
 * costs a lookup per entry instead of a walk of every field path.
 */
const decodedSets = new WeakMap<object, FieldSet>();

function knownSet(fieldsV1: unknown): FieldSet | undefined {
  return typeof fieldsV1 === "object" && fieldsV1 !== null ? decodedSets.get(fieldsV1) : undefined;
}

/**
 * After a write: `stored` holds storage's copy of the `written` entries (same order), so each
 * stored FieldsV1 decodes to the set its written original was encoded from. A written entry the
 * field manager did not encode (a write that keeps the managedFields, such as a binding, stores a
 * copy of the previous ones) decodes to the set of the `previous` entry at the same place when
 * the two are equal.
 */
export function carryDecodedSets(written: unknown, stored: unknown, previous?: unknown): void {
  if (!Array.isArray(written) || !Array.isArray(stored) || written.length !== stored.length) return;
  for (let i = 0; i < written.length; i++) {
    const fieldsV1 = fieldsV1Of(written[i]);
    const copy = fieldsV1Of(stored[i]);
    if (typeof copy !== "object" || copy === null) continue;
    const set = knownSet(fieldsV1) ?? setOfEqual(fieldsV1, previous, i);
    if (set !== undefined) decodedSets.set(copy, set);
  }
}

function fieldsV1Of(entry: unknown): unknown {
  return (entry as { fieldsV1?: unknown } | undefined)?.fieldsV1;
}

/** The known set of `previous[i]`'s FieldsV1 when that equals `fieldsV1`. */
function setOfEqual(fieldsV1: unknown, previous: unknown, i: number): FieldSet | undefined {
  if (!Array.isArray(previous)) return undefined;
  const before = fieldsV1Of(previous[i]);
  const set = knownSet(before);
  return set !== undefined && jsonEqual(before, fieldsV1) ? set : undefined;
}

/**
 * Decodes `metadata.managedFields`, rejecting what upstream rejects (an operation other than
 * Apply or Update, an empty apiVersion, a fieldsType other than FieldsV1, a malformed trie).
 * Throws `Error` with upstream's message.
 */
export function decodeManagedFields(entries: unknown): Managers {
  const managers: Managers = new Map();
  if (entries === undefined || entries === null) return managers;
  if (!Array.isArray(entries)) throw new Error("managedFields must be a list");
  entries.forEach((raw: unknown, i) => {
    if (!isPlainObject(raw)) throw new Error(`managed fields entry ${i} must be an object`);
    const operation = raw["operation"];
    if (operation !== "Apply" && operation !== "Update") {
      throw new Error("operation must be `Apply` or `Update`");
    }
    const apiVersion = typeof raw["apiVersion"] === "string" ? raw["apiVersion"] : "";
    if (apiVersion === "") throw new Error("apiVersion must not be empty");
    const fieldsType = raw["fieldsType"];
    if (fieldsType === undefined || fieldsType === "") {
      throw new Error(`missing fieldsType in managed fields entry ${i}`);
    }
    if (fieldsType !== "FieldsV1") {
      throw new Error(
        `invalid fieldsType ${goJson(String(fieldsType))} in managed fields entry ${i}`,
      );
    }
    let set: FieldSet;
    try {
      set = knownSet(raw["fieldsV1"]) ?? FieldSet.fromFieldsV1(raw["fieldsV1"]);
    } catch (error: unknown) {
      const reason = errorMessage(error);
      throw new Error(
        `error decoding versioned set from entry ${i}: error decoding set: ${reason}`,
      );
    }
    const identity: ManagerIdentity = {
      manager: typeof raw["manager"] === "string" ? raw["manager"] : "",
      operation,
      apiVersion,
      subresource: typeof raw["subresource"] === "string" ? raw["subresource"] : "",
    };
    const fieldsV1 = raw["fieldsV1"];
    const entry: ManagerEntry = {
      ...identity,
      set,
      time: typeof raw["time"] === "string" ? raw["time"] : undefined,
      ...(isPlainObject(fieldsV1) ? { original: { fieldsV1, set } } : {}),
    };
    managers.set(managerIdentifier(identity), entry);
  });
  return managers;
}

/**
 * Encodes entries the way upstream stores them: Apply before Update, then oldest first (by
 * whole seconds), then by manager, apiVersion and subresource. An entry whose set did not change
 * keeps the FieldsV1 it was decoded from.
 */
export function encodeManagedFields(managers: Managers): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const entry of managers.values()) {
    const encoded: ManagedFieldsEntry = {};
    if (entry.manager !== "") encoded.manager = entry.manager;
    encoded.operation = entry.operation;
    encoded.apiVersion = entry.apiVersion;
    if (entry.time !== undefined) encoded.time = entry.time;
    encoded.fieldsType = "FieldsV1";
    const original = entry.original;
    const fieldsV1 = original?.set.equals(entry.set) ? original.fieldsV1 : entry.set.toFieldsV1();
    decodedSets.set(fieldsV1, entry.set);
    encoded.fieldsV1 = fieldsV1;
    if (entry.subresource !== "") encoded.subresource = entry.subresource;
    out.push(encoded);
  }
  return out.sort(compareEncoded);
}

function compareEncoded(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  const byString = (a: string | undefined, b: string | undefined): number => {
    const x = a ?? "";
    const y = b ?? "";
    return x < y ? -1 : x > y ? 1 : 0;
  };
  return (
    byString(p.operation, q.operation) ||
    secondsOf(p.time) - secondsOf(q.time) ||
    byString(p.manager, q.manager) ||
    byString(p.apiVersion, q.apiVersion) ||
    byString(p.subresource, q.subresource)
  );
}

/** Whole seconds since the epoch, 0 for a missing or unparsable time (Go's zero `Unix()`). */
export function secondsOf(time: string | undefined): number {
  if (time === undefined) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Upstream's cap on Update entries (`DefaultMaxUpdateManagers`). */
export const maxUpdateManagers = 10;

/** The manager name that absorbs the oldest Update entries beyond the cap. */
export const ancientChangesManager = "ancient-changes";

/**
 * Upstream's `capUpdateManagers`: while there are more than `max` Update entries, the oldest are
 * merged into one `ancient-changes` entry per apiVersion, which takes the newer entry's time.
 */
export function capUpdateManagers(managers: Managers, max: number = maxUpdateManagers): Managers {
  const updaters = [...managers.entries()].filter(([, e]) => e.operation === "Update");
  if (updaters.length <= max) return managers;
  updaters.sort(
    ([a, x], [b, y]) => secondsOf(x.time) - secondsOf(y.time) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const out: Managers = new Map(managers);
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (const [id, entry] of updaters) {
    if (length <= max) break;
    const first = firstByVersion.get(entry.apiVersion);
    if (first === undefined) {
      firstByVersion.set(entry.apiVersion, id);
      continue;
    }
    const bucketIdentity: ManagerIdentity = {
      manager: ancientChangesManager,
      operation: "Update",
      apiVersion: entry.apiVersion,
      subresource: "",
    };
    const bucketId = managerIdentifier(bucketIdentity);
    const bucket = out.get(bucketId) ?? out.get(first);
    if (!out.has(bucketId)) out.delete(first);
    out.set(bucketId, {
      ...bucketIdentity,
      set: entry.set.union(bucket?.set ?? FieldSet.empty()),
      time: entry.time,
    });
    out.delete(id);
    length--;
  }
  return out;
}

/**
 * Upstream's `IgnoreManagedFieldsTimestampsTransformer`: when an apply changed nothing but
 * timestamps, the stored entries are kept as they were, so a repeated apply is a no-op write.
 */
export function keepTimestampsIfUnchanged(
  previous: unknown,
  next: ManagedFieldsEntry[],
): ManagedFieldsEntry[] {
  if (!Array.isArray(previous) || previous.length !== next.length) return next;
  const old = previous as ManagedFieldsEntry[];
  const sameButTime = next.every((entry) =>
    old.some((o) => jsonEqual({ ...o, time: undefined }, { ...entry, time: undefined })),
  );
  return sameButTime ? old : next;
}

/** Upstream's `isResetManagedFields`: `[]` or a single empty entry. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  const [only] = entries as unknown[];
  return entries.length === 1 && isPlainObject(only) && Object.keys(only).length === 0;
}
