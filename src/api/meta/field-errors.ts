import { ApiError, type StatusCause } from "../errors.ts";
import type { FieldPath } from "./field-path.ts";

/** `field.ErrorType` values with the cause reasons upstream puts in `details.causes`. */
export type FieldErrorType =
  | "FieldValueNotFound"
  | "FieldValueRequired"
  | "FieldValueDuplicate"
  | "FieldValueInvalid"
  | "FieldValueNotSupported"
  | "FieldValueForbidden"
  | "FieldValueTooLong"
  | "FieldValueTooMany"
  | "InternalError"
  | "FieldValueTypeInvalid";

/** One validation failure at a field path, as apimachinery's `field.Error`. */
export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  /** The offending value; `undefined` when the message omits it. */
  readonly value?: unknown;
  readonly detail: string;
}

/** The list every validator returns; empty means valid. */
export type FieldErrorList = FieldError[];

/** Prints a value as `field.Error` does: strings quoted, numbers and booleans bare. */
function printValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "null";
  return JSON.stringify(value);
}

/** The message upstream's `ErrorBody()` builds, e.g. `Invalid value: "x": must be …`. */
export function fieldErrorBody(error: FieldError): string {
  const withValue = (label: string): string => {
    const head = error.value === undefined ? label : `${label}: ${printValue(error.value)}`;
    return error.detail === "" ? head : `${head}: ${error.detail}`;
  };
  switch (error.type) {
    case "FieldValueRequired":
      return error.detail === "" ? "Required value" : `Required value: ${error.detail}`;
    case "FieldValueForbidden":
      return error.detail === "" ? "Forbidden" : `Forbidden: ${error.detail}`;
    case "FieldValueTooLong":
      return `Too long: ${error.detail}`;
    case "FieldValueTooMany":
      return `Too many: ${error.detail}`;
    case "InternalError":
      return `Internal error: ${error.detail}`;
    case "FieldValueNotFound":
      return withValue("Not found");
    case "FieldValueDuplicate":
      return withValue("Duplicate value");
    case "FieldValueInvalid":
      return withValue("Invalid value");
    case "FieldValueNotSupported":
      return withValue("Unsupported value");
    case "FieldValueTypeInvalid":
      return withValue("Invalid value");
  }
}

/** `field.Error.Error()`: `spec.replicas: Invalid value: -1: must be …`. */
export function fieldErrorString(error: FieldError): string {
  return `${error.field}: ${fieldErrorBody(error)}`;
}

export function required(path: FieldPath, detail = ""): FieldError {
  return { type: "FieldValueRequired", field: path.toString(), detail };
}

export function invalid(path: FieldPath, value: unknown, detail: string): FieldError {
  return { type: "FieldValueInvalid", field: path.toString(), value, detail };
}

export function forbiddenField(path: FieldPath, detail: string): FieldError {
  return { type: "FieldValueForbidden", field: path.toString(), detail };
}

export function duplicate(path: FieldPath, value: unknown): FieldError {
  return { type: "FieldValueDuplicate", field: path.toString(), value, detail: "" };
}

export function notFoundField(path: FieldPath, value: unknown): FieldError {
  return { type: "FieldValueNotFound", field: path.toString(), value, detail: "" };
}

export function tooLong(path: FieldPath, max: number): FieldError {
  return {
    type: "FieldValueTooLong",
    field: path.toString(),
    detail: `may not be more than ${max} bytes`,
  };
}

export function tooMany(path: FieldPath, actual: number, max: number): FieldError {
  return {
    type: "FieldValueTooMany",
    field: path.toString(),
    detail: `must have at most ${max} items`,
    value: actual,
  };
}

/** `Unsupported value: "x": supported values: "a", "b"`. */
export function notSupported(
  path: FieldPath,
  value: unknown,
  supported: readonly string[],
): FieldError {
  return {
    type: "FieldValueNotSupported",
    field: path.toString(),
    value,
    detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}`,
  };
}

/** Immutable-field error in upstream's wording. */
/** `field.InternalError`: `Internal error: <detail>`. */
export function internalError(path: FieldPath, detail: string): FieldError {
  return { type: "InternalError", field: path.toString(), detail };
}

export function immutable(path: FieldPath, value: unknown): FieldError {
  return invalid(path, value, "field is immutable");
}

/**
 * 422 Invalid: `<Kind>[.<group>] "<name>" is invalid: <errors>`, with one cause per error.
 * Several errors print as `[a, b]`, as apimachinery's `NewInvalid` does.
 */
export function invalidObject(
  kind: { group: string; kind: string },
  name: string,
  errors: readonly FieldError[],
): ApiError {
  const qualified = kind.group === "" ? kind.kind : `${kind.kind}.${kind.group}`;
  const causes: StatusCause[] = errors.map((e) => ({
    reason: e.type,
    message: fieldErrorBody(e),
    field: e.field,
  }));
  const texts = errors.map(fieldErrorString);
  const joined = texts.length === 1 ? (texts[0] ?? "") : `[${texts.join(", ")}]`;
  const details: { name: string; kind: string; group?: string; causes: StatusCause[] } = {
    name,
    kind: kind.kind,
    causes,
  };
  if (kind.group !== "") details.group = kind.group;
  return new ApiError(422, "Invalid", `${qualified} "${name}" is invalid: ${joined}`, details);
}
