import { isValidLabelValue as isLabelValue, isQualifiedName } from "../../validation/names.ts";
import { type FieldError, fieldErrorString } from "../field-errors.ts";

/**
 * Label selector operators, spelled as apimachinery's `selection.Operator` values: `=` and `==`
 * are exact matches, `in`/`notin` set matches, `exists`/`!` key presence, `gt`/`lt` integer
 * comparisons.
 */
export type LabelOperator = "=" | "==" | "!=" | "in" | "notin" | "exists" | "!" | "gt" | "lt";

/** One clause of a label selector; every clause must hold for the selector to match. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Values as given (exact matches have one, `exists`/`!` none); `toString` sorts them. */
  readonly values: readonly string[];
}

/** Labels as they appear on an object; `undefined` is an object without labels. */
export type Labels = Readonly<Record<string, string>> | undefined;

/** Every operator upstream accepts, in its `validRequirementOperators` order. */
const validOperators: readonly string[] = [
  "in",
  "notin",
  "=",
  "==",
  "!=",
  "gt",
  "lt",
  "exists",
  "!",
];

/** `field.Invalid(...)` rendered as `field.Error.Error()` prints it. */
export function invalidText(field: string, value: unknown, detail: string): string {
  if (Array.isArray(value)) {
    // Go prints a []string bad value with %#v.
    const shown =
      value.length === 0
        ? "[]string(nil)"
        : `[]string{${value.map((v) => JSON.stringify(v)).join(", ")}}`;
    return `${field}: Invalid value: ${shown}: ${detail}`;
  }
  const error: FieldError = { type: "FieldValueInvalid", field, value, detail };
  return fieldErrorString(error);
}

/** Joins errors as `utilerrors.NewAggregate` prints them, dropping duplicates. */
export function aggregateText(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? (unique[0] ?? "") : `[${unique.join(", ")}]`;
}

/** The label key check of the selector parser, `""` when the key is valid. */
export function labelKeyError(key: string, field: string): string {
  const errs = isQualifiedName(key);
  return errs.length === 0 ? "" : invalidText(field, key, errs.join("; "));
}

/**
 * Builds a requirement the way `labels.NewRequirement` does (with no field path), returning the
 * aggregated error text instead of throwing; `error` is `""` when the requirement is valid.
 */
export function newRequirement(
  key: string,
  operator: string,
  values: readonly string[],
): { requirement: LabelRequirement; error: string } {
  const errors: string[] = [];
  const keyError = labelKeyError(key, "key");
  if (keyError !== "") errors.push(keyError);
  switch (operator) {
    case "in":
    case "notin":
      if (values.length === 0) {
        errors.push(
          invalidText("values", values, "for 'in', 'notin' operators, values set can't be empty"),
        );
      }
      break;
    case "=":
    case "==":
    case "!=":
      if (values.length !== 1) {
        errors.push(
          invalidText("values", values, "exact-match compatibility requires one single value"),
        );
      }
      break;
    case "exists":
    case "!":
      if (values.length !== 0) {
        errors.push(
          invalidText("values", values, "values set must be empty for exists and does not exist"),
        );
      }
      break;
    case "gt":
    case "lt":
      if (values.length !== 1) {
        errors.push(
          invalidText("values", values, "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      }
      values.forEach((v, i) => {
        if (!/^[+-]?\d+$/.test(v)) {
          errors.push(
            invalidText(
              `values[${i}]`,
              v,
              "for 'Gt', 'Lt' operators, the value must be an integer",
            ),
          );
        }
      });
      break;
    default: {
      const supported = validOperators.map((o) => JSON.stringify(o)).join(", ");
      errors.push(
        `operator: Unsupported value: ${JSON.stringify(operator)}: supported values: ${supported}`,
      );
    }
  }
  values.forEach((v, i) => {
    const errs = isLabelValue(v);
    if (errs.length > 0) errors.push(invalidText(`values[${i}][${key}]`, v, errs.join("; ")));
  });
  const requirement: LabelRequirement = {
    key,
    operator: operator as LabelOperator,
    values: [...values],
  };
  return { requirement, error: errors.length === 0 ? "" : aggregateText(errors) };
}

/** Sorted copy of the values, as `Requirement.String` prints several. */
function sortedValues(values: readonly string[]): string[] {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The canonical text of one requirement: `!k`, `k`, `k=v`, `k in (a,b)`, `k>3`. */
export function requirementString(r: LabelRequirement): string {
  const values = r.values.length === 1 ? (r.values[0] ?? "") : sortedValues(r.values).join(",");
  switch (r.operator) {
    case "!":
      return `!${r.key}`;
    case "exists":
      return r.key;
    case "=":
    case "==":
    case "!=":
      return `${r.key}${r.operator}${values}`;
    case "in":
      return `${r.key} in (${values})`;
    case "notin":
      return `${r.key} notin (${values})`;
    case "gt":
      return `${r.key}>${values}`;
    case "lt":
      return `${r.key}<${values}`;
  }
}

/** A label predicate compiled from one requirement. */
export type LabelTest = (labels: Labels) => boolean;

function lookup(labels: Labels, key: string): string | undefined {
  if (labels === undefined || !Object.hasOwn(labels, key)) return undefined;
  return labels[key];
}

function parseInteger(text: string): number | undefined {
  return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** Compiles one requirement into a predicate (sets for multi-value `in`/`notin`). */
export function compileRequirement(r: LabelRequirement): LabelTest {
  const { key } = r;
  const only = r.values[0] ?? "";
  const has: (value: string) => boolean =
    r.values.length <= 1
      ? (value) => r.values.length === 1 && value === only
      : (
          (set: ReadonlySet<string>) => (value: string) =>
            set.has(value)
        )(new Set(r.values));
  switch (r.operator) {
    case "=":
    case "==":
    case "in":
      return (labels) => {
        const value = lookup(labels, key);
        return value !== undefined && has(value);
      };
    case "!=":
    case "notin":
      return (labels) => {
        const value = lookup(labels, key);
        return value === undefined || !has(value);
      };
    case "exists":
      return (labels) => lookup(labels, key) !== undefined;
    case "!":
      return (labels) => lookup(labels, key) === undefined;
    case "gt":
    case "lt": {
      const bound = r.values.length === 1 ? parseInteger(only) : undefined;
      const greater = r.operator === "gt";
      return (labels) => {
        const value = lookup(labels, key);
        const actual = value === undefined ? undefined : parseInteger(value);
        if (actual === undefined || bound === undefined) return false;
        return greater ? actual > bound : actual < bound;
      };
    }
  }
}
