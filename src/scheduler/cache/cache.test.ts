import assert from "node:assert/strict";
import { test } from "node:test";
import { makeNode, makePod } from "../../testing/index.ts";
import { SchedulerCache } from "./cache.ts";
import { Snapshot } from "./snapshot.ts";

function cpuOn(snapshot: Snapshot, node: string): number | undefined {
  return snapshot.get(node)?.requested.milliCpu;
}

test("SchedulerCache.assumePod: counts the pod on its node before the binding is confirmed", () => {
  const cache = new SchedulerCache();
  cache.addNode(makeNode("n1").obj());
  cache.assumePod(makePod("p").nodeName("n1").requests({ cpu: "500m" }).obj());
  const snapshot = cache.snapshot();
  assert.equal(cpuOn(snapshot, "n1"), 500);
  assert.equal(cache.isAssumedPod(makePod("p").obj()), true);
});

test("SchedulerCache.forgetPod: undoes an assumption (failed bind)", () => {
  const cache = new SchedulerCache();
  cache.addNode(makeNode("n1").obj());
  const pod = makePod("p").nodeName("n1").requests({ cpu: "500m" }).obj();
  cache.assumePod(pod);
  cache.forgetPod(pod);
  assert.equal(cpuOn(cache.snapshot(), "n1"), 0);
  assert.equal(cache.isAssumedPod(pod), false);
});

test("SchedulerCache.addPod: the informer's add confirms the assumption, even on another node", () => {
  const cache = new SchedulerCache();
  cache.addNode(makeNode("n1").obj());
  cache.addNode(makeNode("n2").obj());
  cache.assumePod(makePod("p").nodeName("n1").requests({ cpu: "500m" }).obj());
  cache.addPod(makePod("p").nodeName("n2").requests({ cpu: "500m" }).obj());
  const snapshot = cache.snapshot();
  assert.deepEqual([cpuOn(snapshot, "n1"), cpuOn(snapshot, "n2")], [0, 500]);
  assert.equal(cache.isAssumedPod(makePod("p").obj()), false);
});

test("SchedulerCache.forgetPod: a confirmed pod is not forgotten", () => {
  const cache = new SchedulerCache();
  cache.addNode(makeNode("n1").obj());
  const pod = makePod("p").nodeName("n1").requests({ cpu: "1" }).obj();
  cache.assumePod(pod);
  cache.addPod(pod);
  cache.forgetPod(pod);
  assert.equal(cpuOn(cache.snapshot(), "n1"), 1000);
});

test("SchedulerCache.removeNode: pods of a deleted node are kept until deleted, but not listed", () => {
  const cache = new SchedulerCache();
  const node = makeNode("n1").obj();
  cache.addNode(node);
  const pod = makePod("p").nodeName("n1").obj();
  cache.addPod(pod);
  cache.removeNode(node);
  assert.equal(cache.snapshot().numNodes, 0);
  cache.addNode(node);
  assert.equal(cache.snapshot().get("n1")?.pods.length, 1);
  cache.removePod(pod);
  assert.equal(cache.snapshot().get("n1")?.pods.length, 0);
});

test("SchedulerCache.updateSnapshot: copies only what changed and keeps the snapshot isolated", () => {
  const cache = new SchedulerCache();
  cache.addNode(makeNode("n1").obj());
  cache.addNode(makeNode("n2").obj());
  const snapshot = new Snapshot();
  cache.updateSnapshot(snapshot);
  const n2Before = snapshot.get("n2");
  cache.addPod(makePod("p").nodeName("n1").requests({ cpu: "1" }).obj());
  assert.equal(cpuOn(snapshot, "n1"), 0, "the snapshot does not see changes until updated");
  cache.updateSnapshot(snapshot);
  assert.equal(cpuOn(snapshot, "n1"), 1000);
  assert.equal(snapshot.get("n2"), n2Before, "unchanged nodes keep their copy");
  assert.deepEqual(
    snapshot.list().map((n) => n.name),
    ["n1", "n2"],
  );
});

test("SchedulerCache.updateSnapshot: tracks the nodes that run pods with affinity", () => {
  const cache = new SchedulerCache();
  cache.addNode(makeNode("n1").obj());
  cache.addNode(makeNode("n2").obj());
  const snapshot = new Snapshot();
  cache.updateSnapshot(snapshot);
  const pod = makePod("a")
    .nodeName("n2")
    .podAntiAffinity("zone", { matchLabels: { x: "y" } })
    .obj();
  cache.addPod(pod);
  cache.updateSnapshot(snapshot);
  assert.deepEqual(
    snapshot.havePodsWithRequiredAntiAffinityList().map((n) => n.name),
    ["n2"],
  );
  assert.deepEqual(
    snapshot.havePodsWithAffinityList().map((n) => n.name),
    ["n2"],
  );
  cache.removePod(pod);
  cache.updateSnapshot(snapshot);
  assert.deepEqual(snapshot.havePodsWithRequiredAntiAffinityList(), []);
});
