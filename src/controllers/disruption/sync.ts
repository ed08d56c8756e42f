/**
 * One budget's sync: trySync, then failSafe on any error but a conflict (upstream's sync,
 * trySync, getExpectedPodCount, updatePdbStatus and failSafe), with the group-scoped variant
 * of the counting.
 */
import {
  countPodGroups,
  effectiveBudgetScope,
  formatLabelSelector,
  type LabelSelector,
  type Pod,
  type PodDisruptionBudget,
  type PodDisruptionBudgetStatus,
  type PodGroup,
  type PodGroupSource,
  selectorFromLabelSelector,
  type Workload,
} from "../../api/index.ts";
import {
  type Client,
  isConflict,
  podDisruptionBudgetsResource,
  podsResource,
  type SharedInformer,
} from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import {
  describe,
  type EventRecorder,
  type ReconcileResult,
  referenceTo,
  requeueAfter,
} from "../framework/index.ts";
import { type FinderSources, getExpectedScale } from "./finders.ts";
import type { DisruptionMetrics, ReconcileMode } from "./metrics.ts";
import {
  buildDisruptedPodMap,
  countHealthyPods,
  type ExpectedCount,
  expectedPodCount,
  failSafeStatus,
  nextPdbStatus,
  scaledValue,
} from "./status.ts";

/** What a budget sync reads and writes through. */
export interface BudgetContext {
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
  readonly metrics: DisruptionMetrics;
  readonly pods: SharedInformer<Pod>;
  readonly workloads: SharedInformer<Workload>;
  readonly podGroups: SharedInformer<PodGroup>;
  readonly sources: FinderSources;
  /** Budget key → the warning reasons already recorded for it (one event per budget). */
  readonly warned: Map<string, Set<string>>;
  /** Keys of budgets in PodGroup scope. */
  readonly grouped: Set<string>;
}

/** An error that already produced its event; failSafe records it as the condition message. */
class SyncError extends Error {}

/** The objects group resolution reads, from the informers of one namespace. */
export function groupSourceOf(
  workloads: SharedInformer<Workload>,
  podGroups: SharedInformer<PodGroup>,
  namespace: string,
): PodGroupSource {
  return {
    workload: (name) => workloads.lister.get(namespace, name),
    podGroup: (name) => podGroups.lister.get(namespace, name),
    podGroupsOf: (workload, template) =>
      podGroups.lister
        .list(namespace)
        .filter(
          (pg) =>
            pg.spec.workloadRef.name === workload && pg.spec.podGroupTemplateName === template,
        ),
  };
}

