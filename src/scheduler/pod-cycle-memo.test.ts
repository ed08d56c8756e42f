import assert from "node:assert/strict";
import { test } from "node:test";
import type { Node, Pod } from "../api/index.ts";
import { makeNode, makePod, type PodBuilder } from "../testing/index.ts";
import { type Random, seededRandom } from "../util/index.ts";
import { PodInfo } from "./framework/index.ts";
import type { Framework } from "./runtime/index.ts";
import { assumeAndReserve, newCycleState, schedulePod } from "./schedule-one.ts";
import type { SchedulerContext } from "./scheduling-failure.ts";
import {
  chance,
  describeDiagnosis,
  describeFailure,
  newSimulationContext,
  pick,
  randomCluster,
} from "./test-fixtures.ts";

// Single-pod cycles with and without the memo that carries Filter and Score answers from one
// cycle to the next (`podCycleMemo`), side by side on two identical clusters, through random
// cluster changes between the cycles: pods bound and deleted elsewhere (some with pod affinity
// terms), nodes relabelled, tainted, cordoned, added and removed, pods nominated. Every pod must
// get the same outcome, and the cycles must leave the same filter start and Random state.

interface Side {
  readonly ctx: SchedulerContext;
  readonly fw: Framework;
}

/** One cycle of `pod` on a side: where it went (and it is assumed there), or why not. */
function cycle(side: Side, pod: Pod): { readonly text: string; readonly placed?: Pod } {
  const podInfo = new PodInfo(pod);
  const state = newCycleState(podInfo);
  const placement = schedulePod(side.ctx, side.fw, state, podInfo);
  if ("status" in placement) return { text: describeFailure(placement.status) };
  if ("diagnosis" in placement) {
    return { text: ["no node", ...describeDiagnosis(placement.diagnosis)].join("\n") };
  }
  const reserved = assumeAndReserve(side.ctx, side.fw, state, pod, placement.host);
  if ("status" in reserved) return { text: describeFailure(reserved.status) };
  return { text: `placed on ${placement.host}`, placed: reserved.assumed as Pod };
}

/**
 * A template of pods to schedule (a controller's pods come one after another): mostly a few
 * signable shapes, sometimes one with affinity terms.
 */
function template(random: Random): PodBuilder {
  const b = makePod("p")
    .label("app", pick(random, ["web", "db"]))
    .requests({ cpu: pick(random, ["100m", "500m"]), memory: pick(random, ["128Mi", "1Gi"]) });
  if (chance(random, 0.2)) {
    b.toleration({ key: "dedicated", operator: "Equal", value: "batch", effect: "NoSchedule" });
  }
  if (chance(random, 0.1)) b.nodeSelector({ disk: "ssd" });
  if (chance(random, 0.05)) b.hostPort(7000);
  if (chance(random, 0.04))
    b.podAntiAffinity("topology.kubernetes.io/zone", { matchLabels: { app: "db" } });
  return b;
}

function withoutAffinity(pod: Pod): Pod {
  const { affinity: _, ...spec } = pod.spec ?? { containers: [] };
  return { ...pod, spec };
}

function nodeName(node: Node): string {
  return node.metadata.name ?? "";
}

/** The cluster both sides see, as the test changes it. */
interface World {
  readonly nodes: Node[];
  readonly pods: Pod[];
  /** Pods nominated to a node (preemptors waiting for their victims). */
  readonly nominated: Pod[];
}

/** Changes the cluster on both sides the same way, as informer events would. */
function change(random: Random, sides: readonly Side[], world: World, i: number): void {
  const { nodes, pods } = world;
  if (world.nominated.length > 0 && chance(random, 0.5)) {
    for (const side of sides) for (const p of world.nominated) side.ctx.queue.nominator.delete(p);
    world.nominated.length = 0;
    return;
  }
  const roll = random.float();
  const node = nodes.length === 0 ? undefined : pick(random, nodes);
  if (roll < 0.35 && node !== undefined) {
    const b = makePod(`other-${i}`)
      .uid(`uid-other-${i}`)
      .nodeName(nodeName(node))
      .label("app", pick(random, ["web", "db", "t1"]))
      .requests({ cpu: pick(random, ["100m", "1"]) });
    if (chance(random, 0.04)) {
      b.podAntiAffinity("topology.kubernetes.io/zone", { matchLabels: { app: "web" } });
    }
    if (chance(random, 0.03)) {
      b.preferredPodAffinity(20, "topology.kubernetes.io/zone", { matchLabels: { app: "db" } });
    }
    const pod = b.obj();
    pods.push(pod);
    for (const side of sides) side.ctx.cache.addPod(pod);
  } else if (roll < 0.6 && pods.length > 0) {
    // Pods with affinity terms go first, half of the time: the memo works again once they are gone.
    const withTerms = pods.findIndex((p) => p.spec?.affinity !== undefined);
    const at = withTerms >= 0 && chance(random, 0.5) ? withTerms : random.int(pods.length);
    const pod = pods.splice(at, 1)[0] as Pod;
    for (const side of sides) side.ctx.cache.removePod(pod);
  } else if (roll < 0.8 && node !== undefined) {
    const b = makeNode(nodeName(node))
      .capacity({ cpu: "4", memory: "8Gi", pods: "110" })
      .label("topology.kubernetes.io/zone", pick(random, ["z1", "z2", "z3"]))
      .label("disk", pick(random, ["ssd", "hdd"]));
    if (chance(random, 0.2)) b.taint("dedicated", "batch", "NoSchedule");
    if (chance(random, 0.1)) b.unschedulable();
    const updated = b.obj();
    nodes[nodes.indexOf(node)] = updated;
    for (const side of sides) side.ctx.cache.updateNode(updated);
  } else if (roll < 0.88) {
    const added = makeNode(`added-${i}`)
      .capacity({ cpu: "4", memory: "8Gi", pods: "110" })
      .label("topology.kubernetes.io/zone", "z1")
      .label("disk", "ssd")
      .obj();
    nodes.push(added);
    for (const side of sides) side.ctx.cache.addNode(added);
  } else if (roll < 0.94 && node !== undefined && nodes.length > 5) {
    nodes.splice(nodes.indexOf(node), 1);
    for (const side of sides) side.ctx.cache.removeNode(node);
  } else if (roll >= 0.97 && node !== undefined && world.nominated.length === 0) {
    const preemptor = makePod(`nominated-${i}`)
      .uid(`uid-nominated-${i}`)
      .priority(1000)
      .requests({ cpu: "1" })
      .obj();
    world.nominated.push(preemptor);
    for (const side of sides) {
      side.ctx.queue.nominator.add(new PodInfo(preemptor), {
        nominatedNodeName: nodeName(node),
        mode: "Override",
      });
    }
  }
}

