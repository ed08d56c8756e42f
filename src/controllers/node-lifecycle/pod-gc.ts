/**
 * The pod garbage collector's orphaned-pod rule (upstream's pkg/controller/podgc `gcOrphaned`):
 * pods bound to a node that no longer exists are marked Failed with the condition
 * DisruptionTarget=True (reason DeletionByPodGC) and deleted at once. A node counts as gone
 * after it has been missing from the cache for the quarantine period and a live read confirms
 * it. Upstream's other rules (terminated-pod threshold, terminating pods on out-of-service
 * nodes, unscheduled terminating pods) are not implemented.
 */
import type { Node, Pod } from "../../api/index.ts";
import {
  type Client,
  type InformerFactory,
  isNotFound,
  nodesResource,
  podsResource,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, type Logger, rfc3339 } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  ensureIndex,
  type InformerEvent,
  type ReconcileResult,
  watch,
} from "../framework/index.ts";
import { nodeNameIndex, podsOnNodeIndexFunc } from "./internal.ts";

export interface PodGcControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface PodGcControllerOptions {
  /** How long a node must be missing before its pods go (upstream's quarantineTime). @default 40000 */
  readonly quarantineMs?: number;
  /** Concurrent reconciles. @default 2 */
  readonly workers?: number;
}

export function newPodGcController(
  deps: PodGcControllerDeps,
  options: PodGcControllerOptions = {},
): Controller {
  const nodes = deps.informers.forResource<Node>(nodesResource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  ensureIndex(pods, nodeNameIndex, podsOnNodeIndexFunc);
  const quarantineMs = options.quarantineMs ?? 40_000;
  const { client, clock } = deps;

  /** `markFailedAndDeletePodWithCondition`. */
  const collect = async (pod: DeepReadonly<Pod>): Promise<void> => {
    const namespace = pod.metadata.namespace ?? "";
    const name = pod.metadata.name ?? "";
    const uid = pod.metadata.uid ?? "";
    try {
      const phase = pod.status?.phase;
      if (phase !== "Succeeded" && phase !== "Failed") {
        await client.patch(
          podsResource,
          namespace,
          name,
          "strategic",
          {
            metadata: { uid },
            status: {
              phase: "Failed",
              conditions: [
                {
                  type: "DisruptionTarget",
                  status: "True",
                  reason: "DeletionByPodGC",
                  message: "PodGC: node no longer exists",
                  lastTransitionTime: rfc3339(clock.now()),
                },
              ],
            },
          },
          { subresource: "status" },
        );
      }
      await client.delete(podsResource, namespace, name, {
        gracePeriodSeconds: 0,
        preconditions: { uid },
      });
    } catch (error: unknown) {
      if (!isNotFound(error)) throw error;
    }
  };

  /** `discoverDeletedNodes` for one node, then its orphans. */
  const reconcile = async (nodeName: string): Promise<ReconcileResult> => {
    if (nodes.lister.get(undefined, nodeName) !== undefined) return done;
    const orphans = pods.indexer.byIndex(nodeNameIndex, nodeName);
    if (orphans.length === 0) return done;
    try {
      await client.get<Node>(nodesResource, undefined, nodeName);
      return done;
    } catch (error: unknown) {
      if (!isNotFound(error)) throw error;
    }
    const results = await Promise.allSettled(orphans.map(collect));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    return done;
  };

  const quarantine = (nodeName: string): readonly string[] => {
    controller.enqueueAfter(nodeName, quarantineMs);
    return [];
  };

  const mapNode = (event: InformerEvent<Node>): readonly string[] =>
    event.type === "delete" ? quarantine(event.object.metadata.name ?? "") : [];

  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    if (event.type === "delete") return [];
    const nodeName = event.object.spec.nodeName ?? "";
    if (nodeName === "" || nodes.lister.get(undefined, nodeName) !== undefined) return [];
    return quarantine(nodeName);
  };

  const controller: Controller = defineController<Node>({
    name: "podgc",
    primary: nodes,
    primaryToKeys: mapNode,
    secondary: [watch(pods, mapPod)],
    reconcile,
    workers: options.workers ?? 2,
    clock,
    logger: deps.logger,
  });
  return controller;
}
