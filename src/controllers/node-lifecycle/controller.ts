/**
 * The node lifecycle controller: watches Nodes and their Leases; a node silent for the grace
 * period gets Ready=Unknown ("Kubelet stopped posting node status."), its pods are marked not
 * Ready, and it is tainted `node.kubernetes.io/unreachable` (`not-ready` for Ready=False)
 * NoSchedule at once and NoExecute at the zone's eviction rate; a healthy node loses those
 * taints again. Condition taints (memory/disk/pid pressure, network-unavailable) and the
 * unschedulable taint of cordoned nodes are kept in step too. Eviction itself is the taint
 * eviction controller's job. Upstream's pkg/controller/nodelifecycle.
 */
import type { Lease, Node, NodeCondition, Pod, Taint } from "../../api/index.ts";
import {
  type Client,
  type InformerFactory,
  leasesResource,
  nodesResource,
  podsResource,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, errorMessage, type Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  type EventRecorder,
  ensureIndex,
  type InformerEvent,
  type ReconcileResult,
  requeueAfter,
  watch,
} from "../framework/index.ts";
import { assessNodeHealth, type HealthTimings, type NodeHealth } from "./health.ts";
import {
  markPodsNotReady,
  nodeNameIndex,
  podsOnNodeIndexFunc,
  recordNodeEvent,
  writeTaints,
} from "./internal.ts";
import { RateLimitedQueue } from "./rate-limited-queue.ts";
import {
  hasTaint,
  noScheduleTaintChanges,
  notReadyNoExecute,
  unreachableNoExecute,
} from "./taints.ts";
import {
  computeZoneState,
  type EvictionRates,
  excludeDisruptionLabel,
  type ZoneState,
  zoneEvictionQps,
  zoneKey,
} from "./zones.ts";

/** The namespace of node heartbeat Leases. */
export const nodeLeaseNamespace = "kube-node-lease";

export interface NodeLifecycleControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
}

export interface NodeLifecycleControllerOptions {
  /** How often node health is checked (--node-monitor-period). @default 5000 */
  readonly nodeMonitorPeriodMs?: number;
  /**
   * Silence after which a node is Unknown (--node-monitor-grace-period). @default 50000 (the
   * default since 1.32; 40 s before). Kubelets renew their Lease every 10 s by default.
   */
  readonly nodeMonitorGracePeriodMs?: number;
  /** Silence allowed to a node that never posted status (--node-startup-grace-period). @default 60000 */
  readonly nodeStartupGracePeriodMs?: number;
  /** Nodes per second tainted NoExecute in a healthy zone (--node-eviction-rate). @default 0.1 */
  readonly evictionQps?: number;
  /** The rate in a partially disrupted large zone (--secondary-node-eviction-rate). @default 0.01 */
  readonly secondaryEvictionQps?: number;
  /** Zones up to this size stop tainting when partially disrupted. @default 50 */
  readonly largeClusterThreshold?: number;
  /** Share of not-Ready nodes that makes a zone partially disrupted. @default 0.55 */
  readonly unhealthyZoneThreshold?: number;
  /** Concurrent NoSchedule tainting workers. @default 8 */
  readonly workers?: number;
}

/** The work-queue key of the periodic health pass (node names never contain NUL). */
const monitorKey = "\u0000monitor";
/** The work-queue key of the NoExecute tainting pass. */
const taintPassKey = "\u0000taint";

type N = DeepReadonly<Node>;