test("single-pod cycles: answers carried from cycle to cycle give the placements of full cycles, through random cluster changes", () => {
  let reused = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const random = seededRandom(seed);
    const generated = randomCluster(random);
    // Most seeds start without pod affinity terms (the memo's case); affinity comes and goes.
    const spec =
      seed % 4 === 0 ? generated : { ...generated, pods: generated.pods.map(withoutAffinity) };
    const plain = newSimulationContext(spec, seed);
    const memo = newSimulationContext(spec, seed, { podMemos: true });
    const world: World = {
      nodes: [...spec.nodes],
      pods: spec.pods.filter((p) => p.spec?.nodeName !== undefined),
      nominated: spec.nominated.map((n) => n.pod),
    };
    let current = template(random);
    for (let i = 0; i < 150; i++) {
      if (chance(random, 0.3)) change(random, [plain, memo], world, i);
      if (chance(random, 0.15)) current = template(random);
      const pod = current.clone().name(`p${i}`).uid(`uid-p${i}`).obj();
      const want = cycle(plain, pod);
      assert.equal(cycle(memo, pod).text, want.text, `seed ${seed}, pod ${i}: the outcome differs`);
      assert.equal(
        memo.ctx.selection.nextStartNodeIndex,
        plain.ctx.selection.nextStartNodeIndex,
        `seed ${seed}, pod ${i}: the next filter pass would start elsewhere`,
      );
      // Placed pods stay on their node until a change deletes them, as bound pods would.
      if (want.placed !== undefined) world.pods.push(want.placed);
    }
    assert.equal(
      memo.ctx.random.int(1_000_000),
      plain.ctx.random.int(1_000_000),
      `seed ${seed}: ties consumed the Random differently`,
    );
    reused += memo.ctx.podMemos?.get(memo.fw)?.hits ?? 0;
  }
  assert.ok(reused > 200_000, `the memo answered only ${reused} node evaluations`);
});

test("single-pod cycles: identical pods on an unchanging cluster evaluate each node in full once", () => {
  const nodes = Array.from({ length: 400 }, (_, i) =>
    makeNode(`n${i}`).capacity({ cpu: "64", memory: "256Gi", pods: "110" }).obj(),
  );
  const side = newSimulationContext(
    { nodes, pods: [], nominated: [], percentageOfNodesToScore: 10 },
    1,
    { podMemos: true },
  );
  for (let i = 0; i < 40; i++) {
    const pod = makePod(`p${i}`).uid(`uid-p${i}`).requests({ cpu: "100m" }).obj();
    assert.match(cycle(side, pod).text, /^placed on n\d+$/, `pod ${i} was not placed`);
  }
  const memo = side.ctx.podMemos?.get(side.fw);
  assert.ok(memo !== undefined, "the profile has a memo");
  // Each pass looks at 100 nodes (10 %, raised to upstream's minimum); the 40 passes go round the 400 nodes ten
  // times. A node is evaluated in full the first time and after a pod was placed on it.
  assert.equal(memo.hits + memo.misses, 40 * 100, "every pass visits 100 nodes");
  assert.ok(memo.misses <= 400 + 40, `${memo.misses} nodes were evaluated in full`);
});

test("single-pod cycles: while any pod has affinity terms, nothing is carried over", () => {
  const nodes = Array.from({ length: 200 }, (_, i) =>
    makeNode(`n${i}`)
      .label("topology.kubernetes.io/zone", `z${i % 3}`)
      .obj(),
  );
  const withTerms = makePod("anti")
    .uid("uid-anti")
    .nodeName("n0")
    .podAntiAffinity("topology.kubernetes.io/zone", { matchLabels: { app: "x" } })
    .obj();
  const side = newSimulationContext(
    { nodes, pods: [withTerms], nominated: [], percentageOfNodesToScore: 0 },
    1,
    { podMemos: true },
  );
  for (let i = 0; i < 10; i++) cycle(side, makePod(`p${i}`).uid(`uid-p${i}`).obj());
  const memo = side.ctx.podMemos?.get(side.fw);
  assert.equal((memo?.hits ?? 0) + (memo?.misses ?? 0), 0, "no answer was looked up or kept");
});
