/**
 * The eviction subresource's decision (upstream's EvictionREST.Create in
 * pkg/registry/core/pod/storage/eviction.go): pods that bypass budgets, the one matching
 * PodDisruptionBudget, the unhealthy-pod policy, checkAndDecrement with optimistic concurrency
 * on the budget's status, the DisruptionTarget condition before the delete, and the exact
 * responses. Budgets with `budgetScope: PodGroup` decide on what the eviction does to groups.
 */
import {
  ApiError,
  type Condition,
  conflict,
  type DeleteOptions,
  disruptionAllowedCondition,
  effectiveBudgetScope,
  forbidden,
  insufficientPodsReason,
  internalError,
  isPodReady,
  type KubeObject,
  type LabelSelector,
  matchesLabels,
  type Pod,
  type PodDisruptionBudget,
  type PodDisruptionBudgetStatus,
  type Status,
  selectorFromLabelSelector,
  tooManyRequests,
} from "../../../api/index.ts";
import { type Clock, deepCopy, rfc3339 } from "../../../util/index.ts";
import type { Store, WriteContext } from "../generic/store.ts";
import { decideForGroups, type GroupSnapshot } from "./groups.ts";
import type { EvictionBudgetScope, EvictionMetrics, EvictionResult } from "./metrics.ts";

/** The message of every budget 429. */
export const budgetViolationMessage =
  "Cannot evict pod as it would violate the pod's disruption budget.";
/** More unconfirmed evictions than this and the budget refuses (MaxDisruptedPodSize). */
export const maxDisruptedPodSize = 2000;
/** Upstream's retry: 20 steps (its 500 ms pauses are not needed in-process). */
const retrySteps = 20;

/** What the decision reads and writes. */
export interface EvictionDeps {
  readonly pods: Store;
  readonly budgets: Store;
  /**
   * The namespace's budgets that may select `pod` (at least every one that does), read fresh
   * (upstream LISTs the namespace's budgets through a loopback client).
   */
  listBudgets(namespace: string, pod: Pod): Promise<PodDisruptionBudget[]>;
  /** The namespace's pods, Workloads and PodGroups for group-scoped budgets. */
  groupSnapshot(namespace: string): Promise<GroupSnapshot>;
  readonly clock: Clock;
  /** Where each eviction's result is counted. */
  readonly metrics: EvictionMetrics;
}

export interface EvictionRequest {
  readonly namespace: string;
  readonly name: string;
  /** The Eviction's deleteOptions after dry-run propagation (see `mergeDryRun`). */
  readonly options: DeleteOptions;
  /** The write context of the request; `dryRun` follows `options.dryRun`. */
  readonly context: WriteContext;
}

const success: Status = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Success",
  code: 201,
};

/** The 500 for a pod with several budgets: a Failure Status with no reason, as upstream. */
const multipleBudgets: Status = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message:
    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
  code: 500,
};

/**
 * Dry-run propagation from the request's CreateOptions into the Eviction's DeleteOptions; a
 * disagreement is the plain (500) error upstream returns.
 */
export function mergeDryRun(
  options: DeleteOptions | undefined,
  createDryRun: readonly string[],
): DeleteOptions {
  if (options === undefined) return createDryRun.length > 0 ? { dryRun: [...createDryRun] } : {};
  const own = options.dryRun ?? [];
  if (own.length === 0) {
    return createDryRun.length > 0 ? { ...options, dryRun: [...createDryRun] } : { ...options };
  }
  if (createDryRun.length === 0) return { ...options };
  if (own.length !== createDryRun.length || own.some((v, i) => v !== createDryRun[i])) {
    throw internalError(
      `Non-matching dry-run options in request and content: [${createDryRun.join(" ")}] and [${own.join(" ")}]`,
    );
  }
  return { ...options };
}

function isConflictError(error: unknown): boolean {
  return error instanceof ApiError && error.code === 409;
}

/** Terminal, pending and terminating pods are deleted without a budget check. */
function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return (
    phase === "Succeeded" ||
    phase === "Failed" ||
    phase === "Pending" ||
    pod.metadata.deletionTimestamp !== undefined
  );
}

/** Pending pods (and others not terminal or terminating) are deleted at their resourceVersion. */
function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(
    phase === "Succeeded" ||
    phase === "Failed" ||
    pod.metadata.deletionTimestamp !== undefined
  );
}

