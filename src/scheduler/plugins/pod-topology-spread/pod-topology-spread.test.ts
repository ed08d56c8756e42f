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
import { PodInfo } from "../../framework/index.ts";
import { name } from "./pod-topology-spread.ts";

const nodes = [
  makeNode("a1").label("zone", "a").obj(),
  makeNode("a2").label("zone", "a").obj(),
  makeNode("b1").label("zone", "b").obj(),
  makeNode("nolabel").obj(),
];
const web = (n: string, node: string): Pod => makePod(n).label("app", "web").nodeName(node).obj();
const skew = "Unschedulable: node(s) didn't match pod topology spread constraints";
const missing =
  "UnschedulableAndUnresolvable: node(s) didn't match pod topology spread constraints (missing required label)";

const cases: readonly { name: string; pod: Pod; existing: Pod[]; want: Record<string, string> }[] =
  [
    {
      name: "maxSkew 1 over zones sends the pod to the emptier zone",
      pod: makePod("p")
        .label("app", "web")
        .spreadConstraint(1, "zone", "DoNotSchedule", { app: "web" })
        .obj(),
      existing: [web("w1", "a1"), web("w2", "a2")],
      want: { a1: skew, a2: skew, b1: "Success", nolabel: missing },
    },
    {
      name: "balanced zones accept the pod anywhere with the label",
      pod: makePod("p")
        .label("app", "web")
        .spreadConstraint(1, "zone", "DoNotSchedule", { app: "web" })
        .obj(),
      existing: [web("w1", "a1"), web("w2", "b1")],
      want: { a1: "Success", a2: "Success", b1: "Success", nolabel: missing },
    },
    {
      name: "pods in other namespaces and terminating pods do not count",
      pod: makePod("p")
        .label("app", "web")
        .spreadConstraint(1, "zone", "DoNotSchedule", { app: "web" })
        .obj(),
      existing: [
        makePod("other").namespace("other").label("app", "web").nodeName("a1").obj(),
        makePod("gone").label("app", "web").nodeName("a2").terminating().obj(),
      ],
      want: { a1: "Success", a2: "Success", b1: "Success", nolabel: missing },
    },
    {
      name: "minDomains above the number of zones makes the global minimum 0",
      pod: makePod("p")
        .label("app", "web")
        .spreadConstraint(1, "zone", "DoNotSchedule", { app: "web" }, { minDomains: 3 })
        .obj(),
      existing: [web("w1", "a1"), web("w2", "b1")],
      want: { a1: skew, a2: skew, b1: skew, nolabel: missing },
    },
    {
      name: "a ScheduleAnyway constraint never filters",
      pod: makePod("p")
        .label("app", "web")
        .spreadConstraint(1, "zone", "ScheduleAnyway", { app: "web" })
        .obj(),
      existing: [web("w1", "a1"), web("w2", "a2")],
      want: { a1: "Success", a2: "Success", b1: "Success", nolabel: "Success" },
    },
  ];

for (const c of cases) {
  test(`PodTopologySpread.filter: ${c.name}`, () => {
    const tf = newTestFramework({ plugins: minimalPlugins(name), nodes, pods: c.existing });
    assert.deepEqual(tf.filter(c.pod), c.want);
  });
}

test("PodTopologySpread.score: the zone with fewer matching pods scores higher", () => {
  const tf = newTestFramework({
    plugins: minimalPlugins(name),
    nodes: nodes.slice(0, 3),
    pods: [web("w1", "a1"), web("w2", "a2"), web("w3", "b1")],
  });
  const pod = makePod("p")
    .label("app", "web")
    .spreadConstraint(1, "zone", "ScheduleAnyway", { app: "web" })
    .obj();
  const scores = tf.score(pod);
  assert.equal(scores["b1"], 100);
  assert.ok((scores["a1"] ?? 100) < 100, '(scores["a1"] ?? 100) < 100');
  assert.equal(scores["a1"], scores["a2"]);
});

test("PodTopologySpread.preFilterExtensions: removing a pod updates the counts (preemption)", () => {
  const existing = [web("w1", "a1"), web("w2", "a2")];
  const tf = newTestFramework({ plugins: minimalPlugins(name), nodes, pods: existing });
  const pod = makePod("p")
    .label("app", "web")
    .spreadConstraint(2, "zone", "DoNotSchedule", { app: "web" })
    .obj();
  const state = tf.newState();
  tf.framework.runPreFilterPlugins(state, pod, tf.snapshot.list());
  const a1 = nodeInfoOf(makeNode("a1").label("zone", "a").obj(), web("w1", "a1"));
  // zone a holds 2, zone b 0: 2 + 1 - 0 > 2.
  assert.equal(tf.framework.runFilterPlugins(state, pod, a1).code, "Unschedulable");
  a1.removePod("uid-w1");
  tf.framework.runPreFilterExtension("removePod", state, pod, new PodInfo(web("w1", "a1")), a1);
  // Without w1: 1 + 1 - 0 = 2.
  assert.equal(tf.framework.runFilterPlugins(state, pod, a1).code, "Success");
});
