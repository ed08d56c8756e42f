/**
 * The pod garbage collector (upstream's pkg/controller/podgc):
 * - `gcOrphaned`: pods bound to a node that no longer exists are marked Failed with the
 *   condition DisruptionTarget=True (reason DeletionByPodGC) and deleted at once. A node counts
 *   as gone after it has been missing from the cache for the quarantine period and a live read
 *   confirms it (event-driven here; upstream lists every 20 s).
 * - `gcTerminating`, every 20 s: terminating pods on a node that is not Ready and carries the
 *   `node.kubernetes.io/out-of-service` taint are marked Failed and force-deleted, so their
 *   controllers (a StatefulSet above all) may replace them.
 * - `gcTerminated`, every 20 s: beyond --terminated-pod-gc-threshold finished pods, the oldest
 *   (evicted ones first) are deleted.
 * Unscheduled terminating pods need no rule: the API server deletes them at once.
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
  requeueAfter,
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
  /** How often the terminated and terminating passes run (gcCheckPeriod). @default 20000 */
  readonly gcCheckPeriodMs?: number;
  /** Finished pods kept; 0 keeps all (--terminated-pod-gc-threshold). @default 12500 */
  readonly terminatedPodThreshold?: number;
  /** Concurrent reconciles. @default 2 */
  readonly workers?: number;
}

/** The taint that lets the pods of a shut-down node go (`v1.TaintNodeOutOfService`). */
export const outOfServiceTaintKey = "node.kubernetes.io/out-of-service";

/** The work-queue key of the periodic pass (node names never contain NUL). */
const periodicKey = "\u0000gc";

function isTerminated(pod: DeepReadonly<Pod>): boolean {
  const phase = pod.status?.phase;
  return phase !== undefined && phase !== "Pending" && phase !== "Running" && phase !== "Unknown";
}

/**
 * `gcTerminated`'s choice: beyond `threshold` finished pods, which to delete, evicted ones
 * first, then the oldest (`byEvictionAndCreationTimestamp`). Pure.
 */
export function terminatedPodsToDelete(
  pods: readonly DeepReadonly<Pod>[],
  threshold: number,
): DeepReadonly<Pod>[] {
  if (threshold <= 0) return [];
  const terminated = pods.filter(isTerminated);
  const excess = terminated.length - threshold;
  if (excess <= 0) return [];
  const evicted = (pod: DeepReadonly<Pod>): number => (pod.status?.reason === "Evicted" ? 0 : 1);
  return [...terminated]
    .sort(
      (a, b) =>
        evicted(a) - evicted(b) ||
        (a.metadata.creationTimestamp ?? "").localeCompare(b.metadata.creationTimestamp ?? "") ||
        `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(
          `${b.metadata.namespace}/${b.metadata.name}`,
        ),
    )
    .slice(0, excess);
}

/** `gcTerminating`'s rule: a terminating pod on a not-Ready node tainted out-of-service. */
export function isOutOfServiceTerminating(
  pod: DeepReadonly<Pod>,
  node: DeepReadonly<Node> | undefined,
): boolean {
  if (pod.metadata.deletionTimestamp === undefined || node === undefined) return false;
  const ready = node.status?.conditions?.find((c) => c.type === "Ready")?.status === "True";
  return !ready && (node.spec?.taints ?? []).some((t) => t.key === outOfServiceTaintKey);
}

export function newPodGcController(
  deps: PodGcControllerDeps,
  options: PodGcControllerOptions = {},
): Controller {
  const nodes = deps.informers.forResource<Node>(nodesResource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  ensureIndex(pods, nodeNameIndex, podsOnNodeIndexFunc);
  const quarantineMs = options.quarantineMs ?? 40_000;
  const periodMs = options.gcCheckPeriodMs ?? 20_000;
  const threshold = options.terminatedPodThreshold ?? 12_500;
  const { client, clock } = deps;

  /** `markFailedAndDeletePodWithCondition` (the orphan's condition when `orphaned`). */
  const collect = async (pod: DeepReadonly<Pod>, orphaned = true): Promise<void> => {
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
            status: orphaned
              ? {
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
                }
              : { phase: "Failed" },
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

  /** Runs `work` on every pod, then throws the first failure, if any. */
  const collectAll = async (
    victims: readonly DeepReadonly<Pod>[],
    orphaned: boolean,
  ): Promise<void> => {
    const results = await Promise.allSettled(victims.map((pod) => collect(pod, orphaned)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
  };

  /** `gcTerminating` and `gcTerminated`, then again after the check period. */
  const periodic = async (): Promise<ReconcileResult> => {
    const all = pods.lister.list();
    const terminating = all.filter((pod) =>
      isOutOfServiceTerminating(pod, nodes.lister.get(undefined, pod.spec.nodeName ?? "")),
    );
    if (terminating.length > 0) {
      deps.logger.info("Garbage collecting pods that are terminating on out-of-service nodes", {
        numPods: terminating.length,
      });
    }
    const terminated = terminatedPodsToDelete(all, threshold);
    if (terminated.length > 0) {
      deps.logger.info("Garbage collecting pods", { numPods: terminated.length });
    }
    await collectAll([...terminating, ...terminated], false);
    return requeueAfter(periodMs);
  };

  /** `discoverDeletedNodes` for one node, then its orphans. */
  const reconcile = async (nodeName: string): Promise<ReconcileResult> => {
    if (nodeName === periodicKey) return periodic();
    if (nodes.lister.get(undefined, nodeName) !== undefined) return done;
    const orphans = pods.indexer.byIndex(nodeNameIndex, nodeName);
    if (orphans.length === 0) return done;
    try {
      await client.get<Node>(nodesResource, undefined, nodeName);
      return done;
    } catch (error: unknown) {
      if (!isNotFound(error)) throw error;
    }
    await collectAll(orphans, true);
    return done;
  };

  const quarantine = (nodeName: string): readonly string[] => {
    controller.enqueueAfter(nodeName, quarantineMs);
    return [];
  };

  const mapNode = (event: InformerEvent<Node>): readonly string[] => {
    if (event.type === "delete") return quarantine(event.object.metadata.name ?? "");
    // The first list's adds start the periodic pass, which then requeues itself; a node
    // tainted out-of-service is looked at again at once.
    if (event.type === "add") return [periodicKey];
    const tainted = (node: DeepReadonly<Node>): boolean =>
      (node.spec?.taints ?? []).some((t) => t.key === outOfServiceTaintKey);
    return tainted(event.object) && !tainted(event.oldObject) ? [periodicKey] : [];
  };

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
