import { totalAnnotationSizeLimitBytes } from "../../api/index.ts";
import { deepCopy, isPlainObject, type Json } from "../../util/index.ts";
import type { FieldSet } from "./field-set.ts";
import { goJson } from "./path-element.ts";
import { compareValues, toFieldSet } from "./typed.ts";
import type { TypeResolver } from "./types.ts";

/** The annotation client-side apply keeps its last configuration in. */
export const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration";

/** The field manager kubectl uses for `apply --server-side`; only it gets the CSA upgrade. */
export const kubectlApplyManager = "kubectl";

function annotationsOf(obj: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(obj)) return undefined;
  const meta = obj["metadata"];
  if (!isPlainObject(meta)) return undefined;
  const annotations = meta["annotations"];
  return isPlainObject(annotations) ? annotations : undefined;
}

/** The last-applied annotation's value, or `undefined` when absent or empty. */
export function lastAppliedOf(obj: unknown): string | undefined {
  const value = annotationsOf(obj)?.[lastAppliedAnnotation];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Upstream's `allowedConflictsFromLastApplied`: the fields of the last-applied configuration whose
 * value the live object still has. `kubectl apply --server-side` may take these over from the
 * client-side-apply manager without a conflict. `undefined` when there is no usable annotation.
 */
export function allowedConflictsFromLastApplied(
  live: unknown,
  apiVersion: string,
  resolver: TypeResolver,
): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (text === undefined) return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(lastApplied) || lastApplied["apiVersion"] !== apiVersion) return undefined;
  let fields: FieldSet;
  try {
    fields = toFieldSet(lastApplied, resolver.root, resolver, { strict: true });
  } catch {
    return undefined;
  }
  const cmp = compareValues(lastApplied, live, resolver.root, resolver);
  return fields.difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/**
 * The annotation value upstream writes for a server-side apply by kubectl: the applied
 * configuration without the annotation, as Go's JSON encoder writes it (keys sorted, trailing
 * newline).
 */
export function buildLastApplied(applied: Record<string, unknown>): string {
  const copy = deepCopy(applied);
  const annotations = annotationsOf(copy);
  if (annotations !== undefined) delete annotations[lastAppliedAnnotation];
  return `${goJson(copy as Json)}\n`;
}

/**
 * Upstream's `lastAppliedUpdater`: after kubectl applies server-side to an object that carries
 * the client-side annotation, the annotation is rewritten to the new configuration so a later
 * client-side apply still computes the right patch. Over the annotation size limit, the
 * annotation is dropped instead. Mutates and returns `result`.
 */
export function updateLastApplied(
  result: Record<string, unknown>,
  applied: Record<string, unknown>,
): Record<string, unknown> {
  const annotations = annotationsOf(result);
  if (annotations === undefined || lastAppliedOf(result) === undefined) return result;
  annotations[lastAppliedAnnotation] = buildLastApplied(applied);
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) {
    total += Buffer.byteLength(k) + (typeof v === "string" ? Buffer.byteLength(v) : 0);
  }
  if (total > totalAnnotationSizeLimitBytes) delete annotations[lastAppliedAnnotation];
  return result;
}
