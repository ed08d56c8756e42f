import assert from "node:assert/strict";
import { test } from "node:test";
import type { Job } from "../../api/index.ts";
import { jobNameFor, orderByStartTime, rfc1123z, rfc3339In } from "./index.ts";

test("jobNameFor: upstream's getJobName, the scheduled time in minutes since the epoch", () => {
  assert.equal(jobNameFor("hello", new Date("2026-11-29T12:00:00Z")), "hello-29932560");
  assert.equal(jobNameFor("hello", new Date("2026-11-29T12:00:59Z")), "hello-29932560");
});

test("rfc3339In: Go's RFC3339 of the scheduled time in the CronJob's zone", () => {
  const t = new Date("2026-01-15T14:00:00Z");
  assert.equal(rfc3339In(t, undefined), "2026-01-15T14:00:00Z");
  assert.equal(rfc3339In(t, "America/New_York"), "2026-01-15T09:00:00-05:00");
  assert.equal(
    rfc3339In(new Date("2026-07-15T14:00:00Z"), "America/New_York"),
    "2026-07-15T10:00:00-04:00",
  );
  assert.equal(rfc3339In(t, "Asia/Kolkata"), "2026-01-15T19:30:00+05:30");
  assert.equal(
    rfc3339In(t, "Europe/London"),
    "2026-01-15T14:00:00Z",
    "a zero offset prints Z, as Go's Z07:00 does",
  );
});

test("rfc1123z: Go's time.RFC1123Z in UTC, as the MissSchedule event prints it", () => {
  assert.equal(rfc1123z(new Date("2026-03-08T07:05:09Z")), "Sun, 08 Mar 2026 07:05:09 +0000");
});

const job = (name: string, startTime?: string): Job => ({
  metadata: { name },
  spec: { template: {} },
  ...(startTime === undefined ? {} : { status: { startTime } }),
});

test("orderByStartTime: upstream's byJobStartTime, oldest first, never-started last, then by name", () => {
  const ordered = orderByStartTime([
    job("c", "2026-01-01T00:02:00Z"),
    job("z"),
    job("b", "2026-01-01T00:01:00Z"),
    job("a", "2026-01-01T00:01:00Z"),
    job("y"),
  ]);
  assert.deepEqual(
    ordered.map((j) => j.metadata.name),
    ["a", "b", "c", "y", "z"],
  );
});