export function newNodeLifecycleController(
  deps: NodeLifecycleControllerDeps,
  options: NodeLifecycleControllerOptions = {},
): Controller {
  const nodes = deps.informers.forResource<Node>(nodesResource);
  const leases = deps.informers.forResource<Lease>(leasesResource, {
    namespace: nodeLeaseNamespace,
  });
  const pods = deps.informers.forResource<Pod>(podsResource);
  ensureIndex(pods, nodeNameIndex, podsOnNodeIndexFunc);
  const { client, clock, events } = deps;
  const monitorPeriodMs = options.nodeMonitorPeriodMs ?? 5000;
  const timings: HealthTimings = {
    gracePeriodMs: options.nodeMonitorGracePeriodMs ?? 50_000,
    startupGracePeriodMs: options.nodeStartupGracePeriodMs ?? 60_000,
  };
  const rates: EvictionRates = {
    evictionQps: options.evictionQps ?? 0.1,
    secondaryEvictionQps: options.secondaryEvictionQps ?? 0.01,
    largeClusterThreshold: options.largeClusterThreshold ?? 50,
  };
  const unhealthyThreshold = options.unhealthyZoneThreshold ?? 0.55;

  // The controller's memory, as upstream's: per node health, known nodes, zone states and queues.
  const health = new Map<string, NodeHealth>();
  const known = new Map<string, string>();
  const zoneStates = new Map<string, ZoneState>();
  const tainters = new Map<string, RateLimitedQueue>();
  const retryNotReady = new Set<string>();

  const tainterOf = (zone: string): RateLimitedQueue => {
    let queue = tainters.get(zone);
    if (queue === undefined) {
      queue = new RateLimitedQueue(rates.evictionQps, clock.now().getTime());
      tainters.set(zone, queue);
      zoneStates.set(zone, "Initial");
    }
    return queue;
  };

  /** `markNodeAsReachable`: removes both NoExecute taints and forgets queued tainting. */
  const markReachable = async (node: N): Promise<void> => {
    tainterOf(zoneKey(node)).remove(node.metadata.name ?? "");
    await writeTaints(client, node, [], [notReadyNoExecute, unreachableNoExecute], clock.now());
  };

  /** `processTaintBaseEviction`: by the Ready status as it was before this pass. */
  const processTaintBasedEviction = async (node: N, observed: string): Promise<boolean> => {
    const name = node.metadata.name ?? "";
    const queue = tainterOf(zoneKey(node));
    switch (observed) {
      case "False":
        if (hasTaint(node, unreachableNoExecute)) {
          await writeTaints(client, node, [notReadyNoExecute], [unreachableNoExecute], clock.now());
          return false;
        }
        if (!hasTaint(node, notReadyNoExecute)) queue.remove(name);
        return queue.add(name);
      case "Unknown":
        if (hasTaint(node, notReadyNoExecute)) {
          await writeTaints(client, node, [unreachableNoExecute], [notReadyNoExecute], clock.now());
          return false;
        }
        if (!hasTaint(node, unreachableNoExecute)) queue.remove(name);
        return queue.add(name);
      default:
        await markReachable(node);
        return false;
    }
  };

  /** `monitorNodeHealth`. */
  const monitor = async (): Promise<ReconcileResult> => {
    const all = nodes.lister.list();
    const present = new Set(all.map((n) => n.metadata.name ?? ""));
    for (const node of all) {
      const name = node.metadata.name ?? "";
      if (known.has(name)) continue;
      known.set(name, node.metadata.uid ?? "");
      recordNodeEvent(
        events,
        name,
        node.metadata.uid ?? "",
        "RegisteredNode",
        `Node ${name} event: Registered Node ${name} in Controller`,
      );
      tainterOf(zoneKey(node));
      await markReachable(node);
    }
    for (const [name, uid] of known) {
      if (present.has(name)) continue;
      known.delete(name);
      health.delete(name);
      retryNotReady.delete(name);
      recordNodeEvent(
        events,
        name,
        uid,
        "RemovingNode",
        `Node ${name} event: Removing Node ${name} from Controller`,
      );
    }
    const readyByZone = new Map<string, (DeepReadonly<NodeCondition> | undefined)[]>();
    let queued = false;
    const now = clock.now();
    for (const node of all) {
      const name = node.metadata.name ?? "";
      const lease = leases.lister.get(nodeLeaseNamespace, name);
      const assessment = assessNodeHealth(health.get(name), node, lease, now, timings);
      health.set(name, assessment.health);
      if (assessment.conditions !== undefined) {
        const written = await writeConditions(node, assessment.conditions);
        if (!written) continue;
        if (assessment.healthAfterWrite !== undefined)
          health.set(name, assessment.healthAfterWrite);
      }
      if (node.metadata.labels?.[excludeDisruptionLabel] === undefined) {
        const zone = zoneKey(node);
        readyByZone.set(zone, [...(readyByZone.get(zone) ?? []), assessment.currentReady]);
      }
      const current = assessment.currentReady;
      if (current === undefined) continue;
      if (await processTaintBasedEviction(node, assessment.observedReady.status)) queued = true;
      const becameNotReady =
        current.status !== "True" && assessment.observedReady.status === "True";
      if (becameNotReady) {
        recordNodeEvent(
          events,
          name,
          node.metadata.uid ?? "",
          "NodeNotReady",
          `Node ${name} status is now: NodeNotReady`,
        );
      }
      if (
        becameNotReady ||
        (retryNotReady.has(name) && assessment.observedReady.status !== "True")
      ) {
        const ok = await markPodsNotReady(
          client,
          events,
          pods.indexer.byIndex(nodeNameIndex, name),
          name,
          now,
        );
        if (!ok) {
          retryNotReady.add(name);
          continue;
        }
      }
      retryNotReady.delete(name);
    }
    await handleDisruption(readyByZone, all);
    if (queued) controller.enqueue(taintPassKey);
    return requeueAfter(monitorPeriodMs);
  };

  /** Writes the silenced conditions; false when the node changed or vanished meanwhile. */
  const writeConditions = async (node: N, conditions: NodeCondition[]): Promise<boolean> => {
    const next = structuredClone(node) as Node;
    next.status = { ...next.status, conditions };
    try {
      await client.updateStatus<Node>(nodesResource, next);
      return true;
    } catch (error: unknown) {
      deps.logger.v(2).info("Could not update node health, retrying next pass", {
        node: node.metadata.name,
        error: errorMessage(error),
      });
      return false;
    }
  };

  /** `handleDisruption`: zone states, their tainting rates, and the all-zones-down stop. */
  const handleDisruption = async (
    readyByZone: ReadonlyMap<string, readonly (DeepReadonly<NodeCondition> | undefined)[]>,
    all: readonly N[],
  ): Promise<void> => {
    if (readyByZone.size === 0) return;
    const now = clock.now().getTime();
    const next = new Map<string, ZoneState>();
    let allFully = true;
    for (const [zone, conditions] of readyByZone) {
      const { state } = computeZoneState(conditions, unhealthyThreshold);
      if (state !== "FullDisruption") allFully = false;
      next.set(zone, state);
      tainterOf(zone);
    }
    let allWereFully = true;
    for (const [zone, state] of [...zoneStates]) {
      if (!readyByZone.has(zone)) {
        zoneStates.delete(zone);
        continue;
      }
      if (state !== "FullDisruption") allWereFully = false;
    }
    if (allFully && allWereFully) return;
    if (allFully) {
      deps.logger.info(
        "Controller detected that all Nodes are not-Ready. Entering master disruption mode",
      );
      for (const node of all) await markReachable(node);
      for (const zone of zoneStates.keys()) {
        tainterOf(zone).setRate(0, now);
        zoneStates.set(zone, "FullDisruption");
      }
      return;
    }
    if (allWereFully) {
      deps.logger.info(
        "Controller detected that some Nodes are Ready. Exiting master disruption mode",
      );
      for (const [name, record] of health) {
        health.set(name, { ...record, probeTimestamp: now, readyTransitionTimestamp: now });
      }
    }
    for (const zone of zoneStates.keys()) {
      const state = next.get(zone) ?? "Normal";
      if (!allWereFully && zoneStates.get(zone) === state) continue;
      tainterOf(zone).setRate(
        zoneEvictionQps(state, readyByZone.get(zone)?.length ?? 0, rates),
        now,
      );
      zoneStates.set(zone, state);
    }
  };

  /** `doNoExecuteTaintingPass`: taints queued nodes as each zone's rate allows. */
  const taintPass = async (): Promise<ReconcileResult> => {
    const now = clock.now().getTime();
    let wait: number | undefined;
    for (const queue of tainters.values()) {
      await queue.drain(now, async (name) => {
        const node = nodes.lister.get(undefined, name);
        if (node === undefined) return true;
        const ready = node.status?.conditions?.find((c) => c.type === "Ready");
        if (ready === undefined) return false;
        let add: Taint;
        let opposite: Taint;
        if (ready.status === "False") {
          add = notReadyNoExecute;
          opposite = unreachableNoExecute;
        } else if (ready.status === "Unknown") {
          add = unreachableNoExecute;
          opposite = notReadyNoExecute;
        } else {
          return true;
        }
        try {
          await writeTaints(client, node, [add], [opposite], clock.now());
          return true;
        } catch (error: unknown) {
          deps.logger.v(2).info("Could not taint node, retrying", {
            node: name,
            error: errorMessage(error),
          });
          return false;
        }
      });
      const next = queue.nextInMs(clock.now().getTime());
      if (next !== undefined) wait = Math.min(wait ?? next, next);
    }
    return wait === undefined ? done : requeueAfter(Math.max(wait, 100));
  };

  /** `doNoScheduleTaintingPass` for one node. */
  const noSchedulePass = async (name: string): Promise<ReconcileResult> => {
    const node = nodes.lister.get(undefined, name);
    if (node === undefined) return done;
    const { add, remove } = noScheduleTaintChanges(node);
    if (add.length > 0 || remove.length > 0)
      await writeTaints(client, node, add, remove, clock.now());
    return done;
  };

  const mapNode = (event: InformerEvent<Node>): readonly string[] =>
    event.type === "delete" ? [] : [event.object.metadata.name ?? ""];

  const controller: Controller = defineController<Node>({
    name: "nodelifecycle",
    primary: nodes,
    // The first list's adds start the periodic health pass, which then requeues itself.
    primaryToKeys: (event) =>
      event.type === "add" ? [...mapNode(event), monitorKey] : mapNode(event),
    secondary: [watch(leases, () => []), watch(pods, () => [])],
    reconcile: (key) => {
      if (key === monitorKey) return monitor();
      if (key === taintPassKey) return taintPass();
      return noSchedulePass(key);
    },
    workers: options.workers ?? 8,
    clock,
    logger: deps.logger,
  });
  return controller;
}