function withResourceVersion(options: DeleteOptions, rv: string): DeleteOptions {
  return { ...options, preconditions: { ...options.preconditions, resourceVersion: rv } };
}

function stillProcessing(pdbName: string): ApiError {
  return tooManyRequests(budgetViolationMessage, {
    retryAfterSeconds: 10,
    causes: [
      {
        reason: "DisruptionBudget",
        message: `The disruption budget ${pdbName} is still being processed by the server.`,
      },
    ],
  });
}

/**
 * Compiled budget selectors, by the selector object of a budget from the watch cache: the cache
 * replaces a budget's object when it changes and never changes one in place, so each selector
 * is compiled once, not once per eviction for every budget of the namespace. `null` marks an
 * invalid selector, which selects nothing.
 */
const compiledSelectors = new WeakMap<
  LabelSelector,
  ReturnType<typeof selectorFromLabelSelector> | null
>();

function compiled(selector: LabelSelector): ReturnType<typeof selectorFromLabelSelector> | null {
  let found = compiledSelectors.get(selector);
  if (found === undefined) {
    try {
      found = selectorFromLabelSelector(selector);
    } catch (error: unknown) {
      if (!(error instanceof ApiError)) throw error;
      found = null;
    }
    compiledSelectors.set(selector, found);
  }
  return found;
}

/**
 * Whether `selector` (null: nothing; `{}`: everything; invalid: nothing) selects `pod`. The
 * selector must not change afterwards (its compiled form is kept).
 */
export function selects(selector: LabelSelector | undefined, pod: Pod): boolean {
  if (selector === undefined || selector === null) {
    return matchesLabels(selectorFromLabelSelector(selector), pod.metadata.labels ?? {});
  }
  const found = compiled(selector);
  return found !== null && matchesLabels(found, pod.metadata.labels ?? {});
}

/** A 429 that a budget decided (its cause is DisruptionBudget). */
function isBudgetDenial(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.code === 429 &&
    (error.details?.causes ?? []).some((c) => c.reason === "DisruptionBudget")
  );
}

/**
 * Decides and carries out one eviction. Returns the Status to answer with, or throws ApiError.
 * Counts the result in `deps.metrics`.
 */
export async function evictPod(deps: EvictionDeps, request: EvictionRequest): Promise<Status> {
  const seen: { scope: EvictionBudgetScope } = { scope: "none" };
  let result: EvictionResult = "error";
  try {
    const status = await decideAndEvict(deps, request, seen);
    if (status.status === "Success") result = "evicted";
    return status;
  } catch (error: unknown) {
    if (isBudgetDenial(error)) result = "denied";
    throw error;
  } finally {
    deps.metrics.observe(result, seen.scope);
  }
}

async function decideAndEvict(
  deps: EvictionDeps,
  request: EvictionRequest,
  seen: { scope: EvictionBudgetScope },
): Promise<Status> {
  const { namespace, name } = request;
  const userRv = request.options.preconditions?.resourceVersion;
  const retryConflicts = userRv === undefined;

  // Phase A: pods that bypass budgets.
  let pod: Pod | undefined;
  for (let attempt = 0; ; attempt++) {
    pod = (await deps.pods.get(namespace, name)) as Pod;
    if (!canIgnoreBudget(pod)) break;
    let options = request.options;
    if (shouldEnforceResourceVersion(pod) && userRv === undefined) {
      options = withResourceVersion(options, pod.metadata.resourceVersion ?? "");
    }
    try {
      await addConditionAndDelete(deps, request, options);
      return success;
    } catch (error: unknown) {
      if (!retryConflicts || !isConflictError(error) || attempt >= retrySteps - 1) throw error;
    }
  }

  // Phase B: the budget.
  const budgets = (await deps.listBudgets(namespace, pod)).filter((b) =>
    selects(b.spec.selector, pod),
  );
  if (budgets.length > 1) return multipleBudgets;
  const only = budgets[0];
  if (only === undefined) {
    await addConditionAndDelete(deps, request, request.options);
    return success;
  }
  let pdb = only;
  const pdbName = pdb.metadata.name ?? "";
  let guard = false;
  const dryRun = (request.options.dryRun?.length ?? 0) > 0;
  seen.scope = effectiveBudgetScope(pdb.spec);
  if (seen.scope === "PodGroup") {
    guard = await spendForGroups(deps, request, pod, pdb, dryRun);
  } else {
    if (!isPodReady(pod)) {
      const status = pdb.status;
      if (pdb.spec.unhealthyPodEvictionPolicy === "AlwaysAllow") guard = true;
      else if (
        status !== undefined &&
        status.currentHealthy >= status.desiredHealthy &&
        status.desiredHealthy > 0
      ) {
        guard = true;
      }
    }
    if (!guard) {
      for (let attempt = 0; ; attempt++) {
        try {
          await checkAndDecrement(deps, request, pdb, name, dryRun, true);
          break;
        } catch (error: unknown) {
          if (!isConflictError(error) || attempt >= retrySteps - 1) throw error;
          pdb = (await deps.budgets.get(namespace, pdbName)) as PodDisruptionBudget;
        }
      }
    }
  }

  let options = request.options;
  if (guard) options = withResourceVersion(options, pod.metadata.resourceVersion ?? "");
  try {
    await addConditionAndDelete(deps, request, options);
  } catch (error: unknown) {
    if (isConflictError(error) && guard && userRv === undefined) throw stillProcessing(pdbName);
    throw error;
  }
  return success;
}

