/**
 * A JSON, merge or strategic merge patch of a Scale, decoded as upstream's PATCH handler does
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go): the patch is applied to the
 * current Scale, then the result is decoded into a Scale. A result that does not decode is not a
 * 400 but a 422 Invalid with no kind or name, whose one cause is at field `patch`:
 *
 *     "" is invalid: patch: Invalid value: "{\"apiVersion\":…}": json: cannot unmarshal string
 *     into Go struct field Scale.spec of type v1.ScaleSpec
 *
 * The value is the patched document as the patch library re-encodes it (`evanphx/json-patch`:
 * objects it had to parse come out with sorted keys, untouched ones as they were); for a
 * strategic merge patch it is the patch map as Go's `%+v` prints it.
 */
import { FieldPath, invalid, invalidObject } from "../../api/index.ts";
import { isPlainObject, type JsonObject } from "../../util/index.ts";
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from "../patch/index.ts";
import { checkTypeMeta, type FieldValidation, pruneOrReject } from "./decode.ts";
import { scaleKind } from "./scale-kind.ts";
import { typeMismatchOf } from "./type-check.ts";

export type ScalePatchType = "json" | "merge" | "strategic";

export interface ScalePatchInput {
  /** The current Scale, as upstream encodes it before patching. */
  readonly before: JsonObject;
  /** The decoded request body. */
  readonly patch: unknown;
  readonly patchType: ScalePatchType;
  readonly validation: FieldValidation;
  /** Receives `unknown field` warnings under fieldValidation=Warn. */
  readonly warnings: string[];
}

/**
 * Applies the patch and decodes the result as a Scale: 4xx for a patch that does not apply (as
 * the patch functions answer), 400 for another kind or apiVersion (as the main handlers answer),
 * 422 `patch: Invalid value` for a value of the wrong type or, under Strict, an unknown field.
 * Returns the decoded Scale (nulls dropped as Go leaves them, unknown fields pruned).
 */
export function patchScale(input: ScalePatchInput): JsonObject {
  const { before, patch } = input;
  let next: JsonObject;
  let shown: string;
  /** The result in the key order Go's decoder reads it (the first bad value is reported). */
  let ordered: JsonObject;
  switch (input.patchType) {
    case "json":
      next = applyJsonPatch(before, patch);
      shown = jsonPatchedText(next, patch);
      ordered = JSON.parse(shown) as JsonObject;
      break;
    case "merge":
      next = applyMergePatch(before, patch);
      shown = mergePatchedText(before, patch as JsonObject);
      ordered = JSON.parse(shown) as JsonObject;
      break;
    case "strategic":
      next = applyStrategicMergePatch(before, patch, scaleKind.schema);
      shown = goValueText(patch);
      ordered = structuredClone(next);
      break;
  }
  const typeMeta = typeMetaMismatch(ordered);
  if (typeMeta !== undefined) throw patchInvalid(shown, typeMeta);
  checkTypeMeta(scaleKind, next);
  const { schema, definitions } = scaleKind.schema;
  const mismatch =
    typeMismatchOf(ordered, schema, definitions, scaleKind.kind) ??
    typeMismatchOf(next, schema, definitions, scaleKind.kind);
  if (mismatch !== undefined) throw patchInvalid(shown, mismatch);
  if (input.validation === "Strict") {
    const unknown: string[] = [];
    pruneOrReject(scaleKind, next, "Warn", unknown);
    if (unknown.length > 0) {
      throw patchInvalid(shown, `strict decoding error: ${unknown.join(", ")}`);
    }
  } else {
    pruneOrReject(scaleKind, next, input.validation, input.warnings);
  }
  return next;
}

/** Go's name for a JSON value's kind in `cannot unmarshal <kind>`. */
function jsonKind(value: unknown): string {
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "array";
  return typeof value === "string" ? "string" : "object";
}

/**
 * The serializer reads apiVersion and kind first, into an anonymous struct: a value that is not
 * a string fails there (`couldn't get version/kind; json parse error: …`).
 */
