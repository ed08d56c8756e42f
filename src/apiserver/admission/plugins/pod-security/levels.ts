/**
 * Pod Security Standards levels, policy versions and the namespace labels that select them, as
 * upstream's `k8s.io/pod-security-admission/api`: `pod-security.kubernetes.io/{enforce,audit,warn}`
 * name a level, the `-version` labels a policy version (`latest` or `v1.X`).
 */
import { type FieldError, FieldPath, invalid } from "../../../../api/index.ts";

export type Level = "privileged" | "baseline" | "restricted";

export const levels: readonly Level[] = ["privileged", "baseline", "restricted"];

/** A policy version: `v1.X`, or `latest` (newer than every numbered version). */
export type Version =
  | { readonly latest: true }
  | { readonly latest: false; readonly minor: number };

export const latest: Version = { latest: true };

/** `v1.<minor>`. Only major version 1 exists. */
export function minorVersion(minor: number): Version {
  return { latest: false, minor };
}

export function versionString(v: Version): string {
  return v.latest ? "latest" : `v1.${v.minor}`;
}

/** Whether `a` is older than `b`; `latest` is newer than everything, even future versions. */
export function olderThan(a: Version, b: Version): boolean {
  if (a.latest) return false;
  if (b.latest) return true;
  return a.minor < b.minor;
}

/** A level at a version, printed `restricted:latest`. */
export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}

export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && versionString(a.version) === versionString(b.version);
}

/** The policy of a namespace: one level and version per mode. */
export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

export function fullyPrivileged(p: Policy): boolean {
  return (
    p.enforce.level === "privileged" &&
    p.audit.level === "privileged" &&
    p.warn.level === "privileged"
  );
}

const prefix = "pod-security.kubernetes.io/";
export const enforceLevelLabel = `${prefix}enforce`;
export const enforceVersionLabel = `${prefix}enforce-version`;
export const auditLevelLabel = `${prefix}audit`;
export const auditVersionLabel = `${prefix}audit-version`;
export const warnLevelLabel = `${prefix}warn`;
export const warnVersionLabel = `${prefix}warn-version`;

/** Audit annotation keys, as the API server records them (the plugin's prefix included). */
export const enforcePolicyAnnotation = `${prefix}enforce-policy`;
export const auditViolationsAnnotation = `${prefix}audit-violations`;
export const exemptAnnotation = `${prefix}exempt`;
export const errorAnnotation = `${prefix}error`;

const versionPattern = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** Upstream's message for a label or default that names no level. */
export const invalidLevelMessage = `must be one of ${levels.join(", ")}`;
/** Upstream's message for a label or default that names no version. */
export const invalidVersionMessage = 'must be "latest" or "v1.x"';

/** The level `text` names, if any (`ParseLevel`). */
export function parseLevel(text: string): Level | undefined {
  return levels.find((l) => l === text);
}

/** The version `text` names, if any (`ParseVersion`). */
export function parseVersion(text: string): Version | undefined {
  if (text === "latest") return latest;
  const m = versionPattern.exec(text);
  const minor = m?.[1] === undefined ? Number.NaN : Number(m[1]);
  return Number.isSafeInteger(minor) ? minorVersion(minor) : undefined;
}

const labelsPath = FieldPath.of("metadata", "labels");

/**
 * Upstream's `PolicyToEvaluate`: the namespace's labels over the configured defaults. A policy
 * always comes back; each bad label adds an error and falls back as upstream does: an invalid
 * enforce level enforces `restricted` (fail closed), invalid audit and warn levels become
 * `privileged` (fail open), an invalid version means `latest`.
 */
export function policyToEvaluate(
  labels: Readonly<Record<string, string>> | undefined,
  defaults: Policy,
): { readonly policy: Policy; readonly errors: readonly FieldError[] } {
  const errors: FieldError[] = [];
  const level = (label: string, fallback: Level, onError: Level): Level => {
    const text = labels?.[label];
    if (text === undefined) return fallback;
    const parsed = parseLevel(text);
    if (parsed !== undefined) return parsed;
    errors.push(invalid(labelsPath.key(label), text, invalidLevelMessage));
    return onError;
  };
  const version = (label: string, fallback: Version): Version => {
    const text = labels?.[label];
    if (text === undefined) return fallback;
    const parsed = parseVersion(text);
    if (parsed !== undefined) return parsed;
    errors.push(invalid(labelsPath.key(label), text, invalidVersionMessage));
    return latest;
  };
  const policy: Policy = {
    enforce: {
      level: level(enforceLevelLabel, defaults.enforce.level, "restricted"),
      version: version(enforceVersionLabel, defaults.enforce.version),
    },
    audit: {
      level: level(auditLevelLabel, defaults.audit.level, "privileged"),
      version: version(auditVersionLabel, defaults.audit.version),
    },
    warn: {
      level: level(warnLevelLabel, defaults.warn.level, "privileged"),
      version: version(warnVersionLabel, defaults.warn.version),
    },
  };
  return { policy, errors };
}

/** -1 when `a` is less strict than `b`, 0 when equal, 1 when stricter (`CompareLevels`). */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(levels.indexOf(a) - levels.indexOf(b));
}
