import type { Json } from "../../../util/index.ts";
import { isJsonObject } from "./json-values.ts";

/**
 * Go's formatting of decoded JSON values, so that messages built with `%v`, `%s` and
 * `reflect.TypeOf` read exactly as the API server's do. Integers decode as `int64` (the API
 * server decodes patches preserving integers), other numbers as `float64`.
 */

/** `fmt.Sprintf("%v", value)`: `map[a:1 b:[x y]]`, `<nil>`, `true`, `1.5`. */
export function goValue(value: Json | undefined): string {
  if (value === null || value === undefined) return "<nil>";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return goNumber(value);
  if (Array.isArray(value)) return `[${value.map(goValue).join(" ")}]`;
  const keys = Object.keys(value).sort(compareBytes);
  return `map[${keys.map((key) => `${key}:${goValue(value[key])}`).join(" ")}]`;
}

/** `fmt.Sprintf("%s", value)`: strings as they are, anything else flagged as Go does. */
export function goString(value: Json | undefined): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "%!s(<nil>)";
  if (typeof value === "object") return goValue(value);
  return `%!s(${goTypeName(value)}=${goValue(value)})`;
}

/** `reflect.TypeOf(value).String()`, printed with `%s` (`%!s(<nil>)` for null). */
export function goTypeName(value: Json | undefined): string {
  if (value === null || value === undefined) return "%!s(<nil>)";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  if (Array.isArray(value)) return "[]interface {}";
  return "map[string]interface {}";
}

/** The JSON kind `encoding/json` names in `json: cannot unmarshal <kind> into …`. */
export function jsonKindName(value: Json | undefined): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return "number";
  if (Array.isArray(value)) return "array";
  return "object";
}

/** `strconv.Quote` for the common case (JSON escaping agrees with Go's for ASCII). */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

/**
 * Go's `==` on two decoded JSON values held in `interface{}`: equal scalars of the same type.
 * Maps and slices are never equal here (Go would panic comparing them).
 */
export function goEqual(a: Json | undefined, b: Json | undefined): boolean {
  const left = a ?? null;
  const right = b ?? null;
  if (left === null || right === null) return left === right;
  if (typeof left === "object" || typeof right === "object") return false;
  return left === right;
}

/** Which reflect kind a decoded JSON value has, for "same type" checks. */
export function goKind(
  value: Json | undefined,
): "nil" | "string" | "number" | "bool" | "map" | "slice" {
  if (value === null || value === undefined) return "nil";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "slice";
  return isJsonObject(value) ? "map" : "nil";
}

function goNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 2 ** 63) return BigInt(value).toString();
  // %v of a float64 is %g with the shortest digits: exponent form when the exponent is below
  // -4 or at least 6 (strconv's rule for shortest %g), plain digits otherwise.
  const [mantissa = "0", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? "-" : "+";
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return String(value);
}

function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
