/**
 * Validation helpers shared by the apps, batch and policy kinds, with apimachinery's wording:
 * IntOrString percentages (`ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`), the
 * "selector does not match template labels" check, and Go `%#v` renderings of the values
 * upstream prints in its messages (`map[string]string{"app":"web"}`).
 */
import type { IntOrString } from "../../core/v1/pod-template.ts";
import { ApiError } from "../../errors.ts";
import type { FieldError } from "../../meta/field-errors.ts";
import { invalid } from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import { matches, selectorFromLabelSelector } from "../../meta/labels/selector.ts";
import type { LabelSelector } from "../../meta/types.ts";
import { regexError } from "../../validation/names.ts";

/**
 * An `Invalid value` error whose value prints raw (Go syntax) rather than JSON-quoted:
 * `Invalid value: map[string]string{"a":"b"}: <detail>`.
 */
export function invalidRaw(path: FieldPath, goValue: string, detail: string): FieldError {
  return { type: "FieldValueInvalid", field: path.toString(), detail: `${goValue}: ${detail}` };
}

/** Go's `%#v` of a `map[string]string`: keys sorted, `map[string]string(nil)` when unset. */
export function goStringMap(map: Readonly<Record<string, string>> | undefined): string {
  if (map === undefined) return "map[string]string(nil)";
  const entries = Object.keys(map)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(map[k])}`);
  return `map[string]string{${entries.join(", ")}}`;
}

/** Go's `%#v` of a `[]string`. */
export function goStringSlice(values: readonly string[] | undefined): string {
  if (values === undefined) return "[]string(nil)";
  return `[]string{${values.map((v) => JSON.stringify(v)).join(", ")}}`;
}

/** Go's `%#v` of a (dereferenced) `metav1.LabelSelector`. */
export function goLabelSelector(selector: LabelSelector | undefined): string {
  if (selector === undefined) return "null";
  const exprs =
    selector.matchExpressions === undefined
      ? "[]v1.LabelSelectorRequirement(nil)"
      : `[]v1.LabelSelectorRequirement{${selector.matchExpressions
          .map(
            (e) =>
              `v1.LabelSelectorRequirement{Key:${JSON.stringify(e.key)}, Operator:${JSON.stringify(e.operator)}, Values:${goStringSlice(e.values)}}`,
          )
          .join(", ")}}`;
  return `v1.LabelSelector{MatchLabels:${goStringMap(selector.matchLabels)}, MatchExpressions:${exprs}}`;
}

/** Go's `%#v` of an `intstr.IntOrString` (Type 0 is Int, 1 is String). */
export function goIntOrString(value: IntOrString): string {
  return typeof value === "number"
    ? `intstr.IntOrString{Type:0, IntVal:${value}, StrVal:""}`
    : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(value)}}`;
}

const percentFmt = "[0-9]+%";
const percentRe = /^[0-9]+%$/;
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'";

/** `validation.IsValidPercent`. */
export function isValidPercent(value: string): string[] {
  return percentRe.test(value) ? [] : [regexError(percentErrMsg, percentFmt, "1%", "93%")];
}

/** The integer value and whether it is a percentage; `undefined` for an unparsable string. */
export function intOrPercentValue(
  value: IntOrString,
): { value: number; percent: boolean } | undefined {
  if (typeof value === "number") return { value, percent: false };
  const percent = value.endsWith("%");
  const digits = percent ? value.slice(0, -1) : value;
  if (!/^[+-]?\d+$/.test(digits)) return undefined;
  return { value: Number(digits), percent };
}

/** `ValidatePositiveIntOrPercent`: a percentage string, or an integer ≥ 0. */
export function validatePositiveIntOrPercent(value: IntOrString, path: FieldPath): FieldError[] {
  if (typeof value === "string") {
    return isValidPercent(value).map((msg) => invalidRaw(path, goIntOrString(value), msg));
  }
  return value < 0 ? [invalid(path, value, "must be greater than or equal to 0")] : [];
}

/** `IsNotMoreThan100Percent`. */
export function isNotMoreThan100Percent(value: IntOrString, path: FieldPath): FieldError[] {
  const parsed = intOrPercentValue(value);
  if (parsed === undefined || !parsed.percent || parsed.value <= 100) return [];
  return [invalidRaw(path, goIntOrString(value), "must not be greater than 100%")];
}

/** `getIntOrPercentValue`: the number, percent sign dropped; 0 for garbage. */
export function intOrPercentNumber(value: IntOrString): number {
  return intOrPercentValue(value)?.value ?? 0;
}

/**
 * Whether the selector matches the labels, as `LabelSelectorAsSelector(...).Matches(...)`;
 * `undefined` when the selector cannot be converted (upstream then skips the match check).
 */
export function selectorMatchesLabels(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean | undefined {
  try {
    return matches(selectorFromLabelSelector(selector), labels ?? {});
  } catch (error: unknown) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/** Whether a selector has no requirement at all (`{}`), which apps controllers refuse. */
export function isEmptySelector(selector: LabelSelector): boolean {
  return (
    Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0
  );
}

/** `spec.template.metadata.labels: Invalid value: map[…]{…}: \`selector\` does not match template \`labels\``. */
export function selectorMismatch(
  path: FieldPath,
  labels: Readonly<Record<string, string>> | undefined,
): FieldError {
  return invalidRaw(path, goStringMap(labels), "`selector` does not match template `labels`");
}

/**
 * `field.TooMany` as upstream prints it, with the actual count:
 * `Too many: 9: must have at most 8 items`.
 */
export function tooManyItems(path: FieldPath, actual: number, max: number): FieldError {
  return {
    type: "FieldValueTooMany",
    field: path.toString(),
    value: actual,
    detail: `${actual}: must have at most ${max} items`,
  };
}
