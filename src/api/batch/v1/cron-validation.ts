/**
 * The schedule and time-zone checks of upstream's `pkg/apis/batch/validation/validation.go`.
 * Pure.
 */

import { errorMessage } from "../../../util/index.ts";
import { parseCronSchedule } from "./cron-parse.ts";
import { loadLocationError } from "./cron-time.ts";

/** Upstream's `validTimeZoneCharacters`: IANA name parts, with digits and `+` tolerated. */
const validTimeZoneCharacters = /^[A-Za-z.\-_0-9+]{1,14}$/;

function timeZoneDetails(zone: string): string[] {
  if (zone.length === 0) return ["timeZone must be nil or non-empty string"];
  for (const part of zone.split("/")) {
    if (part === "." || part === ".." || part.startsWith("-")) return [`unknown time zone ${zone}`];
    if (!validTimeZoneCharacters.test(part)) return [`unknown time zone ${zone}`];
  }
  const details: string[] = [];
  if (zone.toLowerCase() === "local") {
    details.push(
      "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
    );
  }
  const loadError = loadLocationError(zone);
  if (loadError !== undefined) details.push(loadError);
  return details;
}

/**
 * Upstream's `validateTimeZone` for a set `spec.timeZone`: the first `Invalid` detail, or
 * `undefined` when valid. (`"local"` gets two details upstream; `validateCronSchedule` returns
 * both.)
 */
export function validateTimeZone(zone: string): string | undefined {
  return timeZoneDetails(zone)[0];
}

/** One problem found by `validateCronSchedule`; the caller makes it a field error. */
export interface CronScheduleProblem {
  readonly field: "schedule" | "timeZone";
  /** Upstream reports these as `Required` (empty schedule) or `Invalid`; never `Forbidden`. */
  readonly kind: "Invalid" | "Forbidden" | "Required";
  readonly detail: string;
}

/**
 * The schedule and time-zone part of upstream's `validateCronJobSpec`: `Required` for an empty
 * schedule; otherwise robfig's parse error, then `cannot use TZ or CRON_TZ in schedule, use
 * timeZone field instead` whenever the schedule contains "TZ" (both may be reported). On an
 * update pass `oldSchedule`: a schedule that already contained "TZ" may keep it, unless
 * `timeZone` is set too. Then upstream's `validateTimeZone` when `timeZone` is set (upstream
 * checks it on create and when it changes; that choice is the caller's).
 */
export function validateCronSchedule(
  schedule: string,
  timeZone: string | undefined,
  oldSchedule?: string,
): CronScheduleProblem[] {
  const problems: CronScheduleProblem[] = [];
  if (schedule.length === 0) {
    problems.push({ field: "schedule", kind: "Required", detail: "" });
  } else {
    try {
      parseCronSchedule(schedule);
    } catch (error: unknown) {
      problems.push({ field: "schedule", kind: "Invalid", detail: errorMessage(error) });
    }
    const allowTZInSchedule = oldSchedule?.includes("TZ") ?? false;
    if (schedule.includes("TZ") && !allowTZInSchedule) {
      const detail = "cannot use TZ or CRON_TZ in schedule, use timeZone field instead";
      problems.push({ field: "schedule", kind: "Invalid", detail });
    } else if (schedule.includes("TZ") && timeZone !== undefined) {
      const detail = "cannot use both timeZone field and TZ or CRON_TZ in schedule";
      problems.push({ field: "schedule", kind: "Invalid", detail });
    }
  }
  if (timeZone !== undefined) {
    for (const detail of timeZoneDetails(timeZone)) {
      problems.push({ field: "timeZone", kind: "Invalid", detail });
    }
  }
  return problems;
}
