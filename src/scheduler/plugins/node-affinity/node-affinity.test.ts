import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../../api/index.ts";
import { makeNode, makePod, minimalPlugins, newTestFramework } from "../../../testing/index.ts";
import { name } from "./node-affinity.ts";

const nodes = [
  makeNode("a1").label("zone", "a").obj(),
  makeNode("a2").label("zone", "a").label("disk", "ssd").obj(),
  makeNode("b1").label("zone", "b").obj(),
];
const miss = "UnschedulableAndUnresolvable: node(s) didn't match Pod's node affinity/selector";

const cases: readonly { name: string; pod: Pod; want: Record<string, string> }[] = [
  {
    name: "nodeSelector admits only nodes with every label",
    pod: makePod("p").nodeSelector({ zone: "a", disk: "ssd" }).obj(),
    want: { a1: miss, a2: "Success", b1: miss },
  },
  {
    name: "required affinity In selects the zone",
    pod: makePod("p").nodeAffinityIn("zone", ["b"]).obj(),
    want: { a1: miss, a2: miss, b1: "Success" },
  },
  {
    name: "matchFields on metadata.name narrows PreFilter to the named nodes",
    pod: makePod("p").nodeAffinityNames(["a2"]).obj(),
    want: {
      a1: "UnschedulableAndUnresolvable: (not in PreFilter result)",
      a2: "Success",
      b1: "UnschedulableAndUnresolvable: (not in PreFilter result)",
    },
  },
  {
    name: "a term naming two nodes by field intersects to none: the terms conflict",
    pod: makePod("p")
      .requiredNodeAffinityTerm({
        matchFields: [
          { key: "metadata.name", operator: "In", values: ["a1"] },
          { key: "metadata.name", operator: "In", values: ["a2"] },
        ],
      })
      .obj(),
    want: {
      a1: "UnschedulableAndUnresolvable: pod affinity terms conflict",
      a2: "UnschedulableAndUnresolvable: pod affinity terms conflict",
      b1: "UnschedulableAndUnresolvable: pod affinity terms conflict",
    },
  },
  {
    name: "a pod without selector or affinity skips the filter",
    pod: makePod("p").obj(),
    want: { a1: "Success", a2: "Success", b1: "Success" },
  },
];

for (const c of cases) {
  test(`NodeAffinity.filter: ${c.name}`, () => {
    const tf = newTestFramework({ plugins: minimalPlugins(name), nodes });
    assert.deepEqual(tf.filter(c.pod), c.want);
  });
}

test("NodeAffinity.score: preferred term weights, normalized to the best node", () => {
  const tf = newTestFramework({ plugins: minimalPlugins(name), nodes });
  const pod = makePod("p")
    .preferredNodeAffinity(20, {
      matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }],
    })
    .preferredNodeAffinity(60, { matchExpressions: [{ key: "disk", operator: "Exists" }] })
    .obj();
  assert.deepEqual(tf.score(pod), { a1: 25, a2: 100, b1: 0 });
});

test("NodeAffinity.eventsToRegister: a node that newly matches queues the pod", () => {
  const tf = newTestFramework({ plugins: minimalPlugins(name) });
  const hint = tf.framework.eventsToRegister.get(name)?.[0]?.queueingHintFn;
  const pod = makePod("p").nodeSelector({ zone: "a" }).obj();
  assert.equal(hint?.(pod, makeNode("n").obj(), makeNode("n").label("zone", "a").obj()), "Queue");
  assert.equal(hint?.(pod, undefined, makeNode("n").label("zone", "b").obj()), "QueueSkip");
  const matching = makeNode("n").label("zone", "a").obj();
  assert.equal(hint?.(pod, matching, matching), "QueueSkip");
});
