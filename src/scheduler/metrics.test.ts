import assert from "node:assert/strict";
import { test } from "node:test";
import { Registry } from "prom-client";
import { newSchedulerMetrics } from "./metrics.ts";

test("newSchedulerMetrics: group attempts, their durations and pending gangs by queue", async () => {
  const registry = new Registry();
  const metrics = newSchedulerMetrics(registry, {
    pendingPods: () => ({ active: 0, backoff: 0, unschedulable: 0, gated: 0 }),
    pendingPodGroups: () => ({ active: 1, backoff: 0, unschedulable: 2, gated: 3 }),
  });
  metrics.observePodGroupAttempt("scheduled", "default-scheduler", 0.003);
  metrics.observePodGroupAttempt("unschedulable", "default-scheduler", 0.5);
  const text = await registry.metrics();
  const lines = text.split("\n").filter((l) => !l.startsWith("#"));
  const want = [
    'scheduler_podgroup_schedule_attempts_total{result="scheduled",profile="default-scheduler"} 1',
    'scheduler_podgroup_schedule_attempts_total{result="unschedulable",profile="default-scheduler"} 1',
    'scheduler_podgroup_scheduling_attempt_duration_seconds_bucket{le="0.001",result="scheduled",profile="default-scheduler"} 0',
    'scheduler_podgroup_scheduling_attempt_duration_seconds_bucket{le="0.004",result="scheduled",profile="default-scheduler"} 1',
    'scheduler_podgroup_scheduling_attempt_duration_seconds_bucket{le="16.384",result="scheduled",profile="default-scheduler"} 1',
    'scheduler_pending_entities{type="podgroup",queue="gated"} 3',
    'scheduler_pending_entities{type="podgroup",queue="unschedulable"} 2',
  ];
  assert.deepEqual(
    want.filter((w) => !lines.includes(w)),
    [],
    `missing from:\n${lines.join("\n")}`,
  );
});

test("newSchedulerMetrics: pod attempts by result and pending pods by queue, as upstream names them", async () => {
  const registry = new Registry();
  const metrics = newSchedulerMetrics(registry, {
    pendingPods: () => ({ active: 4, backoff: 1, unschedulable: 2, gated: 0 }),
    pendingPodGroups: () => ({ active: 0, backoff: 0, unschedulable: 0, gated: 0 }),
  });
  metrics.observePodAttempt("scheduled", "default-scheduler");
  metrics.observePodAttempt("scheduled", "default-scheduler");
  metrics.observePodAttempt("unschedulable", "default-scheduler");
  const lines = (await registry.metrics()).split("\n").filter((l) => !l.startsWith("#"));
  const want = [
    'scheduler_schedule_attempts_total{result="scheduled",profile="default-scheduler"} 2',
    'scheduler_schedule_attempts_total{result="unschedulable",profile="default-scheduler"} 1',
    'scheduler_pending_pods{queue="active"} 4',
    'scheduler_pending_pods{queue="backoff"} 1',
    'scheduler_pending_pods{queue="unschedulable"} 2',
    'scheduler_pending_pods{queue="gated"} 0',
  ];
  assert.deepEqual(
    want.filter((w) => !lines.includes(w)),
    [],
    `missing from:\n${lines.join("\n")}`,
  );
});
