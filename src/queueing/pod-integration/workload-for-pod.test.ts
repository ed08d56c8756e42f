import assert from "node:assert/strict";
import { test } from "node:test";
import { makePod } from "../../testing/index.ts";
import { workloadForPod, workloadNameForOwner } from "./workload-for-pod.ts";

test("workloadNameForOwner: Kueue's vector for a Job named name with UID uid", () => {
  assert.equal(workloadNameForOwner("Job", "batch", "name", "uid"), "job-name-ef3a1");
});

test("workloadNameForOwner: a long name is cut so the whole name stays within 253 characters", () => {
  const name = workloadNameForOwner("Pod", "", "p".repeat(300), "u");
  assert.equal(name.length, 253);
  assert.match(name, /^pod-p+-[0-9a-f]{5}$/);
});

test("workloadForPod: one podSet main owned by the pod, with the job-uid label and resource-in-use finalizer", () => {
  const pod = makePod("p").uid("0b7c").label("kueue.x-k8s.io/queue-name", "user-queue").obj();
  const wl = workloadForPod(pod, { priority: 0 });
  assert.equal(wl.metadata.name, workloadNameForOwner("Pod", "", "p", "0b7c"));
  assert.deepEqual(wl.metadata.finalizers, ["kueue.x-k8s.io/resource-in-use"]);
  assert.deepEqual(wl.metadata.labels, { "kueue.x-k8s.io/job-uid": "0b7c" });
  assert.deepEqual(
    wl.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.controller]),
    [["Pod", "p", true]],
  );
  assert.deepEqual(
    wl.spec.podSets.map((p) => [p.name, p.count]),
    [["main", 1]],
  );
  assert.equal(wl.spec.queueName, "user-queue");
});
