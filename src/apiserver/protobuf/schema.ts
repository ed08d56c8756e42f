// Message descriptors as data. Each message is a list of fields, each saying where the value sits
// on the wire (field number, kind) and how Go's encoding/json would print the decoded Go value
// (JSON name, pointer or value, omitempty or not). Field numbers come from upstream's
// generated.proto files; pointer/omitempty come from the Go struct tags in k8s.io/api.

/** Wire scalars as Kubernetes uses them (no floats, no unsigned, no zigzag). */
export type ScalarKind = "string" | "bool" | "int32" | "int64" | "bytes";

/**
 * apimachinery types whose JSON form differs from their message shape:
 * - `Time`: {seconds, nanos} → RFC 3339 in whole seconds (`null` when zero);
 * - `Quantity`: {string} → the string ("0" when empty);
 * - `IntOrString`: {type, intVal, strVal} → a number or a string;
 * - `FieldsV1`: {Raw} → the embedded JSON document.
 */
export type SpecialKind = "Time" | "Quantity" | "IntOrString" | "FieldsV1";

export const specialKinds: readonly SpecialKind[] = ["Time", "Quantity", "IntOrString", "FieldsV1"];

/** What one value is: a scalar, a special type, or the name of a message in the registry. */
export type ValueKind = ScalarKind | SpecialKind | MessageName;

/** A message name, unqualified (`Container`, `ObjectMeta`); unique across every table. */
export type MessageName = string;

/** One field of a message. */
export interface FieldSpec {
  readonly number: number;
  /** The JSON (Go struct tag) name. */
  readonly json: string;
  readonly kind: ValueKind;
  /**
   * `repeated` is a Go slice; `map` is a Go map with string keys (proto map entries); `inline` is
   * an embedded struct (`json:",inline"`) whose fields print in the enclosing object.
   */
  readonly shape: "single" | "repeated" | "map" | "inline";
  /** A Go pointer: present in JSON exactly when the field was on the wire, even if zero. */
  readonly pointer: boolean;
  /** `json:",omitempty"`: zero scalars and empty slices/maps are left out. */
  readonly omitEmpty: boolean;
}

export type MessageSpec = readonly FieldSpec[];

/** Messages by name. Every group contributes one table; the registry merges them. */
export type MessageTable = Readonly<Record<MessageName, MessageSpec>>;

/** Options for the builders below. */
export interface FieldOptions {
  /** The Go tag has no `omitempty`: zero values print, absent slices/maps/pointers print `null`. */
  readonly keep?: boolean;
}

function build(
  number: number,
  json: string,
  kind: ValueKind,
  shape: FieldSpec["shape"],
  pointer: boolean,
  options: FieldOptions,
): FieldSpec {
  return { number, json, kind, shape, pointer, omitEmpty: options.keep !== true };
}

/** A value field (`Name string`, `Spec PodSpec`). */
export function val(
  number: number,
  json: string,
  kind: ValueKind,
  options: FieldOptions = {},
): FieldSpec {
  return build(number, json, kind, "single", false, options);
}

/** A pointer field (`Replicas *int32`, `SecurityContext *SecurityContext`). */
export function ptr(
  number: number,
  json: string,
  kind: ValueKind,
  options: FieldOptions = {},
): FieldSpec {
  return build(number, json, kind, "single", true, options);
}

/** A slice field (`Containers []Container`). */
export function list(
  number: number,
  json: string,
  kind: ValueKind,
  options: FieldOptions = {},
): FieldSpec {
  return build(number, json, kind, "repeated", false, options);
}

/** A map field with string keys (`Labels map[string]string`, `Limits ResourceList`). */
export function map(
  number: number,
  json: string,
  kind: ValueKind,
  options: FieldOptions = {},
): FieldSpec {
  return build(number, json, kind, "map", false, options);
}

/** An embedded message printed inline (`LocalObjectReference \`json:",inline"\``). */
export function inline(number: number, kind: MessageName): FieldSpec {
  return build(number, "", kind, "inline", false, {});
}

/** Shorthand for `{ keep: true }`: the Go tag has no omitempty. */
export const keep: FieldOptions = { keep: true };

/** True for the scalar kinds. */
export function isScalarKind(kind: ValueKind): kind is ScalarKind {
  return (
    kind === "string" || kind === "bool" || kind === "int32" || kind === "int64" || kind === "bytes"
  );
}

/** True for the apimachinery special kinds. */
export function isSpecialKind(kind: ValueKind): kind is SpecialKind {
  return (specialKinds as readonly string[]).includes(kind);
}
