/**
 * Upstream's check registry (`policy/registry.go`): which revision of which check applies to a
 * level at a policy version, and the aggregate of their results in upstream's order.
 */
import type { PodSpec } from "../../../../api/index.ts";
import type { Check, CheckPodFn, CheckResult, PodMetadata } from "./check.ts";
import { baselineChecks } from "./checks-baseline.ts";
import { hostChecks } from "./checks-host.ts";
import { restrictedChecks } from "./checks-restricted.ts";
import type { LevelVersion } from "./levels.ts";

/** Every check the standards define, as upstream's `DefaultChecks()`. */
export const defaultChecks: readonly Check[] = [
  ...baselineChecks,
  ...hostChecks,
  ...restrictedChecks,
];

/** The forbidden results of one evaluation, in check order. */
export interface AggregateResult {
  readonly allowed: boolean;
  readonly reasons: readonly string[];
  readonly details: readonly string[];
}

/** `host namespaces, privileged`: the reasons alone (for namespace-wide warnings). */
export function forbiddenReason(result: AggregateResult): string {
  return result.reasons.join(", ");
}

/** `host namespaces (hostNetwork=true), privileged (container "c" must …)`. */
export function forbiddenDetail(result: AggregateResult): string {
  return result.reasons
    .map((reason, i) => {
      const detail = result.details[i] ?? "";
      return detail === "" ? reason : `${reason} (${detail})`;
    })
    .join(", ");
}

export function aggregate(results: readonly CheckResult[]): AggregateResult {
  const reasons: string[] = [];
  const details: string[] = [];
  for (const r of results) {
    if (r.allowed) continue;
    reasons.push(r.reason === "" ? "unknown forbidden reason" : r.reason);
    details.push(r.detail);
  }
  return { allowed: reasons.length === 0, reasons, details };
}

/** Evaluates pods against a level and version. */
export interface Evaluator {
  /** The newest policy version any check defines: what `latest` and newer versions mean. */
  readonly maxVersion: number;
  evaluate(lv: LevelVersion, metadata: PodMetadata, spec: PodSpec): AggregateResult;
}

/** The revision of `check` that applies at `minor`, if the check exists yet. */
function revisionAt(check: Check, minor: number) {
  let found: Check["versions"][number] | undefined;
  for (const v of check.versions) if (v.minimumVersion <= minor) found = v;
  return found;
}

/**
 * Builds the evaluator over `checks` (upstream's `NewEvaluator`). Check IDs order the results:
 * baseline checks first, then restricted ones, each sorted by ID. At a restricted level, a
 * baseline check that an applicable restricted revision overrides is left out.
 */
export function newEvaluator(checks: readonly Check[] = defaultChecks): Evaluator {
  const maxVersion = Math.max(...checks.flatMap((c) => c.versions.map((v) => v.minimumVersion)));
  const byId = (a: Check, b: Check): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const baseline = checks.filter((c) => c.level === "baseline").sort(byId);
  const restricted = checks.filter((c) => c.level === "restricted").sort(byId);
  const cache = new Map<string, readonly CheckPodFn[]>();

  const checksFor = (level: "baseline" | "restricted", minor: number): readonly CheckPodFn[] => {
    const key = `${level}:${minor}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const restrictedRevisions =
      level === "restricted"
        ? restricted.flatMap((c) => {
            const r = revisionAt(c, minor);
            return r === undefined ? [] : [r];
          })
        : [];
    const overridden = new Set(restrictedRevisions.flatMap((r) => r.overrides ?? []));
    const fns = [
      ...baseline.flatMap((c) => {
        const r = revisionAt(c, minor);
        return r === undefined || overridden.has(c.id) ? [] : [r.checkPod];
      }),
      ...restrictedRevisions.map((r) => r.checkPod),
    ];
    cache.set(key, fns);
    return fns;
  };

  return {
    maxVersion,
    evaluate(lv, metadata, spec) {
      if (lv.level === "privileged") return { allowed: true, reasons: [], details: [] };
      const minor = lv.version.latest ? maxVersion : Math.min(lv.version.minor, maxVersion);
      return aggregate(checksFor(lv.level, minor).map((check) => check(metadata, spec)));
    },
  };
}
