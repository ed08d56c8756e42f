/**
 * What a Pod Security Standards check is (upstream's `policy.Check`), and the small helpers every
 * check uses to word its reasons exactly as upstream does.
 */
import type { Container, PodSpec } from "../../../../api/index.ts";

/** The pod metadata a check may read: only annotations matter to the standards. */
export interface PodMetadata {
  readonly annotations?: Readonly<Record<string, string>>;
}

/**
 * A check's verdict. A forbidden result has a short `reason` (`host namespaces`) and an optional
 * `detail` naming what was wrong (`hostNetwork=true`), printed as `reason (detail)`.
 */
export type CheckResult =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly reason: string; readonly detail: string };

export const allowed: CheckResult = { allowed: true };

export function forbidden(reason: string, detail: string): CheckResult {
  return { allowed: false, reason, detail };
}

/** Pure: the same pod always gives the same result. Must not change its arguments. */
export type CheckPodFn = (metadata: PodMetadata, spec: PodSpec) => CheckResult;

/** One revision of a check, used from `minimumVersion` (a `v1.X` minor) on. */
export interface VersionedCheck {
  readonly minimumVersion: number;
  readonly checkPod: CheckPodFn;
  /** Baseline check IDs this restricted check replaces at this version. */
  readonly overrides?: readonly string[];
}

/** A check with upstream's ID, its level, and its revisions in increasing version order. */
export interface Check {
  readonly id: string;
  readonly level: "baseline" | "restricted";
  readonly versions: readonly VersionedCheck[];
}

/** `"a", "b"`: items in double quotes, as upstream's `joinQuote` (no escaping). */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? "" : `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `container "a"` or `containers "a", "b"`. */
export function containersText(names: readonly string[]): string {
  return `${pluralize("container", "containers", names.length)} ${joinQuote(names)}`;
}

/** The distinct values in byte order, as Go's `sets.String.List()`. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/** Go's `%q` for the plain strings found in annotations. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

/** Every container of the pod: init containers, containers, then ephemeral containers. */
export function visitContainers(spec: PodSpec, visit: (container: Container) => void): void {
  for (const c of list(spec.initContainers)) visit(c);
  for (const c of list(spec.containers)) visit(c);
  for (const c of list(spec.ephemeralContainers)) visit(c);
}

/** An array field, or nothing when absent (or not an array: the checks never throw). */
export function list<T>(value: readonly T[] | undefined | null): readonly T[] {
  return Array.isArray(value) ? value : [];
}

/** Whether a field is present: Go's non-nil pointer (JSON null counts as absent). */
export function isSet<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

/** A pod in a user namespace (`hostUsers: false`), which 1.35's policy relaxes some checks for. */
export function inUserNamespace(spec: PodSpec): boolean {
  return spec.hostUsers === false;
}

/** A pod that declares `spec.os.name: windows`, which 1.25's policy exempts from Linux checks. */
export function isWindows(spec: PodSpec): boolean {
  return spec.os?.name === "windows";
}
