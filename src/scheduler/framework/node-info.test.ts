import assert from "node:assert/strict";
import { test } from "node:test";
import { makeNode, makePod } from "../../testing/index.ts";
import { NodeInfo } from "./node-info.ts";
import { PodInfo } from "./pod-info.ts";
import type { Resource } from "./resource.ts";

/** NodeResourcesFit's native checks, written out against `allocatable`, `requested` and `pods`. */
function fitsByHand(nodeInfo: NodeInfo, requests: Resource): boolean {
  const { allocatable, requested } = nodeInfo;
  if (nodeInfo.pods.length + 1 > allocatable.allowedPodNumber) return false;
  if (requests.milliCpu > 0 && requests.milliCpu > allocatable.milliCpu - requested.milliCpu) {
    return false;
  }
  if (requests.memory > 0 && requests.memory > allocatable.memory - requested.memory) return false;
  return !(
    requests.ephemeralStorage > 0 &&
    requests.ephemeralStorage > allocatable.ephemeralStorage - requested.ephemeralStorage
  );
}

const candidates = [
  makePod("none").obj(),
  makePod("small").requests({ cpu: "500m", memory: "1Gi" }).obj(),
  makePod("cpu").requests({ cpu: "2" }).obj(),
  makePod("memory").requests({ memory: "3Gi" }).obj(),
  makePod("disk").requests({ "ephemeral-storage": "5Gi" }).obj(),
].map((pod) => new PodInfo(pod).resource.requests);

function checkAll(nodeInfo: NodeInfo, when: string): void {
  for (const requests of candidates) {
    assert.equal(
      nodeInfo.hasNativeRoomFor(requests),
      fitsByHand(nodeInfo, requests),
      `${when}: ${requests.milliCpu}m cpu, ${requests.memory} bytes, ${requests.ephemeralStorage} bytes of disk`,
    );
  }
}

test("NodeInfo.hasNativeRoomFor answers as NodeResourcesFit's native checks through adds, removes, clones and node updates", () => {
  const node = makeNode("n")
    .capacity({ cpu: "3", memory: "4Gi", pods: "3", "ephemeral-storage": "8Gi" })
    .obj();
  const nodeInfo = new NodeInfo(node);
  checkAll(nodeInfo, "empty node");
  const pods = ["a", "b", "c"].map(
    (name, i) =>
      new PodInfo(
        makePod(name)
          .uid(name)
          .nodeName("n")
          .requests({ cpu: `${i + 1}00m`, memory: "1Gi", "ephemeral-storage": "2Gi" })
          .obj(),
      ),
  );
  for (const podInfo of pods) {
    nodeInfo.addPodInfo(podInfo);
    checkAll(nodeInfo, `after adding ${podInfo.pod.metadata.name}`);
  }
  assert.equal(nodeInfo.hasNativeRoomFor(candidates[0] as Resource), false, "3 of 3 pods: full");
  const copy = nodeInfo.clone();
  assert.ok(copy.removePod("b"), "b is on the copy");
  checkAll(copy, "copy after removing b");
  checkAll(nodeInfo, "original after the copy lost b");
  assert.equal(copy.hasNativeRoomFor(candidates[0] as Resource), true, "2 of 3 pods: room");
  nodeInfo.setNode(makeNode("n").capacity({ cpu: "8", memory: "16Gi", pods: "10" }).obj());
  checkAll(nodeInfo, "after the node grew");
});

test("NodeInfo keeps the node's unschedulable flag and taints beside it, and forgets them with the node", () => {
  const plain = new NodeInfo(makeNode("plain").obj());
  assert.equal(plain.unschedulable, false);
  assert.deepEqual(plain.taints, []);
  const cordoned = makeNode("c")
    .unschedulable()
    .taint("dedicated", "gpu", "NoSchedule")
    .taint("spot", "true", "PreferNoSchedule")
    .obj();
  const nodeInfo = new NodeInfo(cordoned);
  assert.equal(nodeInfo.unschedulable, true);
  assert.deepEqual(
    nodeInfo.taints.map((t) => t.key),
    ["dedicated", "spot"],
  );
  assert.equal(nodeInfo.clone().unschedulable, true, "a clone keeps the flag");
  nodeInfo.setNode(makeNode("c").obj());
  assert.equal(nodeInfo.unschedulable, false, "uncordoned");
  assert.deepEqual(nodeInfo.taints, [], "taints removed");
  nodeInfo.node = undefined;
  assert.equal(nodeInfo.name, "");
  assert.equal(nodeInfo.unschedulable, false);
});
