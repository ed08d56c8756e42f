import assert from "node:assert/strict";
import { test } from "node:test";
import type { JobCondition } from "../../api/index.ts";
import { makeJob, makePod } from "../../testing/index.ts";
import {
  activeDeadlineRemainingMs,
  ensureJobCondition,
  isJobFinished,
  isPodFailed,
  newJobCondition,
  pastBackoffLimitOnFailure,
} from "./job-state.ts";

const now = new Date("2024-06-01T12:00:00Z");
const later = new Date("2024-06-01T12:05:00Z");
const suspended = newJobCondition("Suspended", "True", "JobSuspended", "Job suspended", now);

const conditionCases: readonly {
  name: string;
  list: JobCondition[];
  status: "True" | "False";
  reason: string;
  want: { types: string[]; changed: boolean; time: string | undefined };
}[] = [
  {
    name: "adds a missing True condition",
    list: [],
    status: "True",
    reason: "JobSuspended",
    want: { types: ["Suspended=True"], changed: true, time: "2024-06-01T12:05:00Z" },
  },
  {
    name: "never adds a missing False condition",
    list: [],
    status: "False",
    reason: "JobResumed",
    want: { types: [], changed: false, time: undefined },
  },
  {
    name: "leaves an identical condition and its time alone",
    list: [suspended],
    status: "True",
    reason: "JobSuspended",
    want: { types: ["Suspended=True"], changed: false, time: "2024-06-01T12:00:00Z" },
  },
  {
    name: "replaces a condition whose status changed",
    list: [suspended],
    status: "False",
    reason: "JobResumed",
    want: { types: ["Suspended=False"], changed: true, time: "2024-06-01T12:05:00Z" },
  },
];

for (const c of conditionCases) {
  test(`ensureJobCondition: ${c.name}`, () => {
    const got = ensureJobCondition(c.list, "Suspended", c.status, c.reason, "Job suspended", later);
    assert.deepEqual(
      {
        types: got.conditions.map((x) => `${x.type}=${x.status}`),
        changed: got.changed,
        time: got.conditions[0]?.lastTransitionTime,
      },
      c.want,
    );
  });
}

test("isJobFinished: Complete or Failed True, not FailureTarget or SuccessCriteriaMet", () => {
  const job = makeJob("j");
  assert.deepEqual(
    [
      isJobFinished(
        job
          .clone()
          .condition(newJobCondition("Complete", "True", "", "", now))
          .obj(),
      ),
      isJobFinished(
        job
          .clone()
          .condition(newJobCondition("Failed", "True", "", "", now))
          .obj(),
      ),
      isJobFinished(
        job
          .clone()
          .condition(newJobCondition("FailureTarget", "True", "", "", now))
          .obj(),
      ),
      isJobFinished(
        job
          .clone()
          .condition(newJobCondition("SuccessCriteriaMet", "True", "", "", now))
          .obj(),
      ),
    ],
    [true, true, false, false],
  );
});

const failedCases = [
  {
    name: "phase Failed",
    pod: makePod("p").phase("Failed"),
    policy: "TerminatingOrFailed",
    want: true,
  },
  {
    name: "a deleted running pod",
    pod: makePod("p").phase("Running").terminating(),
    policy: "TerminatingOrFailed",
    want: true,
  },
  {
    name: "a deleted succeeded pod",
    pod: makePod("p").phase("Succeeded").terminating(),
    policy: "TerminatingOrFailed",
    want: false,
  },
  {
    name: "a deleted running pod when only Failed pods are replaced",
    pod: makePod("p").phase("Running").terminating(),
    policy: "Failed",
    want: false,
  },
] as const;

for (const c of failedCases) {
  test(`isPodFailed: ${c.name}`, () => {
    const job = makeJob("j").podReplacementPolicy(c.policy).obj();
    assert.equal(isPodFailed(c.pod.obj(), job), c.want);
  });
}

test("pastBackoffLimitOnFailure: container restarts of live pods count with restartPolicy OnFailure", () => {
  const restarting = makePod("p").phase("Running").obj();
  restarting.status = {
    ...restarting.status,
    containerStatuses: [{ name: "c", ready: false, restartCount: 2, image: "x", imageID: "" }],
  };
  const onFailure = makeJob("j").restartPolicy("OnFailure").backoffLimit(2).obj();
  assert.deepEqual(
    [
      pastBackoffLimitOnFailure(onFailure, [restarting]),
      pastBackoffLimitOnFailure(makeJob("j").restartPolicy("OnFailure").backoffLimit(3).obj(), [
        restarting,
      ]),
      pastBackoffLimitOnFailure(makeJob("j").backoffLimit(2).obj(), [restarting]),
    ],
    [true, false, false],
  );
});

test("activeDeadlineRemainingMs: from startTime; none without a deadline or while suspended", () => {
  const started = makeJob("j")
    .activeDeadlineSeconds(60)
    .status({ startTime: "2024-06-01T11:59:30Z" });
  assert.deepEqual(
    [
      activeDeadlineRemainingMs(started.obj(), now),
      activeDeadlineRemainingMs(started.obj(), later),
      activeDeadlineRemainingMs(started.clone().suspend().obj(), now),
      activeDeadlineRemainingMs(makeJob("j").obj(), now),
    ],
    [30_000, -270_000, undefined, undefined],
  );
});
