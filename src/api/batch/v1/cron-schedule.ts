/**
 * The missed-schedule arithmetic of upstream's `pkg/controller/cronjob/utils.go`: which
 * activation is due now, and when to look again. Pure: instants come in as arguments.
 */

import type { CronSchedule } from "./cron-parse.ts";
import { second } from "./cron-time.ts";

/** What the controller knows of a CronJob when it decides whether a run is due. */
export interface ScheduleTimeInput {
  readonly creationTimestamp: Date;
  readonly lastScheduleTime?: Date | undefined;
  readonly startingDeadlineSeconds?: number | undefined;
  readonly now: Date;
  readonly schedule: CronSchedule;
  /** `spec.timeZone`; unset means UTC, gantry's "local" zone. */
  readonly timeZone?: string | undefined;
}

export interface MostRecentScheduleTime {
  /** `lastScheduleTime` or `creationTimestamp`, moved up to `now - startingDeadlineSeconds`. */
  readonly earliest: Date;
  /** The latest activation in (earliest, now], or `undefined`. */
  readonly mostRecent: Date | undefined;
  /**
   * Upstream's estimate: `"none"` also when exactly one activation is due (now before the second
   * one); `"many"` past 100, when the controller emits `TooManyMissedTimes`.
   */
  readonly missed: "none" | "few" | "many";
  /**
   * Set where upstream returns an error: two activations less than a second apart, or none
   * within five years. The controller emits `InvalidSchedule` (`invalid schedule: <schedule> :
   * <error>`) and does not requeue.
   */
  readonly error?: string;
}

/**
 * Upstream's `mostRecentScheduleTime` (pkg/controller/cronjob/utils.go). Missed activations are
 * estimated from the interval between the first two after `earliest`, so a long gap costs no
 * walk: only the last one or two activations before `now` are computed. Pass
 * `startingDeadlineSeconds` as upstream's `nextScheduleTime` does (`includeStartingDeadline`).
 */
export function mostRecentScheduleTime(input: ScheduleTimeInput): MostRecentScheduleTime {
  const { now, schedule, timeZone } = input;
  let earliest = input.lastScheduleTime ?? input.creationTimestamp;
  if (input.startingDeadlineSeconds !== undefined) {
    const deadline = new Date(now.getTime() - input.startingDeadlineSeconds * second);
    if (deadline > earliest) earliest = deadline;
  }
  const t1 = schedule.next(earliest, timeZone);
  const t2 = t1 === undefined ? undefined : schedule.next(t1, timeZone);
  if (t1 !== undefined && now < t1) return { earliest, mostRecent: undefined, missed: "none" };
  if (t1 !== undefined && t2 !== undefined && now < t2) {
    return { earliest, mostRecent: t1, missed: "none" };
  }
  // Go: int64(t2.Sub(t1).Round(time.Second).Seconds()); a zero time makes it 0 or negative.
  const interval =
    t1 === undefined || t2 === undefined ? 0 : Math.round((t2.getTime() - t1.getTime()) / second);
  if (t1 === undefined || interval < 1) {
    const error = "time difference between two schedules is less than 1 second";
    return { earliest, mostRecent: undefined, missed: "none", error };
  }
  const elapsed = Math.trunc((now.getTime() - t1.getTime()) / second);
  const missedCount = Math.trunc(elapsed / interval) + 1;
  // Start two intervals before the estimate and let the schedule find the exact last one.
  let t = schedule.next(new Date(t1.getTime() + (missedCount - 2) * interval * second), timeZone);
  let mostRecent: Date | undefined;
  while (t !== undefined && t <= now) {
    mostRecent = t;
    t = schedule.next(t, timeZone);
  }
  const missed = missedCount > 100 ? "many" : missedCount > 0 ? "few" : "none";
  return { earliest, mostRecent, missed };
}

/**
 * When the controller should look at the CronJob again: the activation upstream's
 * `nextScheduleTimeDuration` aims at (the next one after the most recent due one, or after
 * `earliest`, or after `now` when the schedule is in error or runs were missed). Upstream ignores
 * `startingDeadlineSeconds` here, and so does this. The caller adds upstream's 100 ms
 * `nextScheduleDelta` (NTP skew padding) and subtracts `now` to get the requeue delay.
 * `undefined` when no activation comes within five years.
 */
export function nextScheduleTime(input: ScheduleTimeInput): Date | undefined {
  const recent = mostRecentScheduleTime({ ...input, startingDeadlineSeconds: undefined });
  let from: Date;
  if (recent.error !== undefined) from = input.now;
  else if (recent.mostRecent !== undefined) from = recent.mostRecent;
  else from = recent.missed === "none" ? recent.earliest : input.now;
  return input.schedule.next(from, input.timeZone);
}
