/** One reconcile of a DaemonSet (upstream's `syncDaemonSet`, `manage`, `syncNodes`). */
import {
  type ControllerRevision,
  type DaemonSet,
  type LabelSelector,
  type LabelSelectorExpr,
  matchesLabels,
  type Node,
  type Pod,
  selectorFromLabelSelector,
} from "../../api/index.ts";
import {
  type Client,
  controllerRevisionsResource,
  daemonSetsResource,
  isNamespaceTerminating,
  isNotFound,
  keyOf,
  podsResource,
  type SharedInformer,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, errorMessage } from "../../util/index.ts";
import {
  claimObjects,
  done,
  type EventRecorder,
  type Expectations,
  earliest,
  msUntilAvailable,
  newControllerRef,
  type OwnerIdentity,
  podFromTemplate,
  type ReconcileResult,
  recheckNotDeleting,
  referenceTo,
  requeueAfter,
  splitKey,
  terminal,
  updateStatusIfChanged,
} from "../framework/index.ts";
import type { FailedPodBackoff } from "./backoff.ts";
import { cleanupHistory, constructHistory, hashOf } from "./history.ts";
import { pinToNode, targetNodeName } from "./placement.ts";
import { type NodeActions, planManage, planRollingUpdate } from "./plan.ts";
import { daemonPodTemplate, templateGeneration } from "./revision.ts";
import { computeDaemonSetStatus } from "./status.ts";

export const daemonSetIdentity: OwnerIdentity = { apiVersion: "apps/v1", kind: "DaemonSet" };

export interface DaemonSetContext {
  readonly client: Client;
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly daemonSets: SharedInformer<DaemonSet>;
  readonly pods: SharedInformer<Pod>;
  readonly nodes: SharedInformer<Node>;
  readonly revisions: SharedInformer<ControllerRevision>;
  /** Expected pod creations per DaemonSet key. */
  readonly creations: Expectations;
  /** Expected pod deletions per DaemonSet key. */
  readonly deletions: Expectations;
  readonly backoff: FailedPodBackoff;
  /** Most creations or deletions per sync (upstream's BurstReplicas). */
  readonly burstReplicas: number;
}

type DS = DeepReadonly<DaemonSet>;

