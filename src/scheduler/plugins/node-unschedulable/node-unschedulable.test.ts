import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../../api/index.ts";
import { makeNode, makePod, minimalPlugins, newTestFramework } from "../../../testing/index.ts";
import { name } from "./node-unschedulable.ts";

const cases: readonly { name: string; pod: Pod; cordoned: boolean; want: string }[] = [
  {
    name: "a cordoned node rejects a pod",
    pod: makePod("p").obj(),
    cordoned: true,
    want: "UnschedulableAndUnresolvable: node(s) were unschedulable",
  },
  {
    name: "a schedulable node accepts the pod",
    pod: makePod("p").obj(),
    cordoned: false,
    want: "Success",
  },
  {
    name: "a pod tolerating the unschedulable taint may use a cordoned node",
    pod: makePod("p")
      .toleration({
        key: "node.kubernetes.io/unschedulable",
        operator: "Exists",
        effect: "NoSchedule",
      })
      .obj(),
    cordoned: true,
    want: "Success",
  },
];

for (const c of cases) {
  test(`NodeUnschedulable.filter: ${c.name}`, () => {
    const tf = newTestFramework({
      plugins: minimalPlugins(name),
      nodes: [makeNode("n1").unschedulable(c.cordoned).obj()],
    });
    assert.equal(tf.filter(c.pod)["n1"], c.want);
  });
}

test("NodeUnschedulable.eventsToRegister: uncordoning queues the pod, cordoning does not", () => {
  const tf = newTestFramework({ plugins: minimalPlugins(name) });
  const hint = tf.framework.eventsToRegister.get(name)?.[0]?.queueingHintFn;
  const cordoned = makeNode("n1").unschedulable().obj();
  const open = makeNode("n1").obj();
  assert.equal(hint?.(makePod("p").obj(), cordoned, open), "Queue");
  assert.equal(hint?.(makePod("p").obj(), open, cordoned), "QueueSkip");
});