export async function syncBudget(
  context: BudgetContext,
  key: string,
  pdb: DeepReadonly<PodDisruptionBudget>,
): Promise<ReconcileResult> {
  const scope = effectiveBudgetScope(pdb.spec as PodDisruptionBudget["spec"]);
  if (scope === "PodGroup") context.grouped.add(key);
  else context.grouped.delete(key);
  context.metrics.pdbsUsingPodGrouping(context.grouped.size);
  try {
    const { result, mode } = await trySync(context, key, pdb);
    context.metrics.reconciled(mode);
    return result;
  } catch (error: unknown) {
    context.metrics.reconciled(scope === "PodGroup" ? "group" : "pod");
    if (isConflict(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    context.logger.error("Failed to sync PodDisruptionBudget", { key, error: describe(error) });
    const status = failSafeStatus(pdb, message, context.clock.now());
    await writeStatus(context, pdb, status);
    return {};
  }
}

async function writeStatus(
  context: BudgetContext,
  pdb: DeepReadonly<PodDisruptionBudget>,
  status: PodDisruptionBudgetStatus,
): Promise<void> {
  const next = structuredClone(pdb) as PodDisruptionBudget;
  next.status = status;
  await context.client.updateStatus<PodDisruptionBudget>(podDisruptionBudgetsResource, next);
}

function event(
  context: BudgetContext,
  pdb: DeepReadonly<PodDisruptionBudget>,
  type: "Normal" | "Warning",
  reason: string,
  message: string,
): void {
  context.events.event(referenceTo(pdb, podDisruptionBudgetsResource), type, reason, message);
}

/** Records an event once per budget and reason (not on every sync). */
function recordOnce(
  context: BudgetContext,
  key: string,
  pdb: DeepReadonly<PodDisruptionBudget>,
  type: "Normal" | "Warning",
  reason: string,
  message: string,
): void {
  const seen = context.warned.get(key) ?? new Set<string>();
  context.warned.set(key, seen);
  if (seen.has(reason)) return;
  seen.add(reason);
  event(context, pdb, type, reason, message);
}

function warnOnce(
  context: BudgetContext,
  key: string,
  pdb: DeepReadonly<PodDisruptionBudget>,
  reason: string,
  message: string,
): void {
  recordOnce(context, key, pdb, "Warning", reason, message);
}

/**
 * The Normal event that makes `kubectl describe pdb` say what its numbers count: kubectl's
 * describer prints the four counters and the events, not the spec's scope or the conditions.
 */
export const countingPodGroupsReason = "CountingPodGroups";
export const countingPodGroupsMessage =
  "This budget counts pod groups (budgetScope: PodGroup): Allowed disruptions, Current, Desired and Total are numbers of pod groups, not pods";

async function trySync(
  context: BudgetContext,
  key: string,
  pdb: DeepReadonly<PodDisruptionBudget>,
): Promise<{ result: ReconcileResult; mode: ReconcileMode }> {
  const namespace = pdb.metadata.namespace ?? "";
  let pods: DeepReadonly<Pod>[];
  try {
    const selector = selectorFromLabelSelector(pdb.spec.selector as LabelSelector | undefined);
    pods = context.pods.lister.list(namespace, selector);
  } catch (error: unknown) {
    const message = error instanceof Error ? error.message : String(error);
    event(context, pdb, "Warning", "NoPods", `Failed to get pods: ${message}`);
    throw new SyncError(message);
  }
  if (pods.length === 0) event(context, pdb, "Normal", "NoPods", "No matching pods found");
  const now = context.clock.now();
  const { disrupted, recheckAt, expired } = buildDisruptedPodMap(pods, pdb, now);
  for (const pod of expired) {
    context.events.event(
      referenceTo(pod, podsResource),
      "Warning",
      "NotDeleted",
      // Upstream prints the namespace twice.
      `Pod was expected by PDB ${namespace}/${namespace} to be deleted but it wasn't`,
    );
  }

  let mode: ReconcileMode = "pod";
  let counts: { healthy: number; desired: number; expected: number };
  const scope = effectiveBudgetScope(pdb.spec as PodDisruptionBudget["spec"]);
  const groups =
    scope === "PodGroup"
      ? countPodGroups(
          pods,
          groupSourceOf(context.workloads, context.podGroups, namespace),
          disrupted,
        )
      : undefined;
  if (groups !== undefined && !(groups.noGroups && pods.length > 0)) {
    mode = "group";
    recordOnce(context, key, pdb, "Normal", countingPodGroupsReason, countingPodGroupsMessage);
    if (groups.missing !== undefined) {
      throw new SyncError(`Failed to resolve pod groups: ${groups.missing}`);
    }
    if (groups.ungroupedPods.length > 0) {
      context.metrics.misconfigured();
      warnOnce(
        context,
        key,
        pdb,
        "PodsWithoutPodGroup",
        `Pods selected by this PodDisruptionBudget have no spec.workloadRef and count as single-pod groups: ${groups.ungroupedPods.join(", ")}`,
      );
    }
    if (groups.invalidPods.length > 0) {
      context.metrics.misconfigured();
      warnOnce(
        context,
        key,
        pdb,
        "InvalidPodGroupReference",
        `Pods selected by this PodDisruptionBudget name a Workload but no pod group and count as unhealthy groups: ${groups.invalidPods.join(", ")}`,
      );
    }
    const desired = desiredGroups(pdb, groups.expected);
    counts = { healthy: groups.healthy, desired, expected: groups.expected };
  } else {
    if (groups !== undefined) {
      mode = "fallback";
      context.metrics.misconfigured();
      warnOnce(
        context,
        key,
        pdb,
        "NoPodGroups",
        "None of the pods selected by this PodDisruptionBudget belong to a pod group (spec.workloadRef); counting individual pods",
      );
    }
    let expected: ExpectedCount;
    try {
      expected = await expectedPodCount(pdb.spec as PodDisruptionBudget["spec"], pods.length, () =>
        getExpectedScale(context.sources, pods),
      );
    } catch (error: unknown) {
      const message = error instanceof Error ? error.message : String(error);
      event(
        context,
        pdb,
        "Warning",
        "CalculateExpectedPodCountFailed",
        `Failed to calculate the number of expected pods: ${message}`,
      );
      throw new SyncError(message);
    }
    if (expected.unmanaged.length > 0) {
      event(
        context,
        pdb,
        "Warning",
        "UnmanagedPods",
        `Pods selected by this PodDisruptionBudget (selector: ${formatLabelSelector(pdb.spec.selector as LabelSelector | undefined)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }
    counts = {
      healthy: countHealthyPods(pods, disrupted, now),
      desired: expected.desired,
      expected: expected.expected,
    };
  }

  const status = nextPdbStatus(
    pdb,
    {
      currentHealthy: counts.healthy,
      desiredHealthy: counts.desired,
      expectedPods: counts.expected,
      disruptedPods: disrupted,
    },
    now,
  );
  if (status !== undefined) await writeStatus(context, pdb, status);
  const result = recheckAt === undefined ? {} : requeueAfter(recheckAt.getTime() - now.getTime());
  return { result, mode };
}

/** desiredHealthy counted in groups: minAvailable as is (or % of expected), or expected − max. */
function desiredGroups(pdb: DeepReadonly<PodDisruptionBudget>, expected: number): number {
  const { minAvailable, maxUnavailable } = pdb.spec;
  if (maxUnavailable !== undefined) {
    return Math.max(0, expected - scaledValue(maxUnavailable, expected));
  }
  if (minAvailable !== undefined) return scaledValue(minAvailable, expected);
  return 0;
}
