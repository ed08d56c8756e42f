import { isPlainObject, type JsonObject } from "../../util/index.ts";

/**
 * A stored value's JSON text, and where its `metadata` object closes: the API server serializes
 * an object once, for storage, and answers the request (and its watchers) with the same text plus
 * the resourceVersion (`withResourceVersionJson`) instead of serializing the object again.
 */
export interface ObjectJson {
  /** Exactly `JSON.stringify(value)`. */
  readonly text: string;
  /** The index of the `}` closing the top-level `metadata` object; -1 when there is none. */
  readonly metadataEnd: number;
}

/**
 * FieldsV1 texts by object, for frozen ones only (the parts of a create's, each shared by every
 * object whose top-level field has its shape, see fieldmanager/create-memo.ts): they cannot
 * change, and their keys (`k:{\"name\":…}`) are the slowest part of an object to serialize.
 */
const frozenTexts = new WeakMap<object, string>();

function frozenText(value: object): string {
  let text = frozenTexts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    frozenTexts.set(value, text);
  }
  return text;
}

/** `JSON.stringify(fieldsV1)`, from the frozen parts' texts when it is made of such parts. */
function fieldsV1Text(fieldsV1: unknown): string | undefined {
  if (typeof fieldsV1 !== "object" || fieldsV1 === null) return JSON.stringify(fieldsV1);
  if (Object.isFrozen(fieldsV1)) return frozenText(fieldsV1);
  const parts = fieldsV1 as Record<string, unknown>;
  let text = "{";
  for (const key in parts) {
    const part = parts[key];
    if (typeof part !== "object" || part === null || !Object.isFrozen(part)) {
      return JSON.stringify(fieldsV1);
    }
    text += `${text.length === 1 ? "" : ","}${JSON.stringify(key)}:${frozenText(part)}`;
  }
  return `${text}}`;
}

/**
 * `JSON.stringify(value)` of a value about to be stored, built member by member so that the end of
 * its metadata is known and a create's FieldsV1 is serialized once per shape.
 */
export function objectJson(value: JsonObject): ObjectJson {
  let text = "{";
  let metadataEnd = -1;
  for (const key in value) {
    const member = value[key];
    if (key === "metadata" && isPlainObject(member)) {
      text += `${text.length === 1 ? "" : ","}"metadata":${metadataJson(member)}`;
      metadataEnd = text.length - 1;
      continue;
    }
    const json = JSON.stringify(member);
    if (json === undefined) continue;
    text += `${text.length === 1 ? "" : ","}${JSON.stringify(key)}:${json}`;
  }
  return { text: `${text}}`, metadataEnd };
}

function metadataJson(metadata: Record<string, unknown>): string {
  let text = "{";
  for (const key in metadata) {
    const member = metadata[key];
    const json =
      key === "managedFields" && Array.isArray(member)
        ? managedFieldsJson(member)
        : JSON.stringify(member);
    if (json === undefined) continue;
    text += `${text.length === 1 ? "" : ","}${JSON.stringify(key)}:${json}`;
  }
  return `${text}}`;
}

function managedFieldsJson(entries: readonly unknown[]): string {
  let text = "[";
  for (const entry of entries) {
    if (text.length > 1) text += ",";
    if (!isPlainObject(entry)) {
      text += JSON.stringify(entry) ?? "null";
      continue;
    }
    let item = "{";
    for (const key in entry) {
      const member = entry[key];
      const json = key === "fieldsV1" ? fieldsV1Text(member) : JSON.stringify(member);
      if (json === undefined) continue;
      item += `${item.length === 1 ? "" : ","}${JSON.stringify(key)}:${json}`;
    }
    text += `${item}}`;
  }
  return `${text}]`;
}

/**
 * The JSON of the stored value as the API returns it: with `metadata.resourceVersion` last in its
 * metadata, as `asWritten` and `fromStored` place it (the text of `asWritten(obj, revision)`).
 * `undefined` when the value has no metadata object to put it in.
 */
export function withResourceVersionJson(json: ObjectJson, revision: number): string | undefined {
  const end = json.metadataEnd;
  if (end < 0) return undefined;
  const separator = json.text.charCodeAt(end - 1) === 0x7b /* { */ ? "" : ",";
  return `${json.text.slice(0, end)}${separator}"resourceVersion":"${revision}"${json.text.slice(end)}`;
}

/**
 * Where the top-level `metadata` object of a JSON object text closes, for a text as
 * `JSON.stringify` writes it (no whitespace between tokens); -1 when there is no such member or
 * the text is written otherwise (the caller then serializes the object itself).
 */
export function metadataEndOf(text: string): number {
  if (text.charCodeAt(0) !== 0x7b /* { */) return -1;
  let depth = 0;
  let metadataDepth = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      i = stringEnd(text, i);
      if (i < 0) return -1;
      // A top-level key named metadata whose value is an object.
      if (
        depth === 1 &&
        metadataDepth < 0 &&
        i - start === 9 &&
        text.startsWith('"metadata":{', start) &&
        (text.charCodeAt(start - 1) === 0x7b || text.charCodeAt(start - 1) === 0x2c)
      ) {
        metadataDepth = 2;
      }
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) depth++;
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth === metadataDepth && c === 0x7d) return i;
      depth--;
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return -1;
  }
  return -1;
}

/** The index of the quote closing the string that opens at `open`; -1 if it never closes. */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return -1;
}
