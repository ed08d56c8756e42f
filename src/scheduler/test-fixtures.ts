/**
 * Fixtures for tests that run scheduling cycles without the API: a scheduler context over a
 * fixed cluster, random clusters, and a cycle's failure as text (to compare two runs).
 */
import type { Node, Pod } from "../api/index.ts";
import { newInformerFactory } from "../client/index.ts";
import { makeNode, makePod, unreachableClient } from "../testing/index.ts";
import { discardLogger, type Random, seededRandom, systemClock } from "../util/index.ts";
import { SchedulerCache, Snapshot } from "./cache/index.ts";
import { ConcurrencyLimit } from "./concurrency-limit.ts";
import {
  type Diagnosis,
  fitErrorOf,
  PodInfo,
  type Status,
  statusMessage,
} from "./framework/index.ts";
import { noSchedulerMetrics } from "./metrics.ts";
import { defaultProfile, inTreeRegistry } from "./plugins/registry.ts";
import { PodGroupManager, PodGroupStatusWriter } from "./pod-groups/index.ts";
import { SchedulingQueue } from "./queue/index.ts";
import { Framework } from "./runtime/index.ts";
import type { SchedulerContext } from "./scheduling-failure.ts";

export interface ClusterSpec {
  readonly nodes: readonly Node[];
  readonly pods: readonly Pod[];
  /** Pods nominated to nodes (a preemptor waiting for its victims). */
  readonly nominated: readonly { readonly pod: Pod; readonly node: string }[];
  readonly percentageOfNodesToScore: number;
}

/**
 * A scheduler context and the default profile's framework over `spec`, with a seeded Random and
 * no API: what a cycle works with. `podMemos`: carry answers between single-pod cycles.
 */
export function newSimulationContext(
  spec: ClusterSpec,
  seed: number,
  options: { readonly podMemos?: boolean } = {},
): { ctx: SchedulerContext; fw: Framework } {
  const cache = new SchedulerCache();
  for (const node of spec.nodes) cache.addNode(node);
  for (const pod of spec.pods) cache.addPod(pod);
  const snapshot = new Snapshot();
  const podGroups = new PodGroupManager({ isAssumed: () => false, now: () => 0 });
  let queue: SchedulingQueue | undefined;
  const fw = new Framework(inTreeRegistry(), defaultProfile(), {
    client: unreachableClient(),
    informers: newInformerFactory(unreachableClient()),
    listers: {
      pod: () => undefined,
      namespaceLabels: () => undefined,
      podDisruptionBudgets: () => [],
    },
    podGroups,
    eventRecorder: { event: () => undefined },
    clock: systemClock,
    random: seededRandom(seed),
    logger: discardLogger,
    snapshot: () => snapshot,
    nominatedPodsForNode: (node) => queue?.nominator.nominatedPodsForNode(node) ?? [],
    hasNominatedPods: () => queue?.nominator.isEmpty === false,
    activate: () => undefined,
    queueClusterEvent: () => undefined,
  });
  queue = new SchedulingQueue({
    clock: systemClock,
    logger: discardLogger,
    less: fw.less,
    profiles: new Map(),
  });
  for (const { pod, node } of spec.nominated) {
    queue.nominator.add(new PodInfo(pod), { nominatedNodeName: node, mode: "Override" });
  }
  const apiCalls = new ConcurrencyLimit(4);
  const ctx: SchedulerContext = {
    frameworks: new Map([[fw.profileName, fw]]),
    queue,
    cache,
    snapshot,
    client: unreachableClient(),
    clock: systemClock,
    random: seededRandom(seed),
    logger: discardLogger,
    livePod: () => undefined,
    background: new Set(),
    apiCalls,
    selection: { nextStartNodeIndex: 0, percentageOfNodesToScore: spec.percentageOfNodesToScore },
    podGroups,
    podGroupStatus: new PodGroupStatusWriter({
      client: unreachableClient(),
      clock: systemClock,
      logger: discardLogger,
      apiCalls,
      manager: podGroups,
      podGroup: () => undefined,
      timeoutMs: 300_000,
    }),
    metrics: noSchedulerMetrics,
    ...(options.podMemos === true ? { podMemos: new WeakMap() } : {}),
  };
  cache.updateSnapshot(snapshot);
  return { ctx, fw };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[random.int(items.length)] as T;
}

export function chance(random: Random, p: number): boolean {
  return random.float() < p;
}

/** A random cluster: zones, disks, taints, cordons, running pods (some with pod affinity). */
export function randomCluster(random: Random): ClusterSpec {
  const nodeCount = 20 + random.int(280);
  const nodes: Node[] = [];
  for (let i = 0; i < nodeCount; i++) {
    const b = makeNode(`n${i}`)
      .capacity({
        cpu: pick(random, ["2", "4", "4", "4"]),
        memory: pick(random, ["4Gi", "8Gi", "8Gi"]),
        pods: pick(random, ["3", "10", "110"]),
      })
      .label("topology.kubernetes.io/zone", pick(random, ["z1", "z2", "z3"]))
      .label("disk", pick(random, ["ssd", "hdd"]));
    if (chance(random, 0.1)) b.taint("dedicated", "batch", "NoSchedule");
    if (chance(random, 0.2)) b.taint("soft", "yes", "PreferNoSchedule");
    if (chance(random, 0.05)) b.unschedulable();
    nodes.push(b.obj());
  }
  const pods: Pod[] = [];
  const running = random.int(nodeCount);
  for (let i = 0; i < running; i++) {
    const b = makePod(`running-${i}`)
      .nodeName(`n${random.int(nodeCount)}`)
      .requests({
        cpu: pick(random, ["100m", "500m", "1"]),
        memory: pick(random, ["256Mi", "1Gi"]),
      })
      .label("app", pick(random, ["web", "db"]));
    if (chance(random, 0.05)) b.hostPort(7000);
    if (chance(random, 0.03)) {
      b.podAntiAffinity("topology.kubernetes.io/zone", { matchLabels: { app: "t1" } });
    }
    if (chance(random, 0.03)) {
      b.preferredPodAffinity(20, "topology.kubernetes.io/zone", { matchLabels: { app: "t0" } });
    }
    pods.push(b.obj());
  }
  const nominated: { pod: Pod; node: string }[] = [];
  if (chance(random, 0.15)) {
    const pod = makePod("preemptor").priority(1000).requests({ cpu: "1" }).obj();
    nominated.push({ pod, node: `n${random.int(nodeCount)}` });
  }
  return {
    nodes,
    pods,
    nominated,
    percentageOfNodesToScore: pick(random, [0, 10, 30, 100]),
  };
}

/** A failed attempt as text: its status, the plugins that rejected, and each node's answer. */
export function describeFailure(status: Status, diagnosis = fitErrorOf(status)?.diagnosis): string {
  return [`${status.code}: ${statusMessage(status)}`, ...describeDiagnosis(diagnosis)].join("\n");
}

/** A diagnosis as lines: the rejecting plugins, then each node's answer (sorted). */
export function describeDiagnosis(diagnosis: Diagnosis | undefined): string[] {
  const nodes: string[] = [];
  diagnosis?.nodeToStatus.forEachExplicitNode((name, s) => {
    nodes.push(`${name}=${s.code}/${s.plugin}/${s.reasons.join("|")}`);
  });
  return [
    `plugins ${[...(diagnosis?.unschedulablePlugins ?? [])].sort().join(",")}`,
    ...nodes.sort(),
  ];
}
