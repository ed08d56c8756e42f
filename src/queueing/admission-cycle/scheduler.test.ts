import assert from "node:assert/strict";
import { test } from "node:test";
import { makeKueueWorkload } from "../../testing/index.ts";
import { preemptedStatus, reservedStatus } from "./scheduler.ts";

const now = new Date("2026-01-01T01:00:00Z");
const message =
  "Preempted to accommodate a workload (UID: u, JobUID: UNKNOWN) due to prioritization in the ClusterQueue";

test("preemptedStatus: sets Evicted (reason Preempted) and Preempted with the preemption reason and message", () => {
  const victim = makeKueueWorkload("v").podSet("main", 1, { cpu: "1" }).admitted("cq").obj();
  const status = preemptedStatus(victim, "InClusterQueue", message, now);
  assert.deepEqual(
    status?.conditions
      ?.filter((c) => c.type === "Evicted" || c.type === "Preempted")
      .map((c) => [c.type, c.status, c.reason, c.message, c.lastTransitionTime]),
    [
      ["Evicted", "True", "Preempted", message, "2026-01-01T01:00:00Z"],
      ["Preempted", "True", "InClusterQueue", message, "2026-01-01T01:00:00Z"],
    ],
  );
  assert.equal(status?.admission?.clusterQueue, "cq", "the reservation stays until its pods stop");
});

test("reservedStatus: re-admission resets Evicted and Preempted to False with 'Previously:'", () => {
  const requeued = makeKueueWorkload("v")
    .podSet("main", 1, { cpu: "1" })
    .condition("Evicted", "True", "Preempted", message)
    .condition("Preempted", "True", "InClusterQueue", message)
    .condition("QuotaReserved", "False", "Pending", message)
    .obj();
  const status = reservedStatus(requeued, { clusterQueue: "cq", podSetAssignments: [] }, now);
  assert.deepEqual(
    status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
    [
      ["Evicted", "False", "QuotaReserved", `Previously: ${message}`],
      ["Preempted", "False", "QuotaReserved", `Previously: ${message}`],
      ["QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue cq"],
      ["Admitted", "True", "Admitted", "The workload is admitted"],
    ],
  );
});
