import assert from "node:assert/strict";
import { test } from "node:test";
import { makeNode, makePod, type PodBuilder } from "../testing/index.ts";
import { type Random, seededRandom } from "../util/index.ts";
import { PodInfo, statusMessage } from "./framework/index.ts";
import { type Attempt, CycleSimulation } from "./group-simulation.ts";
import { BatchMemo, type Framework } from "./runtime/index.ts";
import {
  chance,
  describeFailure,
  newSimulationContext,
  pick,
  randomCluster,
} from "./test-fixtures.ts";

// Batched and plain group simulations side by side: two identical clusters (same nodes, pods,
// nominations and seeded Random), one simulation reusing answers between same-signature members
// and one evaluating every member in full. Every member must get the same outcome, and the cycle
// must leave the same filter start and Random state behind.

/** Everything an attempt decided, as text: where the member went, or why it went nowhere. */
function describeAttempt(attempt: Attempt): string {
  return "placed" in attempt ? `placed on ${attempt.placed.host}` : describeFailure(attempt.status);
}

/** A member template: some sign (and batch), some cannot (pod affinity, spreading). */
function randomTemplate(random: Random, name: string): PodBuilder {
  const b = makePod(name)
    .labels({ app: name, gang: "g" })
    .requests({
      cpu: pick(random, ["100m", "250m", "500m", "1", "2"]),
      memory: pick(random, ["128Mi", "512Mi", "1Gi", "4Gi"]),
    });
  if (chance(random, 0.3)) {
    b.toleration({ key: "dedicated", operator: "Equal", value: "batch", effect: "NoSchedule" });
  }
  if (chance(random, 0.2)) b.nodeSelector({ disk: "ssd" });
  if (chance(random, 0.3)) {
    b.preferredNodeAffinity(10, {
      matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["z1"] }],
    });
  }
  if (chance(random, 0.15)) b.hostPort(7000);
  if (chance(random, 0.1)) {
    // Repels the whole gang: placing such a member changes what other members may use.
    const key = pick(random, ["kubernetes.io/hostname", "topology.kubernetes.io/zone"]);
    b.podAntiAffinity(key, { matchLabels: { gang: "g" } });
  }
  if (chance(random, 0.1)) {
    b.spreadConstraint(1, "topology.kubernetes.io/zone", "ScheduleAnyway", { app: name });
  }
  return b;
}

/** Gang members from one to three templates, interleaved at random. */
function randomGang(random: Random, seed: number): PodInfo[] {
  const first = randomTemplate(random, "t0");
  const templates = [first];
  for (let i = 1; i <= random.int(3); i++) {
    // Sometimes the same pod under another app label: only pod affinity can tell them apart.
    templates.push(
      chance(random, 0.4) ? first.clone().label("app", `t${i}`) : randomTemplate(random, `t${i}`),
    );
  }
  const indexed = chance(random, 0.5);
  const size = 1 + random.int(60);
  const members: PodInfo[] = [];
  for (let i = 0; i < size; i++) {
    const b = pick(random, templates).clone().name(`g${seed}-${i}`).uid(`uid-g${seed}-${i}`);
    if (indexed) b.label("index", String(i));
    if (chance(random, 0.03)) b.nominatedNodeName(`n${random.int(20)}`);
    members.push(new PodInfo(b.obj()));
  }
  return members;
}

test("group simulation: batched members land exactly where the plain path puts them (random clusters and gangs)", () => {
  let hits = 0;
  let batchedMembers = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const random = seededRandom(seed);
    const spec = randomCluster(random);
    const gang = randomGang(random, seed);
    const plain = newSimulationContext(spec, seed);
    const batched = newSimulationContext(spec, seed);
    const memo = new BatchMemo();
    const plainSim = new CycleSimulation(plain.ctx, plain.fw, false);
    const batchedSim = new CycleSimulation(batched.ctx, batched.fw, memo);
    gang.forEach((member, i) => {
      const want = describeAttempt(plainSim.attempt(member));
      const got = describeAttempt(batchedSim.attempt(member));
      assert.equal(got, want, `seed ${seed}, member ${i}: the batched outcome differs`);
      assert.equal(
        batched.ctx.selection.nextStartNodeIndex,
        plain.ctx.selection.nextStartNodeIndex,
        `seed ${seed}, member ${i}: the next filter pass would start elsewhere`,
      );
      if (batched.fw.signPod(member) !== undefined) batchedMembers++;
    });
    assert.equal(
      batched.ctx.random.int(1_000_000),
      plain.ctx.random.int(1_000_000),
      `seed ${seed}: ties consumed the Random differently`,
    );
    hits += memo.hits;
    plainSim.revert();
    batchedSim.revert();
  }
  assert.ok(batchedMembers > 100, `only ${batchedMembers} members could be signed`);
  assert.ok(hits > 10_000, `the memo answered only ${hits} node evaluations`);
});

