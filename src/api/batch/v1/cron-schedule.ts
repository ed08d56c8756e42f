/**
 * CronJob schedules as Kubernetes reads them: robfig/cron v3's `ParseStandard` (parser.go),
 * `SpecSchedule.Next` (spec.go) and `ConstantDelaySchedule.Next` (constantdelay.go); the
 * schedule and time-zone checks of `pkg/apis/batch/validation/validation.go`; and the missed
 * schedule arithmetic of `pkg/controller/cronjob/utils.go`. Pure: instants come in as arguments
 * and time zones are read through `Intl`.
 */

import { errorMessage } from "../../../util/index.ts";

/** One field of a five-field spec: the values it allows and robfig's "star bit". */
export interface CronField {
  /** The allowed values, ascending. */
  readonly values: readonly number[];
  /** Written `*` or `?` without a step above 1: decides the day-of-month/day-of-week rule. */
  readonly star: boolean;
}

interface ScheduleBase {
  /** The zone of a leading `TZ=`/`CRON_TZ=` as written (`""` is UTC); `undefined` without. */
  readonly location: string | undefined;
  /**
   * The first activation strictly after `after`, or `undefined` when there is none within five
   * years (robfig returns the zero time). Evaluated in `location` when the schedule has one
   * (upstream's `formatSchedule` keeps a schedule's own `TZ=` over `spec.timeZone`), else in
   * `timeZone`, else in UTC, gantry's "local" zone. Throws a `RangeError` for a zone `Intl` does
   * not know: validate zones first.
   */
  next(after: Date, timeZone?: string): Date | undefined;
}

/** A five-field spec or a descriptor such as `@daily`: robfig's `SpecSchedule`; second 0. */
export interface CronSpecSchedule extends ScheduleBase {
  readonly kind: "spec";
  readonly minute: CronField;
  readonly hour: CronField;
  readonly dayOfMonth: CronField;
  readonly month: CronField;
  readonly dayOfWeek: CronField;
}

/** `@every <duration>`: robfig's `ConstantDelaySchedule`. */
export interface CronEverySchedule extends ScheduleBase {
  readonly kind: "every";
  /** The delay in whole seconds, at least 1 (robfig's `Every` truncates and raises). */
  readonly delaySeconds: number;
}

export type CronSchedule = CronSpecSchedule | CronEverySchedule;

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: ReadonlyMap<string, number>;
}

const minuteBounds: Bounds = { min: 0, max: 59 };
const hourBounds: Bounds = { min: 0, max: 23 };
const dayOfMonthBounds: Bounds = { min: 1, max: 31 };
const monthBounds: Bounds = {
  min: 1,
  max: 12,
  names: new Map(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map(
      (name, i) => [name, i + 1],
    ),
  ),
};
const dayOfWeekBounds: Bounds = {
  min: 0,
  max: 6,
  names: new Map(["sun", "mon", "tue", "wed", "thu", "fri", "sat"].map((name, i) => [name, i])),
};

/** Go's `unicode.IsSpace`, which `strings.Fields` and `strings.TrimSpace` split and trim on. */
const goSpaces = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/**
 * robfig/cron v3 `ParseStandard`: five fields `minute hour day-of-month month day-of-week`, the
 * descriptors `@yearly` … `@hourly` and `@every <Go duration>`, after an optional `TZ=Zone ` or
 * `CRON_TZ=Zone `. Throws an `Error` whose message is robfig's error text, which Kubernetes puts
 * in its field error. (A `TZ=` prefix with no space after it makes robfig panic on a slice bound;
 * kube-apiserver answers 500 there. Gantry throws the Go panic text instead.)
 */
