// JSON forms of the apimachinery types whose protobuf message differs from their JSON:
// meta/v1 Time, api/resource Quantity, util/intstr IntOrString and meta/v1 FieldsV1. Each takes
// the bytes of the message (empty when the field was absent) and returns what Go's
// encoding/json prints for the value the upstream unmarshaller would produce.

import type { SpecialKind } from "./schema.ts";
import { WireError, WireReader, wireType } from "./wire.ts";

/** Seconds of Go's zero time (0001-01-01T00:00:00Z) since the Unix epoch. */
const goZeroTimeSeconds = -62135596800;
/** 0000-01-01T00:00:00Z: the first second Go's Time.MarshalJSON accepts. */
const minJsonTimeSeconds = -62167219200;
/** 9999-12-31T23:59:59Z: the last second Go's Time.MarshalJSON accepts. */
const maxJsonTimeSeconds = 253402300799;

/** Upstream's ErrFormatWrong, returned when a quantity string does not parse. */
export const quantityFormatMessage =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

// The same grammar as resource.ParseQuantity: a signed decimal, then a binary SI suffix,
// a decimal SI suffix, or a decimal exponent.
const quantityPattern =
  /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;

function expect(actual: number, wanted: number, field: string): void {
  if (actual !== wanted)
    throw new WireError(`proto: wrong wireType = ${actual} for field ${field}`);
}

/**
 * meta/v1 Time. Upstream's Unmarshal keeps whole seconds only (nanos are dropped) and an empty
 * message is the zero time, which JSON prints as `null`.
 */
export function timeToJson(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return null;
  const reader = new WireReader(bytes);
  let seconds = 0;
  while (!reader.done()) {
    const tag = reader.tag();
    if (tag.field === 1) {
      expect(tag.wireType, wireType.varint, "Seconds");
      seconds = reader.int64();
    } else {
      reader.skip(tag.wireType);
    }
  }
  if (seconds === goZeroTimeSeconds) return null;
  if (seconds < minJsonTimeSeconds || seconds > maxJsonTimeSeconds) {
    throw new WireError("Time.MarshalJSON: year outside of range [0,9999]");
  }
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 19)}Z`;
}

/**
 * api/resource Quantity. The string must parse as a quantity; an empty message is zero ("0").
 * The string is kept as sent: kubectl sends the canonical form already.
 */
export function quantityToJson(bytes: Uint8Array): string {
  const reader = new WireReader(bytes);
  let value: string | undefined;
  while (!reader.done()) {
    const tag = reader.tag();
    if (tag.field === 1) {
      expect(tag.wireType, wireType.bytes, "String_");
      value = reader.string();
    } else {
      reader.skip(tag.wireType);
    }
  }
  if (value === undefined) return "0";
  if (!quantityPattern.test(value)) throw new WireError(quantityFormatMessage);
  return value;
}

/** util/intstr IntOrString: type 0 prints intVal, type 1 prints strVal. */
export function intOrStringToJson(bytes: Uint8Array): number | string {
  const reader = new WireReader(bytes);
  let type = 0;
  let intVal = 0;
  let strVal = "";
  while (!reader.done()) {
    const tag = reader.tag();
    switch (tag.field) {
      case 1:
        expect(tag.wireType, wireType.varint, "Type");
        type = reader.int64();
        break;
      case 2:
        expect(tag.wireType, wireType.varint, "IntVal");
        intVal = reader.int32();
        break;
      case 3:
        expect(tag.wireType, wireType.bytes, "StrVal");
        strVal = reader.string();
        break;
      default:
        reader.skip(tag.wireType);
    }
  }
  if (type === 0) return intVal;
  if (type === 1) return strVal;
  throw new WireError("impossible IntOrString.Type");
}

/** meta/v1 FieldsV1: the raw bytes are a JSON document, printed as is. */
export function fieldsV1ToJson(bytes: Uint8Array): unknown {
  const reader = new WireReader(bytes);
  let raw: Uint8Array | undefined;
  while (!reader.done()) {
    const tag = reader.tag();
    if (tag.field === 1) {
      expect(tag.wireType, wireType.bytes, "Raw");
      raw = reader.bytes();
    } else {
      reader.skip(tag.wireType);
    }
  }
  if (raw === undefined || raw.length === 0) return null;
  try {
    return JSON.parse(new TextDecoder().decode(raw)) as unknown;
  } catch {
    throw new WireError("FieldsV1 holds invalid JSON");
  }
}

/** Converts a special type's message bytes to JSON. */
export function specialToJson(kind: SpecialKind, bytes: Uint8Array): unknown {
  switch (kind) {
    case "Time":
      return timeToJson(bytes);
    case "Quantity":
      return quantityToJson(bytes);
    case "IntOrString":
      return intOrStringToJson(bytes);
    case "FieldsV1":
      return fieldsV1ToJson(bytes);
  }
}