/** `count` 4-cpu nodes and a gang of `size` identical 1-cpu members. */
function uniform(count: number, size: number, podsPerNode = "110") {
  const nodes = Array.from({ length: count }, (_, i) =>
    makeNode(`n${i}`).capacity({ cpu: "4", memory: "16Gi", pods: podsPerNode }).obj(),
  );
  const members = Array.from(
    { length: size },
    (_, i) => new PodInfo(makePod(`m${i}`).requests({ cpu: "1" }).obj()),
  );
  return { spec: { nodes, pods: [], nominated: [], percentageOfNodesToScore: 0 }, members };
}

test("group simulation: identical members evaluate each node in full once, and again only after a member went there", () => {
  const { spec, members } = uniform(300, 40);
  const { ctx, fw } = newSimulationContext(spec, 7);
  const memo = new BatchMemo();
  const sim = new CycleSimulation(ctx, fw, memo);
  const hosts = members.map((m) => {
    const attempt = sim.attempt(m);
    assert.ok("placed" in attempt, `member ${m.key} was not placed`);
    return attempt.placed.host;
  });
  // 300 nodes: every pass filters 144 (48%), all feasible. Each node is evaluated in full once,
  // and again at most once after each member that went there.
  assert.equal(memo.hits + memo.misses, members.length * 144, "every pass visits 144 nodes");
  assert.ok(memo.misses >= 300, `${memo.misses} full evaluations: every node once at least`);
  assert.ok(
    memo.misses <= 300 + members.length,
    `${memo.misses} full evaluations: at most one more per placement`,
  );
  assert.equal(new Set(hosts).size, members.length, "LeastAllocated spreads the members");
  sim.revert();
});

test("group simulation: answers are kept only while later members can come back to the nodes", () => {
  // 300 nodes, passes of 144: two more members cover 288 nodes and cannot come round again.
  const { spec, members } = uniform(300, 6);
  const { ctx, fw } = newSimulationContext(spec, 13);
  const memo = new BatchMemo();
  const sim = new CycleSimulation(ctx, fw, memo);
  for (const [i, m] of members.slice(0, 4).entries()) {
    assert.ok("placed" in sim.attempt(m, 2), `member ${i} was placed`);
  }
  assert.equal(memo.hits + memo.misses, 0, "nothing was kept or looked up");
  assert.ok("placed" in sim.attempt(members[4] as PodInfo, 3), "member 4 was placed");
  assert.equal(memo.misses, 144, "three more members may come round: its answers are kept");
  assert.ok("placed" in sim.attempt(members[5] as PodInfo, 0), "member 5 was placed");
  assert.equal(memo.misses + memo.hits, 288, "the last member still reads what was kept");
  sim.revert();
});

test("group simulation: a member never lands on a node an earlier member filled", () => {
  // One pod per node: after each placement that node must be filtered again, and rejected.
  const { spec, members } = uniform(5, 6, "1");
  const { ctx, fw } = newSimulationContext(spec, 3);
  const sim = new CycleSimulation(ctx, fw, new BatchMemo());
  const outcomes = members.map((m) => sim.attempt(m));
  const hosts = outcomes.flatMap((a) => ("placed" in a ? [a.placed.host] : []));
  assert.deepEqual([...hosts].sort(), ["n0", "n1", "n2", "n3", "n4"]);
  const last = outcomes[5];
  assert.ok(last !== undefined && "status" in last, "the sixth member found no node");
  assert.equal(statusMessage(last.status), "0/5 nodes are available: 5 Too many pods.");
  sim.revert();
});

