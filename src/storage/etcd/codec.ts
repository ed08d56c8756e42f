import type { IKeyValue } from "etcd3";
import { type JsonObject, jsonCopy } from "../../util/index.ts";
import type { StorageKey, Versioned, WatchEvent } from "../storage.ts";
import type { KeySpace } from "./keys.ts";

/** Values are stored as JSON text, as in the other backends. */
export function encodeValue(value: JsonObject): { text: string; stored: JsonObject } {
  const text = JSON.stringify(value);
  return { text, stored: jsonCopy(value) };
}

/** Parses a stored value; anything but a JSON object under the prefix is a backend fault. */
export function decodeValue(key: StorageKey, value: Buffer): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString());
  } catch (error: unknown) {
    throw new TypeError(`Cannot decode the etcd value of "${key}": it is not JSON`, {
      cause: error,
    });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new TypeError(`Cannot decode the etcd value of "${key}": it is not a JSON object`);
  }
  return parsed as JsonObject;
}

/** etcd's revisions arrive as decimal strings (int64). */
export function revisionOf(text: string | number): number {
  return Number(text);
}

export function toVersioned(keys: KeySpace, kv: IKeyValue): Versioned {
  const key = keys.fromEtcd(kv.key);
  return {
    key,
    value: decodeValue(key, kv.value),
    revision: revisionOf(kv.mod_revision),
    createRevision: revisionOf(kv.create_revision),
  };
}

/** A watch event from etcd's event (requested with prev_kv). */
export function toWatchEvent(
  keys: KeySpace,
  type: "PUT" | "DELETE" | "Put" | "Delete" | string,
  kv: IKeyValue,
  prev: IKeyValue | null | undefined,
): WatchEvent {
  const key = keys.fromEtcd(kv.key);
  const revision = revisionOf(kv.mod_revision);
  if (type.toUpperCase() === "DELETE") {
    // etcd's delete event has an empty kv; the last value comes with prev_kv.
    const prevValue =
      prev?.value === undefined || prev === null ? {} : decodeValue(key, prev.value);
    return { type: "delete", key, revision, prevValue };
  }
  const value = decodeValue(key, kv.value);
  const created = kv.create_revision === kv.mod_revision;
  if (created || prev === null || prev === undefined) {
    return { type: "put", key, value, revision, created };
  }
  return { type: "put", key, value, revision, created, prevValue: decodeValue(key, prev.value) };
}
