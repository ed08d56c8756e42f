import assert from "node:assert/strict";
import { test } from "node:test";
import type { Node, Pod } from "../../../api/index.ts";
import { makeNode, makePod, minimalPlugins, newTestFramework } from "../../../testing/index.ts";
import { name } from "./taint-toleration.ts";

const filterCases: readonly { name: string; pod: Pod; node: Node; want: string }[] = [
  {
    name: "NoSchedule taint rejects a pod without tolerations",
    pod: makePod("p").obj(),
    node: makeNode("n1").taint("gpu", "true", "NoSchedule").obj(),
    want: "UnschedulableAndUnresolvable: node(s) had untolerated taint {gpu: true}",
  },
  {
    name: "a taint without value prints an empty value",
    pod: makePod("p").obj(),
    node: makeNode("n1").taint("node-role.kubernetes.io/control-plane", "", "NoSchedule").obj(),
    want: "UnschedulableAndUnresolvable: node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }",
  },
  {
    name: "Exists toleration with empty key tolerates every taint",
    pod: makePod("p").toleration({ operator: "Exists" }).obj(),
    node: makeNode("n1").taint("gpu", "true", "NoSchedule").taint("x", "y", "NoExecute").obj(),
    want: "Success",
  },
  {
    name: "NoExecute taint rejects like NoSchedule",
    pod: makePod("p").toleration({ key: "gpu", operator: "Exists", effect: "NoSchedule" }).obj(),
    node: makeNode("n1").taint("gpu", "true", "NoExecute").obj(),
    want: "UnschedulableAndUnresolvable: node(s) had untolerated taint {gpu: true}",
  },
  {
    name: "PreferNoSchedule taint never filters",
    pod: makePod("p").obj(),
    node: makeNode("n1").taint("spot", "", "PreferNoSchedule").obj(),
    want: "Success",
  },
];

for (const c of filterCases) {
  test(`TaintToleration.filter: ${c.name}`, () => {
    const tf = newTestFramework({ plugins: minimalPlugins(name), nodes: [c.node] });
    assert.equal(tf.filter(c.pod)["n1"], c.want);
  });
}

test("TaintToleration.score: fewer untolerated PreferNoSchedule taints score higher", () => {
  const nodes = [
    makeNode("clean").obj(),
    makeNode("one").taint("a", "", "PreferNoSchedule").obj(),
    makeNode("two").taint("a", "", "PreferNoSchedule").taint("b", "", "PreferNoSchedule").obj(),
    makeNode("tolerated").taint("c", "", "PreferNoSchedule").obj(),
  ];
  const tf = newTestFramework({ plugins: minimalPlugins(name), nodes });
  const pod = makePod("p")
    .toleration({ key: "c", operator: "Exists", effect: "PreferNoSchedule" })
    .obj();
  assert.deepEqual(tf.score(pod), { clean: 100, one: 50, two: 0, tolerated: 100 });
});

const hintCases = [
  {
    name: "a taint removed so the pod tolerates the node queues the pod",
    old: makeNode("n1").taint("gpu", "true", "NoSchedule").obj(),
    node: makeNode("n1").obj(),
    want: "Queue",
  },
  {
    name: "a node that still has an untolerated taint is skipped",
    old: makeNode("n1").taint("gpu", "true", "NoSchedule").obj(),
    node: makeNode("n1").taint("gpu", "true", "NoSchedule").taint("b", "", "NoSchedule").obj(),
    want: "QueueSkip",
  },
  {
    name: "an added node without taints queues the pod",
    old: undefined,
    node: makeNode("n2").obj(),
    want: "Queue",
  },
] as const;

for (const c of hintCases) {
  test(`TaintToleration.eventsToRegister: ${c.name}`, () => {
    const tf = newTestFramework({ plugins: minimalPlugins(name) });
    const hint = tf.framework.eventsToRegister.get(name)?.[0]?.queueingHintFn;
    assert.equal(hint?.(makePod("p").obj(), c.old, c.node), c.want);
  });
}