test("group simulation: placing a member that cannot be signed drops the memo", () => {
  // n0 (zone a) takes two members, n1 and n2 (zone b) more; existing pod "watcher" has a required
  // anti-affinity that matches nothing, so InterPodAffinity filters every cycle.
  const zone = "topology.kubernetes.io/zone";
  const nodes = [
    makeNode("n0").capacity({ cpu: "2", memory: "8Gi" }).label(zone, "a").obj(),
    makeNode("n1").capacity({ cpu: "4", memory: "8Gi" }).label(zone, "b").obj(),
    makeNode("n2").capacity({ cpu: "4", memory: "8Gi" }).label(zone, "b").obj(),
  ];
  const watcher = makePod("watcher")
    .nodeName("n2")
    .podAntiAffinity(zone, { matchLabels: { nobody: "here" } })
    .obj();
  const member = (name: string) =>
    makePod(name)
      .label("gang", "g")
      .requests({ cpu: "1" })
      .preferredNodeAffinity(100, {
        matchExpressions: [{ key: zone, operator: "In", values: ["a"] }],
      });
  // The repeller goes where no member is (zone b), and from then on keeps members out of zone b.
  const repeller = member("repeller").podAntiAffinity(zone, { matchLabels: { gang: "g" } });
  const gang = [member("m1"), member("m2"), repeller, member("m3")].map(
    (b) => new PodInfo(b.obj()),
  );
  const spec = { nodes, pods: [watcher], nominated: [], percentageOfNodesToScore: 0 };
  const plain = newSimulationContext(spec, 11);
  const batched = newSimulationContext(spec, 11);
  const plainSim = new CycleSimulation(plain.ctx, plain.fw, false);
  const batchedSim = new CycleSimulation(batched.ctx, batched.fw, new BatchMemo());
  const outcomes = gang.map((m) => {
    const want = describeAttempt(plainSim.attempt(m));
    assert.equal(describeAttempt(batchedSim.attempt(m)), want, `${m.key}: the outcomes differ`);
    return want.split("\n")[0];
  });
  assert.deepEqual(outcomes.slice(0, 2), ["placed on n0", "placed on n0"]);
  assert.match(outcomes[2] ?? "", /^placed on n[12]$/);
  assert.equal(
    outcomes[3],
    "Unschedulable: 0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy existing pods anti-affinity rules.",
  );
  plainSim.revert();
  batchedSim.revert();
});

test("group simulation: removing a pod (group preemption) drops the memo", () => {
  const { spec, members } = uniform(3, 2, "1");
  const running = makePod("victim").nodeName("n0").requests({ cpu: "1" }).obj();
  const { ctx, fw } = newSimulationContext({ ...spec, pods: [running] }, 5);
  const memo = new BatchMemo();
  const sim = new CycleSimulation(ctx, fw, memo);
  const first = sim.attempt(members[0] as PodInfo);
  assert.ok("placed" in first && first.placed.host !== "n0", "n0 is full before the removal");
  sim.remove(new PodInfo(running));
  const second = sim.attempt(members[1] as PodInfo);
  assert.ok("placed" in second, "the second member fits once the victim is gone");
  assert.equal(memo.hits, 0, "nothing filtered before the removal is reused after it");
  sim.revert();
});

test("group simulation: with batching off (ctx.opportunisticBatching false) every member is evaluated in full", () => {
  const { spec, members } = uniform(120, 5);
  const { ctx, fw } = newSimulationContext(spec, 9);
  let filtered = 0;
  const counting = new Proxy(fw, {
    get(target, key) {
      if (key === "runFilterPlugins") {
        return (...args: Parameters<Framework["runFilterPlugins"]>) => {
          filtered++;
          return target.runFilterPlugins(...args);
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const sim = new CycleSimulation({ ...ctx, opportunisticBatching: false }, counting);
  for (const m of members) assert.ok("placed" in sim.attempt(m), `member ${m.key} was placed`);
  // 120 nodes: a pass stops at 100 feasible nodes (the minimum), and nothing is reused.
  assert.equal(filtered, 5 * 100, "each member filtered 100 nodes in full");
  sim.revert();
});
