import assert from "node:assert/strict";
import { test } from "node:test";
import { makeJob } from "../../testing/index.ts";
import { newJobCondition } from "./job-state.ts";
import { ttlExpiresAt } from "./ttl-after-finished.ts";

const finishedAt = new Date("2024-06-01T12:00:00Z");
const complete = newJobCondition("Complete", "True", "CompletionsReached", "m", finishedAt);
const failed = newJobCondition("Failed", "True", "BackoffLimitExceeded", "m", finishedAt);

const cases = [
  {
    name: "a Complete Job expires ttl seconds after it finished",
    job: makeJob("j").ttlSecondsAfterFinished(30).condition(complete),
    want: finishedAt.getTime() + 30_000,
  },
  {
    name: "so does a Failed one",
    job: makeJob("j").ttlSecondsAfterFinished(0).condition(failed),
    want: finishedAt.getTime(),
  },
  {
    name: "a Job without a TTL never does",
    job: makeJob("j").condition(complete),
    want: undefined,
  },
  { name: "a running Job not yet", job: makeJob("j").ttlSecondsAfterFinished(30), want: undefined },
] as const;

for (const c of cases) {
  test(`ttlExpiresAt: ${c.name}`, () => {
    assert.equal(ttlExpiresAt(c.job.obj()), c.want);
  });
}
