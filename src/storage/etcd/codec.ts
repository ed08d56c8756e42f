import { type JsonObject, jsonCopy } from "../../util/index.ts";
import type { StorageKey, Versioned, WatchEvent } from "../storage.ts";
import type { KeyValue } from "./grpc/messages.ts";
import type { KeySpace } from "./keys.ts";

/** Values are stored as JSON text, as in the other backends; `text` when the caller has it. */
export function encodeValue(
  value: JsonObject,
  text: string = JSON.stringify(value),
): { text: string; stored: JsonObject } {
  return { text, stored: jsonCopy(value) };
}

/** Parses a stored value; anything but a JSON object under the prefix is a backend fault. */
export function decodeValue(key: StorageKey, value: Buffer): JsonObject {
  return decodeText(key, value.toString());
}

function decodeText(key: StorageKey, text: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
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

/** etcd's revisions (int64) arrive as numbers: exact, as they stay below 2^53. */
export function revisionOf(revision: number): number {
  return revision;
}

export function toVersioned(keys: KeySpace, kv: KeyValue): Versioned {
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
  type: "PUT" | "DELETE",
  kv: KeyValue,
  prev: KeyValue | undefined,
): WatchEvent {
  const key = keys.fromEtcd(kv.key);
  const revision = revisionOf(kv.mod_revision);
  if (type === "DELETE") {
    // etcd's delete event has an empty kv; the last value comes with prev_kv.
    const prevValue = prev === undefined ? {} : decodeValue(key, prev.value);
    return { type: "delete", key, revision, prevValue };
  }
  const text = kv.value.toString();
  const value = decodeText(key, text);
  const created = kv.create_revision === kv.mod_revision;
  if (created || prev === undefined) {
    return { type: "put", key, value, revision, created, text };
  }
  const prevValue = decodeValue(key, prev.value);
  return { type: "put", key, value, revision, created, prevValue, text };
}
