/**
 * robfig/cron v3's `SpecSchedule.Next` (spec.go) over Go's `time` arithmetic, wall-clock time
 * in a zone read through `Intl`, and Go's `time.LoadLocation` answer for a zone name. Pure.
 */

import type { CronSpecSchedule } from "./cron-parse.ts";

export const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

export function floorTo(ms: number, unit: number): number {
  return ms - (((ms % unit) + unit) % unit);
}

/** Wall-clock fields of an instant in a zone; `weekday` 0 is Sunday. */
interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly weekday: number;
}

/** The two conversions Go's `time` package makes for robfig: `t.In(loc)` fields and `Date`. */
interface ZoneClock {
  wall(ms: number): WallTime;
  /** Go's `time.Date(…, loc)`: fields normalized, a gap or overlap resolved as Go does. */
  date(year: number, month: number, day: number, hour: number, min: number, sec: number): number;
}

function utcMs(year: number, month: number, day: number, h: number, m: number, s: number) {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(h, m, s, 0);
  return date.getTime();
}

function utcWall(ms: number): WallTime {
  const date = new Date(ms);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    weekday: date.getUTCDay(),
  };
}

const utcClock: ZoneClock = { wall: utcWall, date: utcMs };

export function zoneClock(zone: string): ZoneClock {
  // "Local" is the controller's own zone, which is UTC in gantry; Go's "Factory" is UTC+0.
  if (zone === "" || zone === "UTC" || zone === "Local" || zone === "Factory") return utcClock;
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  const wall = (ms: number): WallTime => {
    const part: Record<string, number> = {};
    for (const { type, value } of format.formatToParts(ms)) part[type] = Number(value);
    const fields = {
      year: part["year"] ?? 0,
      month: part["month"] ?? 1,
      day: part["day"] ?? 1,
      hour: part["hour"] ?? 0,
      minute: part["minute"] ?? 0,
      second: part["second"] ?? 0,
    };
    const weekday = new Date(utcMs(fields.year, fields.month, fields.day, 0, 0, 0)).getUTCDay();
    return { ...fields, weekday };
  };
  const offset = (ms: number): number => {
    const w = wall(ms);
    return utcMs(w.year, w.month, w.day, w.hour, w.minute, w.second) - floorTo(ms, second);
  };
  return {
    wall,
    date(year, month, day, h, m, s) {
      // Go: take the offset at the wall time read as UTC; if the instant it gives lies outside
      // that offset's span, use the offset at that instant instead.
      const unix = utcMs(year, month, day, h, m, s);
      const first = offset(unix);
      return first === 0 ? unix : unix - offset(unix - first);
    },
  };
}

/** robfig's `dayMatches`: with a star on either day field both must match, else either. */
function dayMatches(schedule: CronSpecSchedule, wall: WallTime): boolean {
  const dom = schedule.dayOfMonth.values.includes(wall.day);
  const dow = schedule.dayOfWeek.values.includes(wall.weekday);
  return schedule.dayOfMonth.star || schedule.dayOfWeek.star ? dom && dow : dom || dow;
}

/** A field that matches nothing makes robfig walk five years for nothing: answer at once. */
function neverMatches(s: CronSpecSchedule): boolean {
  const noDom = s.dayOfMonth.values.length === 0;
  const noDow = s.dayOfWeek.values.length === 0;
  const noDay = s.dayOfMonth.star || s.dayOfWeek.star ? noDom || noDow : noDom && noDow;
  return noDay || [s.minute, s.hour, s.month].some((field) => field.values.length === 0);
}

/**
 * robfig's `SpecSchedule.Next`, step for step: it walks wall-clock fields month, day, hour,
 * minute, second, restarting from the month whenever a field wraps. Hours and minutes advance
 * by absolute time, so an hour skipped at spring-forward is never matched (that day's run is
 * lost) and an hour repeated at fall-back matches twice.
 */
