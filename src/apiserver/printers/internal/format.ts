import type { LabelSelector } from "../../../api/index.ts";
import {
  formatLabelSelector,
  selectorFromLabelSelector,
  selectorToString,
} from "../../../api/index.ts";
import { at, list, str } from "./read.ts";

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `labels.FormatLabels`: `k=v,k2=v2` sorted by key, `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>>): string {
  const keys = Object.keys(labels).sort(compareStrings);
  if (keys.length === 0) return "<none>";
  return keys.map((k) => `${k}=${labels[k] ?? ""}`).join(",");
}

function asLabelSelector(value: unknown): LabelSelector | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  return value as LabelSelector;
}

/** `metav1.FormatLabelSelector` of the selector at `path`: `<none>` when unset or empty. */
export function formatSelectorAt(object: unknown, ...path: string[]): string {
  return formatLabelSelector(asLabelSelector(at(object, ...path)));
}

/**
 * `LabelSelectorAsSelector(...).String()` (deployments' SELECTOR): `""` for an empty or missing
 * selector, `<invalid>` when it cannot be converted.
 */
export function selectorStringAt(object: unknown, ...path: string[]): string {
  try {
    return selectorToString(selectorFromLabelSelector(asLabelSelector(at(object, ...path))));
  } catch (error: unknown) {
    if (error instanceof Error) return "<invalid>";
    throw error;
  }
}

/** `layoutContainerCells`: container names and images, comma-joined. */
export function containerCells(object: unknown, ...podSpecPath: string[]): [string, string] {
  const containers = list(object, ...podSpecPath, "containers");
  return [
    containers.map((c) => str(c, "name")).join(","),
    containers.map((c) => str(c, "image")).join(","),
  ];
}

/** An IntOrString as Go's `intstr.String()` prints it (`2`, `50%`), or undefined when unset. */
export function intOrString(value: unknown): string | undefined {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return value;
  return undefined;
}
