import assert from "node:assert/strict";
import { test } from "node:test";
import type { Job, JobCondition, JobStatus, Pod } from "../../api/index.ts";
import { makeJob, makePod } from "../../testing/index.ts";
import { parseIndexes } from "./indexes.ts";
import { newJobCondition } from "./job-state.ts";
import { planTracking } from "./tracking.ts";

const now = new Date("2024-06-01T12:00:00Z");
const finalizer = "batch.kubernetes.io/job-tracking";

function pod(
  uid: string,
  phase: "Running" | "Succeeded" | "Failed",
  options: { finalizer?: boolean; index?: string } = {},
): Pod {
  let b = makePod(uid).uid(uid).phase(phase);
  if (options.index !== undefined)
    b = b.annotation("batch.kubernetes.io/job-completion-index", options.index);
  const p = b.obj();
  if (options.finalizer ?? true) p.metadata.finalizers = [finalizer];
  return p;
}

interface Case {
  name: string;
  job: Job;
  status: JobStatus;
  pods: Pod[];
  expected?: string[];
  finished?: JobCondition;
  want: {
    status: JobStatus;
    remove: string[];
    finished?: string;
    needsFlush: boolean;
  };
}

const failureTarget = newJobCondition("FailureTarget", "True", "BackoffLimitExceeded", "m", now);
const criteriaMet = newJobCondition("SuccessCriteriaMet", "True", "CompletionsReached", "m", now);

const cases: readonly Case[] = [
  {
    name: "a succeeded pod becomes uncounted and loses its finalizer",
    job: makeJob("j").obj(),
    status: { uncountedTerminatedPods: {} },
    pods: [pod("a", "Succeeded"), pod("b", "Running")],
    want: {
      status: { uncountedTerminatedPods: { succeeded: ["a"] } },
      remove: ["a"],
      needsFlush: true,
    },
  },
  {
    name: "a failed pod becomes uncounted as failed",
    job: makeJob("j").obj(),
    status: { uncountedTerminatedPods: {} },
    pods: [pod("a", "Failed")],
    want: {
      status: { uncountedTerminatedPods: { failed: ["a"] } },
      remove: ["a"],
      needsFlush: true,
    },
  },
  {
    name: "an uncounted pod without its finalizer moves to the counters",
    job: makeJob("j").obj(),
    status: { succeeded: 1, uncountedTerminatedPods: { succeeded: ["a"], failed: ["b"] } },
    pods: [pod("a", "Succeeded", { finalizer: false }), pod("b", "Failed")],
    want: {
      status: { succeeded: 2, uncountedTerminatedPods: { failed: ["b"] } },
      remove: ["b"],
      needsFlush: true,
    },
  },
  {
    name: "a pod whose removal is awaited is left alone",
    job: makeJob("j").obj(),
    status: { uncountedTerminatedPods: {} },
    pods: [pod("a", "Succeeded")],
    expected: ["a"],
    want: { status: { uncountedTerminatedPods: {} }, remove: [], needsFlush: false },
  },
  {
    name: "a failing Job counts its running pods as failed and records FailureTarget",
    job: makeJob("j").obj(),
    status: { uncountedTerminatedPods: {} },
    pods: [pod("a", "Running")],
    finished: failureTarget,
    want: {
      status: { uncountedTerminatedPods: { failed: ["a"] }, conditions: [failureTarget] },
      remove: ["a"],
      finished: "Failed BackoffLimitExceeded",
      needsFlush: true,
    },
  },
  {
    name: "a succeeding Job removes finalizers of running pods without counting them",
    job: makeJob("j").obj(),
    status: { uncountedTerminatedPods: {} },
    pods: [pod("a", "Running")],
    finished: criteriaMet,
    want: {
      status: { uncountedTerminatedPods: {}, conditions: [criteriaMet] },
      remove: ["a"],
      finished: "Complete CompletionsReached",
      needsFlush: true,
    },
  },
  {
    name: "an Indexed Job records the index of a succeeded pod",
    job: makeJob("j").indexed().completions(3).obj(),
    status: { completedIndexes: "0", succeeded: 1, uncountedTerminatedPods: {} },
    pods: [pod("a", "Succeeded", { index: "2" }), pod("b", "Succeeded", { index: "0" })],
    want: {
      status: { completedIndexes: "0,2", succeeded: 2, uncountedTerminatedPods: {} },
      remove: ["a", "b"],
      needsFlush: true,
    },
  },
];

for (const c of cases) {
  test(`planTracking: ${c.name}`, () => {
    const status = structuredClone(c.status);
    const prev = parseIndexes(c.status.completedIndexes, c.job.spec.completions ?? 0);
    const plan = planTracking({
      job: c.job,
      status,
      pods: c.pods,
      expectedRemovals: new Set(c.expected ?? []),
      finished: c.finished,
      prevSucceeded: prev,
      succeeded: prev,
      needsFlush: false,
      now,
    });
    const got = {
      status,
      remove: plan.removeFinalizerFrom.map((p) => p.metadata.uid ?? "").sort(),
      ...(plan.finished === undefined
        ? {}
        : { finished: `${plan.finished.type} ${plan.finished.reason}` }),
      needsFlush: plan.needsFlush,
    };
    assert.deepEqual(got, c.want);
  });
}