export function nextActivation(
  s: CronSpecSchedule,
  afterMs: number,
  clock: ZoneClock,
): number | undefined {
  if (neverMatches(s)) return undefined;
  const addDate = (ms: number, months: number, days: number): number => {
    const w = clock.wall(ms);
    const date = clock.date(w.year, w.month + months, w.day + days, w.hour, w.minute, w.second);
    return date + (ms - floorTo(ms, second));
  };
  let t = floorTo(afterMs, second) + second;
  let added = false;
  const yearLimit = clock.wall(t).year + 5;
  wrap: for (;;) {
    let w = clock.wall(t);
    if (w.year > yearLimit) return undefined;
    while (!s.month.values.includes(w.month)) {
      if (!added) {
        added = true;
        t = clock.date(w.year, w.month, 1, 0, 0, 0);
      }
      t = addDate(t, 1, 0);
      w = clock.wall(t);
      if (w.month === 1) continue wrap;
    }
    while (!dayMatches(s, w)) {
      if (!added) {
        added = true;
        t = clock.date(w.year, w.month, w.day, 0, 0, 0);
      }
      t = addDate(t, 0, 1);
      w = clock.wall(t);
      // Midnight may not exist (DST at midnight): move back to the day's start.
      if (w.hour !== 0) {
        t += (w.hour > 12 ? 24 - w.hour : -w.hour) * hour;
        w = clock.wall(t);
      }
      if (w.day === 1) continue wrap;
    }
    while (!s.hour.values.includes(w.hour)) {
      if (!added) {
        added = true;
        t = clock.date(w.year, w.month, w.day, w.hour, 0, 0);
      }
      t += hour;
      w = clock.wall(t);
      if (w.hour === 0) continue wrap;
    }
    while (!s.minute.values.includes(w.minute)) {
      if (!added) {
        added = true;
        t = floorTo(t, minute);
      }
      t += minute;
      w = clock.wall(t);
      if (w.minute === 0) continue wrap;
    }
    while (w.second !== 0) {
      if (!added) {
        added = true;
        t = floorTo(t, second);
      }
      t += second;
      w = clock.wall(t);
      if (w.second === 0) continue wrap;
    }
    return t;
  }
}

/** Names `Intl` knows that Go's time zone database does not (ICU's legacy IDs). */
const icuOnlyZones = new Set(
  [
    "ACT AET AGT ART AST BET BST CAT CNT CST CTT EAT ECT IET IST JST MIT NET NST PLT PNT PRT PST",
    "SST VST US/Pacific-New Canada/East-Saskatchewan",
  ]
    .join(" ")
    .split(" "),
);

function isKnownZone(zone: string): boolean {
  if (zone === "Factory") return true;
  if (icuOnlyZones.has(zone) || zone.startsWith("SystemV/")) return false;
  // Go looks names up case-sensitively; IANA names start each part with a capital letter.
  if (zone.split("/").some((part) => !/^[A-Z]/.test(part))) return false;
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions();
    return resolved.timeZone === zone || resolved.timeZone.toLowerCase() !== zone.toLowerCase();
  } catch (error: unknown) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/**
 * Go's `time.LoadLocation`: its error text for `zone`, or `undefined` when Go would load it
 * (`""` and `"UTC"` are UTC, `"Local"` the machine's zone). Zones are looked up in `Intl`'s
 * database, minus ICU-only names and wrongly cased ones. The controller checks this before
 * scheduling (event `UnknownTimeZone`, `invalid timeZone: "<zone>": <error>`).
 */
export function loadLocationError(zone: string): string | undefined {
  if (zone === "" || zone === "UTC" || zone === "Local") return undefined;
  if (zone.includes("..") || zone.startsWith("/") || zone.startsWith("\\")) {
    return "time: invalid location name";
  }
  return isKnownZone(zone) ? undefined : `unknown time zone ${zone}`;
}