function typeMetaMismatch(doc: JsonObject): string | undefined {
  for (const key of Object.keys(doc)) {
    if (key !== "apiVersion" && key !== "kind") continue;
    const value = doc[key];
    if (value === null || typeof value === "string") continue;
    return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go struct field .${key} of type string`;
  }
  return undefined;
}

function patchInvalid(shown: string, message: string) {
  return invalidObject({ group: "", kind: "" }, "", [
    invalid(FieldPath.of("patch"), shown, message),
  ]);
}

/** A string as Go's encoding/json writes it (`<`, `>`, `&` and U+2028/9 escaped). */
function goString(text: string): string {
  return JSON.stringify(text).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compact JSON in Go's encoding; objects at paths `sorted` accepts get sorted keys. */
function render(value: unknown, sorted: (at: readonly string[]) => boolean, at: string[]): string {
  if (Array.isArray(value)) {
    return `[${value.map((item, i) => render(item, sorted, [...at, String(i)])).join(",")}]`;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (sorted(at)) keys.sort(compareKeys);
    return `{${keys.map((k) => `${goString(k)}:${render(value[k], sorted, [...at, k])}`).join(",")}}`;
  }
  if (typeof value === "string") return goString(value);
  return JSON.stringify(value ?? null);
}

/** The value as it was: keys in their original order. */
function raw(value: unknown): string {
  return render(value, () => false, []);
}

/** What `pruneNulls` leaves of a value the library parsed: sorted keys, no null members. */
function pruned(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === null ? "null" : pruned(item))).join(",")}]`;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== null)
      .sort(compareKeys);
    return `{${keys.map((k) => `${goString(k)}:${pruned(value[k])}`).join(",")}}`;
  }
  return raw(value);
}

/** `mergeDocs` + `merge` of `evanphx/json-patch` v4, rendered as `json.Marshal` writes the result. */
function merged(current: unknown, patch: unknown): string {
  if (!isPlainObject(current)) return pruned(patch);
  if (!isPlainObject(patch)) return raw(patch);
  const members = new Map<string, string>();
  for (const key of Object.keys(current)) members.set(key, raw(current[key]));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      members.delete(key);
      continue;
    }
    const existing = current[key];
    members.set(
      key,
      existing === undefined || existing === null ? pruned(value) : merged(existing, value),
    );
  }
  const keys = [...members.keys()].sort(compareKeys);
  return `{${keys.map((k) => `${goString(k)}:${members.get(k) ?? "null"}`).join(",")}}`;
}

/** The document a JSON merge patch produces, as the library encodes it. */
export function mergePatchedText(before: JsonObject, patch: JsonObject): string {
  return merged(before, patch);
}

/** The JSON pointer's tokens, `~1` and `~0` decoded; undefined for a pointer that is not one. */
function pointerTokens(pointer: unknown): string[] | undefined {
  if (typeof pointer !== "string" || !pointer.startsWith("/")) return undefined;
  return pointer
    .split("/")
    .slice(1)
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/**
 * The document a JSON patch produces, as the library encodes it: the containers an operation
 * walked through (the parents of its `path` and `from`) were parsed and come out sorted.
 */
export function jsonPatchedText(result: JsonObject, patch: unknown): string {
  const parsed = new Set<string>([JSON.stringify([])]);
  for (const operation of Array.isArray(patch) ? patch : []) {
    if (!isPlainObject(operation)) continue;
    for (const pointer of [operation["path"], operation["from"]]) {
      const tokens = pointerTokens(pointer);
      if (tokens === undefined) continue;
      for (let n = 1; n < tokens.length; n++) parsed.add(JSON.stringify(tokens.slice(0, n)));
    }
  }
  return render(result, (at) => parsed.has(JSON.stringify(at)), []);
}

/** Go's `%+v` of a decoded JSON value: `map[spec:map[replicas:x]]`, `[a b]`, `<nil>`. */
export function goValueText(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (Array.isArray(value)) return `[${value.map(goValueText).join(" ")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort(compareKeys);
    return `map[${keys.map((k) => `${k}:${goValueText(value[k])}`).join(" ")}]`;
  }
  return String(value);
}
