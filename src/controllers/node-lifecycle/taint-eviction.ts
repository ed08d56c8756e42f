/**
 * The taint eviction controller (upstream's pkg/controller/tainteviction, formerly the node
 * lifecycle controller's NoExecuteTaintManager): a pod bound to a node with a NoExecute taint it
 * does not tolerate is deleted at once; one tolerating every such taint for a limited
 * `tolerationSeconds` is deleted when the shortest of them has passed since the eviction was
 * scheduled; one tolerating them forever stays. Before deleting, the pod gets the condition
 * DisruptionTarget=True (reason DeletionByTaintManager).
 */
import {
  type Node,
  type Pod,
  semanticEqual,
  type Taint,
  type Toleration,
  toleratesTaint,
} from "../../api/index.ts";
import {
  type Client,
  type InformerFactory,
  isNotFound,
  keyOf,
  nodesResource,
  podsResource,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, type Logger, rfc3339 } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  type EventRecorder,
  ensureIndex,
  type InformerEvent,
  type ReconcileResult,
  requeueAfter,
  splitKey,
  watch,
} from "../framework/index.ts";
import { nodeNameIndex, podsOnNodeIndexFunc } from "./internal.ts";

export interface TaintEvictionControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
}

export interface TaintEvictionControllerOptions {
  /** Concurrent reconciles (upstream's UpdateWorkerSize). @default 8 */
  readonly workers?: number;
}

/** What to do with one pod on a NoExecute-tainted node. */
export type EvictionDecision =
  | { readonly action: "keep" }
  | { readonly action: "evictNow" }
  | { readonly action: "evictAt"; readonly at: number };

/**
 * `GetMatchingTolerations` + `getMinTolerationTime`: for each taint the first toleration that
 * tolerates it; the smallest tolerationSeconds among them (≤ 0 counts as 0), or -1 when none
 * is limited.
 */
export function minTolerationMs(
  taints: readonly DeepReadonly<Taint>[],
  tolerations: readonly DeepReadonly<Toleration>[],
): number | "untolerated" {
  let min = -1;
  for (const taint of taints) {
    const used = tolerations.find((t) => toleratesTaint(t, taint));
    if (used === undefined) return "untolerated";
    const seconds = used.tolerationSeconds;
    if (seconds === undefined || seconds === null) continue;
    const ms = Math.max(0, seconds) * 1000;
    if (min < 0 || ms < min) min = ms;
  }
  return min;
}

/**
 * `processPodOnNode`: with no NoExecute taint nothing happens; an untolerated one evicts now;
 * limited tolerations evict at `scheduledAt` (when the eviction was first scheduled, else now)
 * plus the shortest tolerationSeconds; unlimited ones never evict.
 */
export function decideEviction(
  taints: readonly DeepReadonly<Taint>[],
  tolerations: readonly DeepReadonly<Toleration>[],
  scheduledAt: number | undefined,
  now: number,
): EvictionDecision {
  if (taints.length === 0) return { action: "keep" };
  const min = minTolerationMs(taints, tolerations);
  if (min === "untolerated") return { action: "evictNow" };
  if (min < 0) return { action: "keep" };
  const at = (scheduledAt ?? now) + min;
  return at <= now ? { action: "evictNow" } : { action: "evictAt", at };
}

function noExecuteTaints(node: DeepReadonly<Node> | undefined): DeepReadonly<Taint>[] {
  return (node?.spec?.taints ?? []).filter((t) => t.effect === "NoExecute");
}

