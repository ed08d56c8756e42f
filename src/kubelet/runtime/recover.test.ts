import assert from "node:assert/strict";
import test from "node:test";
import type { Pod } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import { rfc3339 } from "../../util/index.ts";
import { podPlan } from "./plan.ts";
import { advancePod, newPodRecord, type PodRecord } from "./pod-record.ts";
import { renderPodStatus } from "./pod-status.ts";
import { recordFromStatus } from "./recover.ts";

const t0 = Date.parse("2026-01-01T00:00:00Z");
const s = (seconds: number): number => t0 + seconds * 1000;
const defaults = { startDelayMs: 0, stopDelayMs: 1000 };

function withStatus(pod: Pod, record: PodRecord, now: number): Pod {
  const status = renderPodStatus(pod, record, {
    now,
    hostIP: "127.0.0.1",
    podIP: "10.0.0.2",
    startTime: rfc3339(new Date(t0)),
  });
  return { ...pod, status };
}

function states(record: PodRecord): string[] {
  return record.containers.map((c) => `${c.plan.name}:${c.state.kind}:${c.restartCount}`);
}

test("recordFromStatus: a pod without startTime needs admission", () => {
  const pod = makePod("p").obj();
  assert.equal(recordFromStatus(pod, podPlan(pod, defaults), s(0)), undefined);
});

test("recordFromStatus: a running container keeps its start time, so run-for still ends on time", () => {
  const pod = makePod("p").annotation("gantry.dev/run-for", "30s").obj();
  pod.spec.restartPolicy = "Never";
  const plan = podPlan(pod, defaults);
  const written = withStatus(pod, advancePod(newPodRecord(plan, "Never", t0), s(10)), s(10));
  const recovered = recordFromStatus(written, plan, s(20));
  assert.ok(recovered !== undefined, "recovered !== undefined");
  assert.deepEqual(
    [states(advancePod(recovered, s(29))), advancePod(recovered, s(30)).terminalPhase],
    [["c:running:0"], "Succeeded"],
  );
});

test("recordFromStatus: waiting init-phase successors start now, back-off resumes", () => {
  const pod = makePod("p")
    .initContainer({}, { name: "init" })
    .annotation("gantry.dev/exit-code", "1")
    .obj();
  const plan = podPlan(pod, defaults);
  const written = withStatus(pod, advancePod(newPodRecord(plan, "Always", t0), s(0)), s(0));
  const recovered = recordFromStatus(written, plan, s(100));
  assert.ok(recovered !== undefined, "recovered !== undefined");
  assert.deepEqual(states(recovered), ["init:terminated:0", "c:backoff:1"]);
  assert.deepEqual(states(advancePod(recovered, s(100))), ["init:terminated:0", "c:backoff:2"]);
});
