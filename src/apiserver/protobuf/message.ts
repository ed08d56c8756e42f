// Schema-driven decoding of one message into the JSON Go's encoding/json would print for it.
//
// The rules, per field (see FieldSpec):
// - pointer fields print exactly when they were on the wire (even when zero); when absent they
//   are left out, or print `null` if the Go tag has no omitempty;
// - value scalars print unless they are zero and omitempty;
// - value messages always print (encoding/json never omits a struct), built from empty bytes
//   when absent; Time prints `null` when zero;
// - slices and maps are left out when empty and omitempty, otherwise print `null` when empty
//   (protobuf never yields an empty non-nil Go slice); map keys print sorted, as Go sorts them;
// - inline fields print their message's fields in place.
// Singular message fields seen more than once are merged (their bytes concatenated, which is
// protobuf's merge); singular scalars keep the last value. Unknown field numbers are skipped.

import type { FieldSpec, MessageName, MessageSpec, ScalarKind, ValueKind } from "./schema.ts";
import { isScalarKind, isSpecialKind } from "./schema.ts";
import { specialToJson } from "./special.ts";
import { readPacked, WireError, WireReader, wireType } from "./wire.ts";

/** Looks up a message by name; the registry is passed in so tests can use small tables. */
export type MessageLookup = (name: MessageName) => MessageSpec | undefined;

type Raw = Uint8Array | string | number | boolean;

const empty = new Uint8Array(0);

function goFieldName(json: string): string {
  return json.charAt(0).toUpperCase() + json.slice(1);
}

function wrongWireType(type: number, field: FieldSpec): WireError {
  return new WireError(`proto: wrong wireType = ${type} for field ${goFieldName(field.json)}`);
}

function readScalar(reader: WireReader, kind: ScalarKind): Raw {
  switch (kind) {
    case "string":
      return reader.string();
    case "bytes":
      return reader.bytes();
    case "bool":
      return reader.bool();
    case "int32":
      return reader.int32();
    case "int64":
      return reader.int64();
  }
}

function isVarintKind(kind: ValueKind): boolean {
  return kind === "bool" || kind === "int32" || kind === "int64";
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] ?? empty;
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
}

function isZero(value: unknown): boolean {
  return value === "" || value === 0 || value === false;
}

/** Reads every occurrence of each known field: values for scalars, byte chunks otherwise. */
function collect(bytes: Uint8Array, spec: MessageSpec): Map<number, Raw[]> {
  const byNumber = new Map(spec.map((f) => [f.number, f] as const));
  const seen = new Map<number, Raw[]>();
  const reader = new WireReader(bytes);
  while (!reader.done()) {
    const tag = reader.tag();
    const field = byNumber.get(tag.field);
    if (field === undefined) {
      reader.skip(tag.wireType);
      continue;
    }
    let values = seen.get(field.number);
    if (values === undefined) {
      values = [];
      seen.set(field.number, values);
    }
    const scalar = field.shape !== "map" && isScalarKind(field.kind) ? field.kind : undefined;
    if (scalar !== undefined && isVarintKind(scalar)) {
      if (tag.wireType === wireType.varint) {
        values.push(readScalar(reader, scalar));
      } else if (tag.wireType === wireType.bytes && field.shape === "repeated") {
        values.push(...readPacked(reader.bytes(), (r) => readScalar(r, scalar) as number));
      } else {
        throw wrongWireType(tag.wireType, field);
      }
    } else if (tag.wireType !== wireType.bytes) {
      throw wrongWireType(tag.wireType, field);
    } else if (scalar !== undefined) {
      values.push(readScalar(reader, scalar));
    } else {
      values.push(reader.bytes());
    }
  }
  return seen;
}

/** A single value of `kind` from its raw form (a scalar, or the bytes of a message). */
function valueToJson(kind: ValueKind, raw: Raw, lookup: MessageLookup): unknown {
  if (isScalarKind(kind)) return raw instanceof Uint8Array ? base64(raw) : raw;
  const bytes = raw instanceof Uint8Array ? raw : empty;
  if (isSpecialKind(kind)) return specialToJson(kind, bytes);
  return decodeMessage(bytes, kind, lookup);
}

function zeroRaw(kind: ValueKind): Raw {
  switch (kind) {
    case "string":
      return "";
    case "bool":
      return false;
    case "int32":
    case "int64":
      return 0;
    default:
      return empty;
  }
}

/** Decodes one map entry message {key = 1, value = 2} into [key, JSON value]. */
function mapEntry(bytes: Uint8Array, field: FieldSpec, lookup: MessageLookup): [string, unknown] {
  const entrySpec: MessageSpec = [
    { ...field, number: 1, json: "key", kind: "string", shape: "single" },
    { ...field, number: 2, json: "value", shape: "single" },
  ];
  const seen = collect(bytes, entrySpec);
  const keys = seen.get(1) ?? [];
  const key = keys[keys.length - 1] ?? "";
  const values = seen.get(2) ?? [];
  const value = isScalarKind(field.kind)
    ? (values[values.length - 1] ?? zeroRaw(field.kind))
    : concat(values as Uint8Array[]);
  return [String(key), valueToJson(field.kind, value, lookup)];
}

function emitField(
  out: Record<string, unknown>,
  field: FieldSpec,
  values: readonly Raw[] | undefined,
  lookup: MessageLookup,
): void {
  const present = values !== undefined && values.length > 0;
  switch (field.shape) {
    case "inline": {
      const bytes = present ? concat(values as Uint8Array[]) : empty;
      Object.assign(out, decodeMessage(bytes, field.kind, lookup));
      return;
    }
    case "repeated": {
      if (!present) {
        if (!field.omitEmpty) out[field.json] = null;
        return;
      }
      out[field.json] = values.map((v) => valueToJson(field.kind, v, lookup));
      return;
    }
    case "map": {
      if (!present) {
        if (!field.omitEmpty) out[field.json] = null;
        return;
      }
      const entries = new Map(values.map((v) => mapEntry(v as Uint8Array, field, lookup)));
      const sorted: Record<string, unknown> = {};
      for (const key of [...entries.keys()].sort()) sorted[key] = entries.get(key);
      out[field.json] = sorted;
      return;
    }
    case "single": {
      const scalar = isScalarKind(field.kind);
      if (!present) {
        if (field.pointer) {
          if (!field.omitEmpty) out[field.json] = null;
          return;
        }
        if (scalar) {
          if (field.kind === "bytes") {
            if (!field.omitEmpty) out[field.json] = null;
            return;
          }
          const zero = zeroRaw(field.kind);
          if (!field.omitEmpty) out[field.json] = zero;
          return;
        }
        out[field.json] = valueToJson(field.kind, empty, lookup);
        return;
      }
      const raw = scalar ? (values[values.length - 1] as Raw) : concat(values as Uint8Array[]);
      const json = valueToJson(field.kind, raw, lookup);
      if (!field.pointer && scalar && field.omitEmpty && isZero(json)) return;
      out[field.json] = json;
      return;
    }
  }
}

/** Decodes `bytes` as message `name` into its JSON form. Throws WireError on malformed data. */
export function decodeMessage(
  bytes: Uint8Array,
  name: MessageName,
  lookup: MessageLookup,
): Record<string, unknown> {
  const spec = lookup(name);
  if (spec === undefined) throw new TypeError(`Unknown protobuf message "${name}"`);
  const seen = collect(bytes, spec);
  const out: Record<string, unknown> = {};
  for (const field of spec) emitField(out, field, seen.get(field.number), lookup);
  return out;
}
