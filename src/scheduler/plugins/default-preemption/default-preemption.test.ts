import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../../api/index.ts";
import {
  makeNode,
  makePod,
  minimalPlugins,
  newTestFramework,
  nodeInfoOf,
} from "../../../testing/index.ts";
import { NodeToStatus, PodInfo, unresolvable, unschedulable } from "../../framework/index.ts";
import { name, numCandidates } from "./default-preemption.ts";
import {
  pickOneNodeForPreemption,
  selectVictimsOnNode,
  splitByPdbViolation,
  type Victims,
} from "./victims.ts";

const plugins = minimalPlugins("NodeResourcesFit", name);

test("selectVictimsOnNode: evicts the least important pods that make room, reprieving the rest", () => {
  const node = makeNode("n1").capacity({ cpu: "2" }).obj();
  const pods = [
    makePod("low1").nodeName("n1").priority(0).requests({ cpu: "1" }).obj(),
    makePod("low2").nodeName("n1").priority(0).requests({ cpu: "500m" }).obj(),
    makePod("mid").nodeName("n1").priority(50).requests({ cpu: "500m" }).obj(),
  ];
  const preemptor = makePod("p").priority(100).requests({ cpu: "1" }).obj();
  const tf = newTestFramework({ plugins, nodes: [node], pods });
  const state = tf.newState();
  tf.framework.runPreFilterPlugins(state, preemptor, tf.snapshot.list());
  const result = selectVictimsOnNode(
    tf.framework.handle,
    state,
    preemptor,
    nodeInfoOf(node, ...pods),
    [],
  );
  assert.equal(result.status.code, "Success");
  assert.deepEqual(
    result.victims?.pods.map((p) => p.pod.metadata.name),
    ["low1"],
  );
});

test("selectVictimsOnNode: a node with no lower-priority pods cannot help", () => {
  const node = makeNode("n1").capacity({ cpu: "1" }).obj();
  const pods = [makePod("peer").nodeName("n1").priority(100).requests({ cpu: "1" }).obj()];
  const preemptor = makePod("p").priority(100).requests({ cpu: "1" }).obj();
  const tf = newTestFramework({ plugins, nodes: [node], pods });
  const state = tf.newState();
  tf.framework.runPreFilterPlugins(state, preemptor, tf.snapshot.list());
  const result = selectVictimsOnNode(
    tf.framework.handle,
    state,
    preemptor,
    nodeInfoOf(node, ...pods),
    [],
  );
  assert.deepEqual(
    { code: result.status.code, reasons: result.status.reasons },
    {
      code: "UnschedulableAndUnresolvable",
      reasons: ["No preemption victims found for incoming pod"],
    },
  );
});

function victims(...pods: [string, number][]): Victims {
  return {
    pods: pods.map(([n, priority]) => new PodInfo(makePod(n).priority(priority).obj())),
    numPdbViolations: 0,
  };
}

const pickCases: readonly { name: string; candidates: [string, Victims][]; want: string }[] = [
  {
    name: "the node whose most important victim is least important",
    candidates: [
      ["n1", victims(["a", 50])],
      ["n2", victims(["b", 10], ["c", 10])],
    ],
    want: "n2",
  },
  {
    name: "then the smallest sum of priorities",
    candidates: [
      ["n1", victims(["a", 10], ["b", 10])],
      ["n2", victims(["c", 10], ["d", 5])],
    ],
    want: "n2",
  },
  {
    name: "then the fewest victims",
    candidates: [
      ["n1", victims(["a", 10], ["b", 0])],
      ["n2", victims(["c", 10], ["d", -5], ["e", 5])],
    ],
    want: "n1",
  },
  {
    name: "fewest budget violations first",
    candidates: [
      ["n1", { ...victims(["a", 0]), numPdbViolations: 1 }],
      ["n2", victims(["b", 50], ["c", 50])],
    ],
    want: "n2",
  },
];

for (const c of pickCases) {
  test(`pickOneNodeForPreemption: ${c.name}`, () => {
    assert.equal(pickOneNodeForPreemption(new Map(c.candidates), 0), c.want);
  });
}

test("splitByPdbViolation: pods beyond a budget's allowance violate it", () => {
  const pods = ["a", "b", "c"].map((n) => new PodInfo(makePod(n).label("app", "x").obj()));
  const pdb = {
    metadata: { name: "b", namespace: "default" },
    spec: { selector: { matchLabels: { app: "x" } } },
    status: { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 },
  };
  const [violating, ok] = splitByPdbViolation(pods, [pdb]);
  assert.deepEqual(
    [violating.map((p) => p.pod.metadata.name), ok.map((p) => p.pod.metadata.name)],
    [["b", "c"], ["a"]],
  );
});

const numCases = [
  { nodes: 50, want: 50 },
  { nodes: 500, want: 100 },
  { nodes: 5000, want: 500 },
] as const;

for (const c of numCases) {
  test(`numCandidates: ${c.nodes} potential nodes dry-run ${c.want}`, () => {
    assert.equal(numCandidates(c.nodes, {}), c.want);
  });
}

async function postFilter(preemptor: Pod, statuses: NodeToStatus, extra: Pod[] = []) {
  const nodes = [
    makeNode("n1").capacity({ cpu: "1" }).obj(),
    makeNode("n2").capacity({ cpu: "1" }).obj(),
  ];
  const tf = newTestFramework({ plugins, nodes, pods: [preemptor, ...extra] });
  const state = tf.newState();
  tf.framework.runPreFilterPlugins(state, preemptor, tf.snapshot.list());
  return tf.framework.runPostFilterPlugins(state, preemptor, statuses);
}

test("DefaultPreemption.postFilter: nodes where preemption cannot help give upstream's message", async () => {
  const statuses = new NodeToStatus();
  statuses.set("n1", unresolvable("Insufficient cpu"));
  statuses.set("n2", unresolvable("node(s) had untolerated taint {a: b}"));
  const result = await postFilter(makePod("p").priority(10).requests({ cpu: "2" }).obj(), statuses);
  assert.deepEqual(result.status.reasons, [
    "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
  ]);
  assert.deepEqual(result.nominatingInfo, { nominatedNodeName: "", mode: "Override" });
});

test("DefaultPreemption.postFilter: a node without lower-priority pods is listed with its reason", async () => {
  const statuses = new NodeToStatus();
  statuses.set("n1", unschedulable("Insufficient cpu"));
  statuses.set("n2", unresolvable("node(s) were unschedulable"));
  const result = await postFilter(
    makePod("p").priority(10).requests({ cpu: "1" }).obj(),
    statuses,
    [makePod("peer").nodeName("n1").priority(10).requests({ cpu: "1" }).obj()],
  );
  assert.deepEqual(result.status.reasons, [
    "preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
  ]);
});

test("DefaultPreemption.postFilter: preemptionPolicy Never is not eligible", async () => {
  const statuses = new NodeToStatus();
  statuses.set("n1", unschedulable("Insufficient cpu"));
  const pod = makePod("p").priority(10).preemptionPolicy("Never").requests({ cpu: "1" }).obj();
  const result = await postFilter(pod, statuses);
  assert.deepEqual(
    { code: result.status.code, reasons: result.status.reasons },
    { code: "Unschedulable", reasons: ["preemption: not eligible due to preemptionPolicy=Never."] },
  );
});