/**
 * The group-scoped decision, retried on conflicts of the budget's status. Returns true when the
 * delete should carry the pod's resourceVersion (an unhealthy pod evicted without budget).
 */
async function spendForGroups(
  deps: EvictionDeps,
  request: EvictionRequest,
  pod: Pod,
  first: PodDisruptionBudget,
  dryRun: boolean,
): Promise<boolean> {
  let pdb = first;
  for (let attempt = 0; ; attempt++) {
    try {
      const snapshot = await deps.groupSnapshot(request.namespace);
      const decision = decideForGroups(pdb, pod, snapshot, deps.clock.now());
      switch (decision.kind) {
        case "perPod":
          return perPodSpend(deps, request, pod, pdb, dryRun);
        case "missing":
          throw tooManyRequests(
            `Cannot evict pod as its disruption budget cannot resolve the pod's group: ${decision.message}`,
            {
              causes: [
                {
                  reason: "DisruptionBudget",
                  message: `The disruption budget ${pdb.metadata.name ?? ""} cannot resolve the pod's group: ${decision.message}`,
                },
              ],
            },
          );
        case "free":
          // Recorded in disruptedPods so concurrent evictions see the group one pod smaller.
          await checkAndDecrement(deps, request, pdb, request.name, dryRun, false);
          return false;
        case "unhealthy":
          return true;
        case "spend":
          await checkAndDecrement(deps, request, pdb, request.name, dryRun, true);
          return false;
      }
    } catch (error: unknown) {
      if (!isConflictError(error) || attempt >= retrySteps - 1) throw error;
      pdb = (await deps.budgets.get(
        request.namespace,
        pdb.metadata.name ?? "",
      )) as PodDisruptionBudget;
    }
  }
}

/** The classic decision for a group-scoped budget that fell back to counting pods. */
async function perPodSpend(
  deps: EvictionDeps,
  request: EvictionRequest,
  pod: Pod,
  pdb: PodDisruptionBudget,
  dryRun: boolean,
): Promise<boolean> {
  const status = pdb.status;
  if (!isPodReady(pod)) {
    if (pdb.spec.unhealthyPodEvictionPolicy === "AlwaysAllow") return true;
    if (
      status !== undefined &&
      status.currentHealthy >= status.desiredHealthy &&
      status.desiredHealthy > 0
    ) {
      return true;
    }
  }
  await checkAndDecrement(deps, request, pdb, request.name, dryRun, true);
  return false;
}

/**
 * checkAndDecrement: the generation, negative and map-size checks, then (when `spend`) one
 * unit of `disruptionsAllowed`, and the pod in `disruptedPods`, written at the budget's
 * resourceVersion. Dry runs write nothing.
 */