export function parseCronSchedule(text: string): CronSchedule {
  if (text.length === 0) throw new Error("empty spec string");
  let spec = text;
  let location: string | undefined;
  if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
    const space = spec.indexOf(" ");
    if (space < 0) throw new Error("runtime error: slice bounds out of range [:-1]");
    const zone = spec.slice(spec.indexOf("=") + 1, space);
    const loadError = loadLocationError(zone);
    if (loadError !== undefined) throw new Error(`provided bad location ${zone}: ${loadError}`);
    location = zone;
    spec = goTrimSpace(spec.slice(space));
  }
  if (spec.startsWith("@")) return parseDescriptor(spec, location);
  const fields = spec.split(goSpaces).filter((field) => field !== "");
  if (fields.length !== 5) {
    throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`);
  }
  return specSchedule(location, fields);
}

function goTrimSpace(text: string): string {
  return text.replace(new RegExp(`^${goSpaces.source}|${goSpaces.source}$`, "g"), "");
}

/** robfig's `getField`: a comma-separated list of ranges, empty items skipped. */
function parseField(field: string, bounds: Bounds): CronField {
  const values = new Set<number>();
  let star = false;
  for (const expr of field.split(",")) {
    if (expr === "") continue;
    const range = parseRange(expr, bounds);
    for (const value of range.values) values.add(value);
    star ||= range.star;
  }
  return { values: [...values].sort((a, b) => a - b), star };
}

/** robfig's `getRange`: `*`, `?`, `n`, `a-b`, each with an optional `/step`. */
function parseRange(expr: string, bounds: Bounds): { values: number[]; star: boolean } {
  const rangeAndStep = expr.split("/");
  const lowAndHigh = (rangeAndStep[0] ?? "").split("-");
  const low = lowAndHigh[0] ?? "";
  let start: bigint;
  let end: bigint;
  let star = false;
  if (low === "*" || low === "?") {
    start = BigInt(bounds.min);
    end = BigInt(bounds.max);
    star = true;
  } else {
    start = parseIntOrName(low, bounds.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? "", bounds.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1n;
  if (rangeAndStep.length === 2) {
    step = parseNonNegativeInt(rangeAndStep[1] ?? "");
    // "N/step" means "N-max/step".
    if (lowAndHigh.length === 1) end = BigInt(bounds.max);
    if (step > 1n) star = false;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < bounds.min) {
    throw new Error(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  }
  if (end > bounds.max) {
    throw new Error(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  }
  if (start > end) {
    throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  }
  if (step === 0n) throw new Error(`step of range should be a positive number: ${expr}`);
  const values: number[] = [];
  for (let value = start; value <= end; value += step) values.push(Number(value));
  return { values, star };
}

function parseIntOrName(expr: string, names: ReadonlyMap<string, number> | undefined): bigint {
  const named = names?.get(expr.toLowerCase());
  return named === undefined ? parseNonNegativeInt(expr) : BigInt(named);
}

/** robfig's `mustParseInt`: Go's `strconv.Atoi`, then no negatives. */
function parseNonNegativeInt(expr: string): bigint {
  const parsed = goAtoi(expr);
  if (typeof parsed === "string") throw new Error(`failed to parse int from ${expr}: ${parsed}`);
  if (parsed < 0n) throw new Error(`negative number (${parsed}) not allowed: ${expr}`);
  return parsed;
}

/** Go's `strconv.Atoi` on a 64-bit machine: the value, or its error text. */
function goAtoi(text: string): bigint | string {
  const digits = text.startsWith("+") || text.startsWith("-") ? text.slice(1) : text;
  const failure = (reason: string) => `strconv.Atoi: parsing ${strconvQuote(text)}: ${reason}`;
  if (digits === "") return failure("invalid syntax");
  let value = 0n;
  for (const char of digits) {
    if (char < "0" || char > "9") return failure("invalid syntax");
    value = value * 10n + BigInt(char);
    if (value > 0xffff_ffff_ffff_ffffn) return failure("value out of range");
  }
  const negative = text.startsWith("-");
  if (value > (negative ? 1n << 63n : (1n << 63n) - 1n)) return failure("value out of range");
  return negative ? -value : value;
}

/**
 * Go's `strconv.Quote` as `strconv.Atoi` errors print it: `"` and `\` escaped, control
 * characters escaped, other text as is (its `\u` escapes of non-printable runes are not
 * reproduced).
 */
function strconvQuote(text: string): string {
  const named: Readonly<Record<number, string>> = { 7: "\\a", 8: "\\b" };
  let quoted = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === "\\") quoted += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) quoted += named[code] ?? hexEscapes([code]);
    else quoted += char;
  }
  return `"${quoted}"`;
}

/** The time package's `quote`: like `strconv.Quote`, but every non-ASCII byte is `\xNN`. */
function timeQuote(text: string): string {
  let quoted = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === "\\") quoted += `\\${char}`;
    else if (code < 0x20 || code >= 0x80) quoted += hexEscapes(new TextEncoder().encode(char));
    else quoted += char;
  }
  return `"${quoted}"`;
}

function hexEscapes(bytes: Iterable<number>): string {
  return [...bytes].map((byte) => `\\x${byte.toString(16).padStart(2, "0")}`).join("");
}

