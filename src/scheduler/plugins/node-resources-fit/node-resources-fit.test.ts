import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../../api/index.ts";
import { makeNode, makePod, minimalPlugins, newTestFramework } from "../../../testing/index.ts";
import { name } from "./node-resources-fit.ts";

const node = makeNode("n1")
  .capacity({ cpu: "2", memory: "4Gi", pods: "3", "nvidia.com/gpu": "1" })
  .obj();
const running = makePod("running").nodeName("n1").requests({ cpu: "1", memory: "1Gi" }).obj();

const cases: readonly { name: string; pod: Pod; existing?: Pod[]; want: string }[] = [
  {
    name: "a pod that fits",
    pod: makePod("p").requests({ cpu: "1", memory: "1Gi" }).obj(),
    want: "Success",
  },
  {
    name: "more cpu than is left is Insufficient cpu (preemption may help)",
    pod: makePod("p").requests({ cpu: "1500m" }).obj(),
    want: "Unschedulable: Insufficient cpu",
  },
  {
    name: "more cpu than the node has at all is unresolvable",
    pod: makePod("p").requests({ cpu: "3" }).obj(),
    want: "UnschedulableAndUnresolvable: Insufficient cpu",
  },
  {
    name: "every insufficient resource is listed in upstream's order",
    pod: makePod("p").requests({ cpu: "1500m", memory: "4Gi", "nvidia.com/gpu": "2" }).obj(),
    want: "UnschedulableAndUnresolvable: Insufficient cpu, Insufficient memory, Insufficient nvidia.com/gpu",
  },
  {
    name: "init containers count by their largest moment",
    pod: makePod("p").requests({ cpu: "100m" }).initContainer({ cpu: "1500m" }).obj(),
    want: "Unschedulable: Insufficient cpu",
  },
  {
    name: "overhead counts",
    pod: makePod("p").requests({ cpu: "900m" }).overhead({ cpu: "200m" }).obj(),
    want: "Unschedulable: Insufficient cpu",
  },
  {
    name: "a full node has too many pods even for a best-effort pod",
    pod: makePod("p").obj(),
    existing: [makePod("a").nodeName("n1").obj(), makePod("b").nodeName("n1").obj()],
    want: "Unschedulable: Too many pods",
  },
];

for (const c of cases) {
  test(`NodeResourcesFit.filter: ${c.name}`, () => {
    const tf = newTestFramework({
      plugins: minimalPlugins(name),
      nodes: [node],
      pods: [running, ...(c.existing ?? [])],
    });
    assert.equal(tf.filter(c.pod)["n1"], c.want);
  });
}

test("NodeResourcesFit.score: LeastAllocated prefers the emptier node", () => {
  const nodes = [
    makeNode("busy").capacity({ cpu: "4", memory: "8Gi" }).obj(),
    makeNode("idle").capacity({ cpu: "4", memory: "8Gi" }).obj(),
  ];
  const pods = [makePod("x").nodeName("busy").requests({ cpu: "2", memory: "4Gi" }).obj()];
  const tf = newTestFramework({ plugins: minimalPlugins(name), nodes, pods });
  // busy: cpu (4000-3000)/4000 → 25, memory (8Gi-5Gi)/8Gi → 37; idle: 75 and 87.
  assert.deepEqual(tf.score(makePod("p").requests({ cpu: "1", memory: "1Gi" }).obj()), {
    busy: 31,
    idle: 81,
  });
});

test("NodeResourcesFit.score: a best-effort pod counts as 100m cpu and 200Mi memory", () => {
  const nodes = [makeNode("n").capacity({ cpu: "1", memory: "1000Mi" }).obj()];
  const tf = newTestFramework({ plugins: minimalPlugins(name), nodes });
  // cpu (1000-100)/1000 → 90, memory (1000-200)/1000 → 80.
  assert.deepEqual(tf.score(makePod("p").obj()), { n: 85 });
});

test("NodeResourcesFit.score: MostAllocated prefers the fuller node", () => {
  const nodes = [
    makeNode("busy").capacity({ cpu: "4", memory: "8Gi" }).obj(),
    makeNode("idle").capacity({ cpu: "4", memory: "8Gi" }).obj(),
  ];
  const pods = [makePod("x").nodeName("busy").requests({ cpu: "2", memory: "4Gi" }).obj()];
  const tf = newTestFramework({
    plugins: minimalPlugins({ name, args: { scoringStrategy: { type: "MostAllocated" } } }),
    nodes,
    pods,
  });
  assert.deepEqual(tf.score(makePod("p").requests({ cpu: "1", memory: "1Gi" }).obj()), {
    busy: 68,
    idle: 18,
  });
});

const hintCases = [
  {
    name: "deleting a bound pod queues",
    resourceEvent: 0,
    old: makePod("x").nodeName("n1").obj() as unknown,
    next: undefined as unknown,
    want: "Queue",
  },
  {
    name: "deleting an unscheduled pod skips",
    resourceEvent: 0,
    old: makePod("x").obj() as unknown,
    next: undefined as unknown,
    want: "QueueSkip",
  },
  {
    name: "a new node big enough queues",
    resourceEvent: 1,
    old: undefined as unknown,
    next: makeNode("big").capacity({ cpu: "8" }).obj() as unknown,
    want: "Queue",
  },
  {
    name: "a new node too small skips",
    resourceEvent: 1,
    old: undefined as unknown,
    next: makeNode("small").capacity({ cpu: "1" }).obj() as unknown,
    want: "QueueSkip",
  },
  {
    name: "more allocatable cpu on a node queues",
    resourceEvent: 1,
    old: makeNode("n").capacity({ cpu: "2" }).obj() as unknown,
    next: makeNode("n").capacity({ cpu: "4" }).obj() as unknown,
    want: "Queue",
  },
] as const;

for (const c of hintCases) {
  test(`NodeResourcesFit.eventsToRegister: ${c.name}`, () => {
    const tf = newTestFramework({ plugins: minimalPlugins(name) });
    const hint = tf.framework.eventsToRegister.get(name)?.[c.resourceEvent]?.queueingHintFn;
    assert.equal(hint?.(makePod("p").requests({ cpu: "3" }).obj(), c.old, c.next), c.want);
  });
}