/** `getNodesToDaemonPods`: owned pods by target node, without those finished and being deleted. */
function groupByNode(pods: readonly DeepReadonly<Pod>[]): Map<string, DeepReadonly<Pod>[]> {
  const byNode = new Map<string, DeepReadonly<Pod>[]>();
  for (const pod of pods) {
    const phase = pod.status?.phase;
    const terminal = phase === "Succeeded" || phase === "Failed";
    if (terminal && pod.metadata.deletionTimestamp !== undefined) continue;
    const node = targetNodeName(pod);
    if (node === undefined) continue;
    byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  return byNode;
}

/** Whether the selector is `{}`, which selects every pod (upstream refuses to act on it). */
function selectsEverything(ds: DS): boolean {
  const selector = ds.spec.selector;
  return (
    selector !== undefined &&
    Object.keys(selector.matchLabels ?? {}).length === 0 &&
    (selector.matchExpressions ?? []).length === 0
  );
}

/** Converges the DaemonSet stored under `key`. */
export async function reconcileDaemonSet(
  context: DaemonSetContext,
  key: string,
): Promise<ReconcileResult> {
  const { namespace, name } = splitKey(key);
  const ds = context.daemonSets.lister.get(namespace, name);
  if (ds === undefined) {
    context.creations.delete(key);
    context.deletions.delete(key);
    return done;
  }
  const involved = referenceTo(ds, daemonSetsResource);
  if (selectsEverything(ds)) {
    context.events.event(
      involved,
      "Warning",
      "SelectingAll",
      "This daemon set is selecting all pods. A non-empty selector is required.",
    );
    return done;
  }
  if (ds.metadata.deletionTimestamp !== undefined) return done;
  let selector: LabelSelectorExpr;
  try {
    selector = selectorFromLabelSelector(ds.spec.selector as LabelSelector | undefined);
  } catch (error: unknown) {
    throw terminal(error);
  }
  const client = context.client;
  const generation = templateGeneration(ds);
  const nodes = context.nodes.lister.list();
  const satisfied = context.creations.satisfied(key) && context.deletions.satisfied(key);
  const owned = await claimObjects<Pod>(client, {
    controller: ds,
    identity: daemonSetIdentity,
    resource: podsResource,
    candidates: context.pods.lister.list(namespace),
    matches: (pod) => matchesLabels(selector, pod.metadata.labels ?? {}),
    canAdopt: () => recheckNotDeleting(client, daemonSetsResource, ds),
  });
  const history = await constructHistory(
    client,
    ds,
    daemonSetIdentity,
    await claimObjects<ControllerRevision>(client, {
      controller: ds,
      identity: daemonSetIdentity,
      resource: controllerRevisionsResource,
      candidates: context.revisions.lister.list(namespace),
      matches: (revision) => matchesLabels(selector, revision.metadata.labels ?? {}),
      canAdopt: () => recheckNotDeleting(client, daemonSetsResource, ds),
    }),
    owned,
  );
  const hash = hashOf(history);
  const podsByNode = groupByNode(owned);
  const now = context.clock.now();
  let result: ReconcileResult = done;
  let failure: unknown;
  if (satisfied) {
    const backoffKey = (node: string): string =>
      `${ds.metadata.uid ?? ""}/${ds.status?.observedGeneration ?? 0}/${node}`;
    const manage = planManage({
      ds,
      nodes,
      podsByNode,
      hash,
      generation,
      now,
      failedBackoffMs: (node) => context.backoff.remainingMs(backoffKey(node), now.getTime()),
    });
    for (const node of manage.failedOn) context.backoff.next(backoffKey(node), now.getTime());
    if (manage.retryAfterMs !== undefined) result = requeueAfter(manage.retryAfterMs);
    try {
      await syncNodes(context, ds, key, manage, hash);
      const quiet = manage.createOn.length === 0 && manage.deletePods.length === 0;
      if (quiet && (ds.spec.updateStrategy?.type ?? "RollingUpdate") === "RollingUpdate") {
        await syncNodes(
          context,
          ds,
          key,
          planRollingUpdate({ ds, nodes, podsByNode, hash, generation, now }),
          hash,
        );
      }
      await cleanupHistory(client, ds, history, owned);
    } catch (error: unknown) {
      failure = error;
    }
  }
  const status = computeDaemonSetStatus({
    ds,
    nodes,
    podsByNode,
    hash,
    generation,
    observeGeneration: satisfied,
    now,
  });
  await updateStatusIfChanged(client, daemonSetsResource, ds, status);
  if (failure !== undefined) throw failure;
  const minReady = ds.spec.minReadySeconds ?? 0;
  if (minReady > 0 && status.numberReady !== (status.numberAvailable ?? 0)) {
    const waits = owned
      .map((pod) => msUntilAvailable(pod, minReady, now))
      .filter((ms): ms is number => ms !== undefined && ms > 0);
    result = earliest(
      result,
      requeueAfter(waits.length > 0 ? Math.min(...waits) : minReady * 1000),
    );
  }
  return result;
}

/**
 * `syncNodes`: deletes the given pods and creates a daemon pod on each given node (at most
 * `burstReplicas` of each), creations in slow-start batches, after recording expectations.
 * Throws the first error once every write was tried.
 */
async function syncNodes(
  context: DaemonSetContext,
  ds: DS,
  key: string,
  actions: NodeActions,
  hash: string,
): Promise<void> {
  const { client, events } = context;
  const involved = referenceTo(ds, daemonSetsResource);
  for (const event of actions.events) {
    events.event(involved, event.type, event.reason, event.message);
  }
  const createOn = actions.createOn.slice(0, context.burstReplicas);
  const victims = actions.deletePods.slice(0, context.burstReplicas);
  if (createOn.length === 0 && victims.length === 0) return;
  context.creations.expectCreations(key, createOn.length);
  context.deletions.expectDeletions(key, victims.map(keyOf));
  const namespace = ds.metadata.namespace ?? "";
  const dsName = ds.metadata.name ?? "";
  const template = daemonPodTemplate(ds, hash);
  const ref = newControllerRef(ds, daemonSetIdentity);
  const errors: unknown[] = [];

  let next = 0;
  for (let batch = Math.min(1, createOn.length); batch > 0; ) {
    const nodes = createOn.slice(next, next + batch);
    next += nodes.length;
    const results = await Promise.allSettled(
      nodes.map(async (node) => {
        const pod = podFromTemplate(template, namespace, dsName, ref);
        pod.spec.affinity = pinToNode(template.spec?.affinity, node);
        try {
          const created = await client.create<Pod>(podsResource, pod);
          events.event(
            involved,
            "Normal",
            "SuccessfulCreate",
            `Created pod: ${created.metadata.name ?? ""}`,
          );
        } catch (error: unknown) {
          if (isNamespaceTerminating(error)) return;
          context.creations.creationObserved(key);
          events.event(
            involved,
            "Warning",
            "FailedCreate",
            `Error creating: ${errorMessage(error)}`,
          );
          throw error;
        }
      }),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    errors.push(...failed.map((r) => r.reason));
    if (failed.length > 0) {
      // Creations never attempted will not be observed.
      for (let i = next; i < createOn.length; i++) context.creations.creationObserved(key);
      break;
    }
    batch = Math.min(2 * batch, createOn.length - next);
  }

  const deleted = await Promise.allSettled(
    victims.map(async (pod) => {
      const podName = pod.metadata.name ?? "";
      try {
        await client.delete(podsResource, namespace, podName);
        events.event(involved, "Normal", "SuccessfulDelete", `Deleted pod: ${podName}`);
      } catch (error: unknown) {
        context.deletions.deletionObserved(key, keyOf(pod));
        if (isNotFound(error)) return;
        events.event(involved, "Warning", "FailedDelete", `Error deleting: ${errorMessage(error)}`);
        throw error;
      }
    }),
  );
  for (const r of deleted) if (r.status === "rejected") errors.push(r.reason);
  if (errors.length > 0) throw errors[0];
}