const descriptors: Readonly<Record<string, readonly [string, string, string, string, string]>> = {
  "@yearly": ["0", "0", "1", "1", "*"],
  "@annually": ["0", "0", "1", "1", "*"],
  "@monthly": ["0", "0", "1", "*", "*"],
  "@weekly": ["0", "0", "*", "*", "0"],
  "@daily": ["0", "0", "*", "*", "*"],
  "@midnight": ["0", "0", "*", "*", "*"],
  "@hourly": ["0", "*", "*", "*", "*"],
};

/** robfig's `parseDescriptor`: exact names, then `@every ` and a Go duration. */
function parseDescriptor(spec: string, location: string | undefined): CronSchedule {
  const fields = Object.hasOwn(descriptors, spec) ? descriptors[spec] : undefined;
  if (fields !== undefined) return specSchedule(location, fields);
  const every = "@every ";
  if (!spec.startsWith(every)) throw new Error(`unrecognized descriptor: ${spec}`);
  const nanos = parseGoDuration(spec.slice(every.length));
  if (typeof nanos === "string") throw new Error(`failed to parse duration ${spec}: ${nanos}`);
  // Every: below a second is a second; sub-second parts are dropped.
  const delaySeconds = nanos < 1_000_000_000n ? 1 : Number(nanos / 1_000_000_000n);
  return Object.freeze({
    kind: "every",
    location,
    delaySeconds,
    next: (after: Date) => new Date(floorTo(after.getTime(), second) + delaySeconds * second),
  });
}

const goDurationUnits: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["\u00b5s", 1_000n],
  ["\u03bcs", 1_000n],
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);

/** Go's `time.ParseDuration`: nanoseconds, or its error text. */
function parseGoDuration(text: string): bigint | string {
  const invalid = `time: invalid duration ${timeQuote(text)}`;
  const limit = 1n << 63n;
  let rest = text;
  const negative = rest.startsWith("-");
  if (negative || rest.startsWith("+")) rest = rest.slice(1);
  if (rest === "0") return 0n;
  if (rest === "") return invalid;
  let total = 0n;
  while (rest !== "") {
    const number = /^([0-9]*)(?:\.([0-9]*))?/.exec(rest);
    const whole = number?.[1] ?? "";
    const fraction = number?.[2];
    if (number === null || (whole === "" && (fraction ?? "") === "")) return invalid;
    rest = rest.slice(number[0].length);
    let value = 0n;
    for (const digit of whole) {
      if (value > limit / 10n) return invalid;
      value = value * 10n + BigInt(digit);
      if (value > limit) return invalid;
    }
    // Go keeps the fraction's digits up to overflow and scales them in float64.
    let digits = 0n;
    let scale = 1;
    for (const digit of fraction ?? "") {
      const next = digits * 10n + BigInt(digit);
      if (digits > (limit - 1n) / 10n || next > limit) break;
      digits = next;
      scale *= 10;
    }
    const unitText = /^[^.0-9]*/.exec(rest)?.[0] ?? "";
    if (unitText === "") return `time: missing unit in duration ${timeQuote(text)}`;
    rest = rest.slice(unitText.length);
    const unit = goDurationUnits.get(unitText);
    if (unit === undefined) {
      return `time: unknown unit ${timeQuote(unitText)} in duration ${timeQuote(text)}`;
    }
    if (value > limit / unit) return invalid;
    value *= unit;
    if (digits > 0n) {
      value += BigInt(Math.trunc(Number(digits) * (Number(unit) / scale)));
      if (value > limit) return invalid;
    }
    total += value;
    if (total > limit) return invalid;
  }
  if (!negative && total > limit - 1n) return invalid;
  return negative ? -total : total;
}

/** Parses five field texts, in order, into a `SpecSchedule`. */
function specSchedule(location: string | undefined, fields: readonly string[]): CronSpecSchedule {
  const [minute = "", hour = "", dayOfMonth = "", month = "", dayOfWeek = ""] = fields;
  const schedule: CronSpecSchedule = {
    kind: "spec",
    location,
    minute: parseField(minute, minuteBounds),
    hour: parseField(hour, hourBounds),
    dayOfMonth: parseField(dayOfMonth, dayOfMonthBounds),
    month: parseField(month, monthBounds),
    dayOfWeek: parseField(dayOfWeek, dayOfWeekBounds),
    next(after: Date, timeZone?: string): Date | undefined {
      const zone = location ?? timeZone ?? "UTC";
      const found = nextActivation(schedule, after.getTime(), zoneClock(zone));
      return found === undefined ? undefined : new Date(found);
    },
  };
  return Object.freeze(schedule);
}

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

function floorTo(ms: number, unit: number): number {
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

function zoneClock(zone: string): ZoneClock {
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
function nextActivation(
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