export function newTaintEvictionController(
  deps: TaintEvictionControllerDeps,
  options: TaintEvictionControllerOptions = {},
): Controller {
  const pods = deps.informers.forResource<Pod>(podsResource);
  const nodes = deps.informers.forResource<Node>(nodesResource);
  ensureIndex(pods, nodeNameIndex, podsOnNodeIndexFunc);
  const { client, clock, events } = deps;
  /** Scheduled evictions: pod key → when scheduled and for which pod uid. */
  const scheduled = new Map<string, { since: number; uid: string }>();

  const podRef = (namespace: string, name: string) => ({
    apiVersion: "v1",
    kind: "Pod",
    name,
    namespace,
  });

  const cancel = (key: string): void => {
    if (!scheduled.delete(key)) return;
    const { namespace, name } = splitKey(key);
    events.event(
      podRef(namespace, name),
      "Normal",
      "TaintManagerEviction",
      `Cancelling deletion of Pod ${key}`,
    );
  };

  /** `addConditionAndDeletePod`: DisruptionTarget first, then a plain delete. */
  const evict = async (key: string, uid: string): Promise<void> => {
    const { namespace, name } = splitKey(key);
    let pod: Pod;
    try {
      pod = await client.get<Pod>(podsResource, namespace, name);
    } catch (error: unknown) {
      if (isNotFound(error)) return;
      throw error;
    }
    if (pod.metadata.uid !== uid) return;
    events.event(
      podRef(namespace, name),
      "Normal",
      "TaintManagerEviction",
      `Marking for deletion Pod ${key}`,
    );
    const target = pod.status?.conditions?.find((c) => c.type === "DisruptionTarget");
    const reason = "DeletionByTaintManager";
    if (target?.status !== "True" || target.reason !== reason) {
      try {
        await client.patch(
          podsResource,
          namespace,
          name,
          "strategic",
          {
            metadata: { uid },
            status: {
              conditions: [
                {
                  type: "DisruptionTarget",
                  status: "True",
                  reason,
                  message: "Taint manager: deleting due to NoExecute taint",
                  lastTransitionTime: rfc3339(clock.now()),
                },
              ],
            },
          },
          { subresource: "status" },
        );
      } catch (error: unknown) {
        if (isNotFound(error)) return;
        throw error;
      }
    }
    try {
      await client.delete(podsResource, namespace, name, { preconditions: { uid } });
    } catch (error: unknown) {
      if (!isNotFound(error)) throw error;
    }
  };

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const { namespace, name } = splitKey(key);
    const pod = pods.lister.get(namespace, name);
    const nodeName = pod?.spec.nodeName ?? "";
    if (pod === undefined || nodeName === "") {
      cancel(key);
      return done;
    }
    const uid = pod.metadata.uid ?? "";
    const previous = scheduled.get(key);
    const since = previous?.uid === uid ? previous.since : undefined;
    const now = clock.now().getTime();
    const decision = decideEviction(
      noExecuteTaints(nodes.lister.get(undefined, nodeName)),
      pod.spec.tolerations ?? [],
      since,
      now,
    );
    switch (decision.action) {
      case "keep":
        cancel(key);
        return done;
      case "evictAt":
        scheduled.set(key, { since: since ?? now, uid });
        return requeueAfter(decision.at - now);
      case "evictNow":
        scheduled.delete(key);
        await evict(key, uid);
        return done;
    }
  };

  /** Node events: the pods on a node whose NoExecute taints changed. */
  const mapNode = (event: InformerEvent<Node>): readonly string[] => {
    const name = event.object.metadata.name ?? "";
    if (event.type === "update") {
      const before = noExecuteTaints(event.oldObject);
      const after = noExecuteTaints(event.object);
      if (semanticEqual(before, after)) return [];
    }
    return pods.indexer.indexKeys(nodeNameIndex, name);
  };

  /** Pod events: new pods, and pods whose node or tolerations changed. */
  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    if (event.type === "update") {
      const before = event.oldObject;
      const after = event.object;
      if (
        before.spec.nodeName === after.spec.nodeName &&
        semanticEqual(before.spec.tolerations ?? [], after.spec.tolerations ?? [])
      ) {
        return [];
      }
    }
    return [keyOf(event.object)];
  };

  return defineController<Pod>({
    name: "taint-eviction-controller",
    primary: pods,
    primaryToKeys: mapPod,
    secondary: [watch(nodes, mapNode)],
    reconcile,
    workers: options.workers ?? 8,
    clock,
    logger: deps.logger,
  });
}
