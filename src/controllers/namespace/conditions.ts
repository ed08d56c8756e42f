/**
 * The conditions the namespace controller keeps on a Terminating namespace (upstream's
 * deletion/status_condition_utils.go). Pure.
 */
import { rfc3339 } from "../../util/index.ts";

export interface NamespaceCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** The condition types this controller owns, in the order it writes them. */
export const namespaceConditionTypes = [
  "NamespaceDeletionDiscoveryFailure",
  "NamespaceDeletionGroupVersionParsingFailure",
  "NamespaceDeletionContentFailure",
  "NamespaceContentRemaining",
  "NamespaceFinalizersRemaining",
] as const;

type ConditionType = (typeof namespaceConditionTypes)[number];

const okReasons: Readonly<Record<ConditionType, string>> = {
  NamespaceDeletionDiscoveryFailure: "ResourcesDiscovered",
  NamespaceDeletionGroupVersionParsingFailure: "ParsedGroupVersions",
  NamespaceDeletionContentFailure: "ContentDeleted",
  NamespaceContentRemaining: "ContentRemoved",
  NamespaceFinalizersRemaining: "ContentHasNoFinalizers",
};

const okMessages: Readonly<Record<ConditionType, string>> = {
  NamespaceDeletionDiscoveryFailure: "All resources successfully discovered",
  NamespaceDeletionGroupVersionParsingFailure: "All legacy kube types successfully parsed",
  NamespaceDeletionContentFailure:
    "All content successfully deleted, may be waiting on finalization",
  NamespaceContentRemaining: "All content successfully removed",
  NamespaceFinalizersRemaining: "All content-preserving finalizers finished",
};

/** What one pass over the namespace's content found. */
export interface ContentDeletionResult {
  /** Discovery failures (for example custom resources that could not be listed). */
  readonly discoveryErrors: readonly string[];
  /** One message per resource whose content could not be deleted. */
  readonly deleteErrors: readonly string[];
  /** Objects left per resource, keyed `<resource>.<group>` as upstream prints them. */
  readonly remaining: ReadonlyMap<string, number>;
  /** Objects left per finalizer. */
  readonly finalizersRemaining: ReadonlyMap<string, number>;
}

function failing(type: ConditionType, reason: string, message: string): NamespaceCondition {
  return { type, status: "True", reason, message };
}

function counted(map: ReadonlyMap<string, number>, format: (key: string, n: number) => string) {
  return [...map]
    .filter(([, n]) => n > 0)
    .map(([key, n]) => format(key, n))
    .sort();
}

/** The failing conditions one pass implies (`namespaceConditionUpdater`). */
export function failingConditions(result: ContentDeletionResult): NamespaceCondition[] {
  const out: NamespaceCondition[] = [];
  if (result.discoveryErrors.length > 0) {
    out.push(
      failing(
        "NamespaceDeletionDiscoveryFailure",
        "DiscoveryFailed",
        `Discovery failed for some groups, ${result.discoveryErrors.length} failing: ${result.discoveryErrors.join(", ")}`,
      ),
    );
  }
  const remaining = counted(result.remaining, (r, n) => `${r} has ${n} resource instances`);
  if (remaining.length > 0) {
    out.push(
      failing(
        "NamespaceContentRemaining",
        "SomeResourcesRemain",
        `Some resources are remaining: ${remaining.join(", ")}`,
      ),
    );
  }
  const finalizers = counted(
    result.finalizersRemaining,
    (f, n) => `${f} in ${n} resource instances`,
  );
  if (finalizers.length > 0) {
    out.push(
      failing(
        "NamespaceFinalizersRemaining",
        "SomeFinalizersRemain",
        `Some content in the namespace has finalizers remaining: ${finalizers.join(", ")}`,
      ),
    );
  }
  if (result.deleteErrors.length > 0) {
    const messages = [...result.deleteErrors].sort();
    out.push(
      failing(
        "NamespaceDeletionContentFailure",
        "ContentDeletionFailed",
        `Failed to delete all resource types, ${messages.length} remaining: ${messages.join(", ")}`,
      ),
    );
  }
  return out;
}

/**
 * `updateConditions`: every owned condition type gets either its failing variant or the "ok"
 * one (status False). Existing conditions are updated in place when status, reason or message
 * change (lastTransitionTime only when the status changes); missing ones are appended. Returns
 * the new list, or `undefined` when nothing changed.
 */
export function computeNamespaceConditions(
  current: readonly NamespaceCondition[] | undefined,
  result: ContentDeletionResult,
  now: Date,
): NamespaceCondition[] | undefined {
  const failures = failingConditions(result);
  const time = rfc3339(now);
  const conditions = (current ?? []).map((c) => ({ ...c }));
  let changed = false;
  for (const type of namespaceConditionTypes) {
    const next = failures.find((c) => c.type === type) ?? {
      type,
      status: "False" as const,
      reason: okReasons[type],
      message: okMessages[type],
    };
    const old = conditions.find((c) => c.type === type);
    if (old === undefined) {
      conditions.push({ ...next, lastTransitionTime: time });
      changed = true;
    } else if (
      old.status !== next.status ||
      old.reason !== next.reason ||
      old.message !== next.message
    ) {
      if (old.status !== next.status) old.lastTransitionTime = time;
      old.status = next.status;
      if (next.reason === undefined) delete old.reason;
      else old.reason = next.reason;
      if (next.message === undefined) delete old.message;
      else old.message = next.message;
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}

/**
 * How long to wait before looking at a namespace again when content remains
 * (`ResourcesRemainingError` handling: estimate / 2 + 1 seconds).
 */
export function remainingRequeueMs(estimateSeconds: number): number {
  return (Math.floor(estimateSeconds / 2) + 1) * 1000;
}
