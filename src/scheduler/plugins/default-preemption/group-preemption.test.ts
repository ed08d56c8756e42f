import assert from "node:assert/strict";
import { test } from "node:test";
import { makePod, makePodGroup, makeWorkload, newTestFramework } from "../../../testing/index.ts";
import { PodInfo } from "../../framework/index.ts";
import { gangCost, pickNodeForGroup } from "./group-preemption.ts";
import type { Victims } from "./victims.ts";

const workload = makeWorkload("w").template("worker", 2).obj();
const inGang = (name: string, group: string, priority: number) =>
  makePod(name).podGroup("w", group).priority(priority).nodeName("n1").obj();
const plain = (name: string, priority: number) =>
  makePod(name).priority(priority).nodeName("n1").obj();

const pods = [
  inGang("g1a", "g1", 10),
  inGang("g1b", "g1", 10),
  inGang("g2a", "g2", 50),
  inGang("g2b", "g2", 50),
  plain("p1", 10),
  plain("p2", 10),
];
const tf = newTestFramework({
  pods,
  workloads: [workload],
  podGroups: [makePodGroup("g1", "w").obj(), makePodGroup("g2", "w").obj()],
});
function info(name: string): PodInfo {
  const pod = pods.find((p) => p.metadata.name === name);
  if (pod === undefined) throw new RangeError(`No fixture pod "${name}"`);
  return new PodInfo(pod);
}
const victims = (...names: string[]): Victims => ({ pods: names.map(info), numPdbViolations: 0 });

const cases = [
  {
    name: "a node whose victims break no gang wins over one that breaks a gang",
    candidates: { a: victims("g1a"), b: victims("p1", "p2") },
    broken: [],
    want: "b",
  },
  {
    name: "breaking a lower-priority gang wins over a higher-priority one",
    candidates: { a: victims("g2a"), b: victims("g1a") },
    broken: [],
    want: "b",
  },
  {
    name: "a gang the plan already breaks costs nothing more",
    candidates: { a: victims("g1b"), b: victims("p1", "p2") },
    broken: ["podgroup/default/g1"],
    want: "a",
  },
] as const;

for (const c of cases) {
  test(`pickNodeForGroup: ${c.name}`, () => {
    const got = pickNodeForGroup(
      tf.framework.handle,
      new Map(Object.entries(c.candidates)),
      new Set(c.broken),
      0,
    );
    assert.equal(got, c.want);
  });
}

test("gangCost: a gang counts once, with its highest member priority", () => {
  assert.deepEqual(
    gangCost(tf.framework.handle, [info("g2a"), info("g2b"), info("p1")], new Set()),
    {
      gangs: 1,
      highest: 50,
    },
  );
});
