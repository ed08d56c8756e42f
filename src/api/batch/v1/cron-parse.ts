/**
 * CronJob schedules as Kubernetes reads them: robfig/cron v3's `ParseStandard` (parser.go) and
 * `ConstantDelaySchedule` (constantdelay.go). Each parsed schedule knows its next activation
 * (`cron-time.ts`). Pure.
 */

import { floorTo, loadLocationError, nextActivation, second, zoneClock } from "./cron-time.ts";

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
