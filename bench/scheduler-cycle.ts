/**
 * The scheduling cycle alone, with no API: the default profile's PreFilter, Filter (with
 * upstream's node sampling), PreScore, Score, then assume, Reserve and Permit, for `pods` pods of
 * SchedulingBasic's shape over `nodes` nodes of scheduler_perf's node-default.yaml shape. What
 * the scheduler could do if the API cost nothing.
 */
import { performance } from "node:perf_hooks";
import { newInformerFactory } from "../src/client/index.ts";
import { findNodesThatFitPod, prioritizeAndSelect } from "../src/scheduler/find-nodes.ts";
import { setCyclePodInfo } from "../src/scheduler/framework/index.ts";
import {
  CycleState,
  defaultProfile,
  Framework,
  inTreeRegistry,
  PodInfo,
  PodsToActivate,
  podsToActivateKey,
  SchedulerCache,
  Snapshot,
} from "../src/scheduler/index.ts";
import { makeNode, makePod, unreachableClient } from "../src/testing/index.ts";
import { discardLogger, seededRandom, systemClock } from "../src/util/index.ts";

export interface CycleResult {
  readonly scheduled: number;
  readonly elapsedMs: number;
  readonly perSecond: number;
}

export function measureCycle(nodes: number, pods: number): CycleResult {
  const cache = new SchedulerCache();
  for (let i = 0; i < nodes; i++) {
    cache.addNode(makeNode(`node-${i}`).capacity({ cpu: "4", memory: "32Gi", pods: "110" }).obj());
  }
  const snapshot = new Snapshot();
  const random = seededRandom(1);
  const client = unreachableClient();
  const framework = new Framework(inTreeRegistry(), defaultProfile(), {
    client,
    informers: newInformerFactory(client),
    listers: {
      pod: () => undefined,
      namespaceLabels: () => undefined,
      podDisruptionBudgets: () => [],
    },
    eventRecorder: { event: () => undefined },
    clock: systemClock,
    random,
    logger: discardLogger,
    snapshot: () => snapshot,
    nominatedPodsForNode: () => [],
    hasNominatedPods: () => false,
    activate: () => undefined,
    queueClusterEvent: () => undefined,
  });
  const selection = { nextStartNodeIndex: 0, percentageOfNodesToScore: 0 };
  const queued = Array.from({ length: pods }, (_, i) =>
    makePod(`pod-${i}`)
      .namespace("bench")
      .uid(`uid-${i}`)
      .requests({ cpu: "100m", memory: "500Mi" })
      .limits({ cpu: "100m", memory: "500Mi" })
      .obj(),
  );
  let scheduled = 0;
  const started = performance.now();
  for (const pod of queued) {
    cache.updateSnapshot(snapshot);
    const state = new CycleState();
    state.write(podsToActivateKey, new PodsToActivate());
    setCyclePodInfo(state, new PodInfo(pod));
    const filtered = findNodesThatFitPod(framework, state, pod, snapshot, selection);
    if (filtered.feasible.length === 0) continue;
    const selected = prioritizeAndSelect(framework, state, pod, filtered.feasible, random);
    if ("error" in selected) throw selected.error;
    const assumed = { ...pod, spec: { ...pod.spec, nodeName: selected.host } };
    cache.assumePod(assumed);
    framework.runReservePluginsReserve(state, assumed, selected.host);
    framework.runPermitPlugins(state, assumed, selected.host);
    scheduled++;
  }
  const elapsedMs = performance.now() - started;
  return { scheduled, elapsedMs, perSecond: (scheduled / elapsedMs) * 1000 };
}
