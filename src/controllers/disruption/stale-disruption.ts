/**
 * Stale DisruptionTarget cleanup (upstream's stalePodDisruptionQueue): a pod that an eviction
 * marked `DisruptionTarget=True` but that was not deleted within two minutes gets the condition
 * reset to False.
 */
import { isPodTerminal, type Pod, type PodCondition } from "../../api/index.ts";
import { type Client, keyOf, podsResource, type SharedInformer } from "../../client/index.ts";
import { type Clock, type DeepReadonly, type Logger, rfc3339 } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  type InformerEvent,
  requeueAfter,
  splitKey,
} from "../framework/index.ts";

/** How long a DisruptionTarget condition may stand before the pod is deleted. */
export const stalePodDisruptionTimeoutMs = 2 * 60 * 1000;

export const disruptionTargetCondition = "DisruptionTarget";

/**
 * How long until the pod's DisruptionTarget condition is stale (0: stale now), or `undefined`
 * when the pod has no such condition to reset (terminating, terminal, False, or set by the
 * kubelet).
 */
export function staleDisruptionWait(pod: DeepReadonly<Pod>, now: Date): number | undefined {
  if (pod.metadata.deletionTimestamp !== undefined) return undefined;
  if (isPodTerminal(pod)) return undefined;
  const condition = pod.status?.conditions?.find((c) => c.type === disruptionTargetCondition);
  if (condition === undefined || condition.status !== "True") return undefined;
  if (condition.reason === "TerminationByKubelet") return undefined;
  const since = Date.parse(condition.lastTransitionTime ?? "");
  const elapsed = Number.isNaN(since) ? stalePodDisruptionTimeoutMs : now.getTime() - since;
  return Math.max(0, stalePodDisruptionTimeoutMs - elapsed);
}

export interface StaleDisruptionDeps {
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly pods: SharedInformer<Pod>;
}

export function newStaleDisruptionController(deps: StaleDisruptionDeps): Controller {
  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    if (event.type === "delete") return [];
    return staleDisruptionWait(event.object, deps.clock.now()) === undefined
      ? []
      : [keyOf(event.object)];
  };
  return defineController<Pod>({
    name: "disruption-stale-pods",
    primary: deps.pods,
    primaryToKeys: mapPod,
    reconcile: async (key) => {
      const { namespace, name } = splitKey(key);
      const pod = deps.pods.lister.get(namespace, name);
      if (pod === undefined) return {};
      const now = deps.clock.now();
      const wait = staleDisruptionWait(pod, now);
      if (wait === undefined) return {};
      if (wait > 0) return requeueAfter(wait);
      const next = structuredClone(pod) as Pod;
      const conditions: PodCondition[] = (next.status?.conditions ?? []).map((c) =>
        c.type === disruptionTargetCondition
          ? { type: c.type, status: "False", lastTransitionTime: rfc3339(now) }
          : c,
      );
      next.status = { ...next.status, conditions };
      await deps.client.updateStatus<Pod>(podsResource, next);
      deps.logger.v(2).info("Reset stale DisruptionTarget condition to False", { pod: key });
      return {};
    },
    workers: 1,
    clock: deps.clock,
    logger: deps.logger,
  });
}
