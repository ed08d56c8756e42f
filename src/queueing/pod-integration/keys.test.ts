import assert from "node:assert/strict";
import { test } from "node:test";
import type { KueueWorkload } from "../../api/index.ts";
import { makeKueueWorkload } from "../../testing/index.ts";
import { workloadEventKeys, workloadEventLane } from "./keys.ts";

test("workloadEventLane: the pods of admitted, evicted or deleted Workloads go first", () => {
  const base = () =>
    makeKueueWorkload("pod-a-1234").queue("user-queue").podSet("main", 1, { cpu: "1" });
  const deleting = base().obj();
  deleting.metadata.deletionTimestamp = "2026-01-01T00:01:00Z";
  const cases: { name: string; workload: KueueWorkload; want: "front" | "back" }[] = [
    { name: "just created", workload: base().obj(), want: "back" },
    {
      name: "pending",
      workload: base().condition("QuotaReserved", "False", "Pending", "no quota").obj(),
      want: "back",
    },
    {
      name: "quota reserved, admission checks pending",
      workload: base().condition("QuotaReserved", "True", "QuotaReserved").obj(),
      want: "back",
    },
    { name: "admitted", workload: base().admitted("cq").obj(), want: "front" },
    {
      name: "evicted",
      workload: base().admitted("cq").condition("Evicted", "True", "Preempted").obj(),
      want: "front",
    },
    { name: "being deleted", workload: deleting, want: "front" },
  ];
  for (const c of cases) assert.equal(workloadEventLane(c.workload), c.want, c.name);
});

test("workloadEventKeys: a single pod's Workload maps to its controlling pod", () => {
  const workload = makeKueueWorkload("pod-a-1234").obj();
  workload.metadata.ownerReferences = [
    { apiVersion: "v1", kind: "Pod", name: "a", uid: "u", controller: true },
  ];
  assert.deepEqual(workloadEventKeys(workload), ["default/a"]);
  workload.metadata.annotations = { "kueue.x-k8s.io/is-group-workload": "true" };
  assert.deepEqual(workloadEventKeys(workload), ["group/default/pod-a-1234"]);
});