export async function checkAndDecrement(
  deps: EvictionDeps,
  request: EvictionRequest,
  pdb: PodDisruptionBudget,
  podName: string,
  dryRun: boolean,
  spend: boolean,
): Promise<void> {
  const pdbName = pdb.metadata.name ?? "";
  const status: PodDisruptionBudgetStatus = deepCopy(
    pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
  );
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) {
    throw stillProcessing(pdbName);
  }
  const gr = { group: "policy", resource: "poddisruptionbudget" };
  if (status.disruptionsAllowed < 0) {
    throw forbidden(gr, pdbName, "pdb disruptions allowed is negative");
  }
  if (Object.keys(status.disruptedPods ?? {}).length > maxDisruptedPodSize) {
    throw forbidden(
      gr,
      pdbName,
      "DisruptedPods map too big - too many evictions not confirmed by PDB controller",
    );
  }
  if (spend) {
    if (status.disruptionsAllowed === 0) {
      throw tooManyRequests(budgetViolationMessage, {
        causes: [
          {
            reason: "DisruptionBudget",
            message: `The disruption budget ${pdbName} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
          },
        ],
      });
    }
    status.disruptionsAllowed--;
    if (status.disruptionsAllowed === 0) {
      status.conditions = setInsufficient(status, deps.clock.now());
    }
  }
  if (dryRun) return;
  status.disruptedPods = { ...status.disruptedPods, [podName]: rfc3339(deps.clock.now()) };
  const expected = pdb.metadata.resourceVersion ?? "";
  await deps.budgets.update(
    request.namespace,
    pdbName,
    (current: KubeObject) => {
      if (current.metadata.resourceVersion !== expected) {
        throw conflict(
          { group: "policy", resource: "poddisruptionbudgets" },
          pdbName,
          "the object has been modified; please apply your changes to the latest version and try again",
        );
      }
      current["status"] = status;
      return current;
    },
    { ...request.context, dryRun: false, subresource: "status" },
  );
}

/** DisruptionAllowed=False/InsufficientPods, as UpdateDisruptionAllowedCondition sets it. */
function setInsufficient(status: PodDisruptionBudgetStatus, now: Date): Condition[] {
  const conditions = [...(status.conditions ?? [])];
  const index = conditions.findIndex((c) => c.type === disruptionAllowedCondition);
  const current = conditions[index];
  const next: Condition = {
    type: disruptionAllowedCondition,
    status: "False",
    reason: insufficientPodsReason,
    message: "",
    lastTransitionTime:
      current !== undefined && current.status === "False"
        ? current.lastTransitionTime
        : rfc3339(now),
  };
  if (status.observedGeneration !== undefined) next.observedGeneration = status.observedGeneration;
  if (current === undefined) conditions.push(next);
  else conditions[index] = next;
  return conditions;
}

/**
 * addConditionAndDeletePod: unless dry-run, sets `DisruptionTarget=True` (checking the
 * preconditions against the latest pod), moves an RV precondition to the written revision,
 * then deletes the pod with `options`.
 */
async function addConditionAndDelete(
  deps: EvictionDeps,
  request: EvictionRequest,
  options: DeleteOptions,
): Promise<void> {
  const { namespace, name } = request;
  const dryRun = (options.dryRun?.length ?? 0) > 0;
  let deleteOptions = options;
  if (!dryRun) {
    const pre = options.preconditions;
    const now = rfc3339(deps.clock.now());
    const updated = await deps.pods.update(
      namespace,
      name,
      (current: KubeObject) => {
        const gr = { group: "", resource: "Pod" };
        if (pre?.uid !== undefined && pre.uid !== current.metadata.uid) {
          throw conflict(
            gr,
            name,
            `the UID in the precondition (${pre.uid}) does not match the UID in record (${current.metadata.uid ?? ""}). The object might have been deleted and then recreated`,
          );
        }
        if (
          pre?.resourceVersion !== undefined &&
          pre.resourceVersion !== current.metadata.resourceVersion
        ) {
          throw conflict(
            gr,
            name,
            `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion ?? ""}). The object might have been modified`,
          );
        }
        const pod = current as Pod;
        const conditions = pod.status?.conditions ?? [];
        const existing = conditions.find((c) => c.type === "DisruptionTarget");
        const condition = {
          type: "DisruptionTarget",
          status: "True" as const,
          reason: "EvictionByEvictionAPI",
          message: "Eviction API: evicting",
          lastTransitionTime:
            existing !== undefined && existing.status === "True"
              ? (existing.lastTransitionTime ?? now)
              : now,
        };
        pod.status = {
          ...pod.status,
          conditions: [...conditions.filter((c) => c.type !== "DisruptionTarget"), condition],
        };
        return pod;
      },
      { ...request.context, dryRun: false, subresource: "status" },
    );
    if (pre?.resourceVersion !== undefined) {
      deleteOptions = withResourceVersion(options, updated.metadata.resourceVersion ?? "");
    }
  }
  await deps.pods.delete(namespace, name, deleteOptions, { ...request.context, dryRun });
}
