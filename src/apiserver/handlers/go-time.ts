/**
 * `metav1.Time` and `metav1.MicroTime` decoding: Go's `time.Parse(time.RFC3339, s)` with its
 * error text, and the canonical form the API server writes back (UTC, whole seconds for Time,
 * microseconds for MicroTime).
 */

const layout = "2006-01-02T15:04:05Z07:00";

/** The layout elements `time.Parse` walks through, with how each consumes the value. */
const elements: readonly { readonly text: string; readonly digits?: number }[] = [
  { text: "2006", digits: 4 },
  { text: "-" },
  { text: "01", digits: 2 },
  { text: "-" },
  { text: "02", digits: 2 },
  { text: "T" },
  { text: "15", digits: 2 },
  { text: ":" },
  { text: "04", digits: 2 },
  { text: ":" },
  { text: "05", digits: 2 },
];

const quote = (s: string): string => JSON.stringify(s);

function parseError(value: string, rest: string, element: string): string {
  return `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(element)}`;
}

/**
 * Parses an RFC 3339 timestamp as Go does. Returns the canonical text (`precision` 0 for Time,
 * 6 for MicroTime), or `{ error }` with Go's message.
 */
export function parseGoTime(value: string, precision: 0 | 6): GoTimeResult {
  // Objects carry the same few timestamps over and over (a second's creations, managedFields
  // times, conditions), so recent answers are kept.
  const memo = precision === 0 ? recentTimes : recentMicroTimes;
  let result = memo.get(value);
  if (result === undefined) {
    result = Object.freeze(parse(value, precision));
    if (memo.size >= memoSize) memo.clear();
    memo.set(value, result);
  }
  return result;
}

type GoTimeResult = Readonly<{ text: string } | { error: string }>;

const memoSize = 4096;
const recentTimes = new Map<string, GoTimeResult>();
const recentMicroTimes = new Map<string, GoTimeResult>();

function parse(value: string, precision: 0 | 6): { text: string } | { error: string } {
  let rest = value;
  const numbers: number[] = [];
  for (const element of elements) {
    if (element.digits === undefined) {
      if (!rest.startsWith(element.text)) return { error: parseError(value, rest, element.text) };
      rest = rest.slice(element.text.length);
      continue;
    }
    const digits = rest.slice(0, element.digits);
    if (!new RegExp(`^\\d{${element.digits}}$`).test(digits)) {
      return { error: parseError(value, rest, element.text) };
    }
    numbers.push(Number(digits));
    rest = rest.slice(element.digits);
  }
  let fraction = "";
  const frac = /^[.,](\d+)/.exec(rest);
  if (frac?.[1] !== undefined) {
    fraction = frac[1];
    rest = rest.slice(frac[0].length);
  }
  let offsetMinutes = 0;
  if (rest.startsWith("Z")) {
    rest = rest.slice(1);
  } else {
    const zone = /^([+-])(\d{2}):(\d{2})/.exec(rest);
    if (zone === null) return { error: parseError(value, rest, "Z07:00") };
    offsetMinutes = (zone[1] === "-" ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3]));
    rest = rest.slice(zone[0].length);
  }
  if (rest !== "") return { error: `parsing time ${quote(value)}: extra text: ${quote(rest)}` };
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = numbers;
  const range = (what: string) => ({ error: `parsing time ${quote(value)}: ${what} out of range` });
  if (month < 1 || month > 12) return range("month");
  const at = (y: number, mo: number, d: number): Date => {
    // Date.UTC maps years below 100 to the 1900s: set the full year explicitly.
    const date = new Date(0);
    date.setUTCFullYear(y, mo, d);
    return date;
  };
  const daysIn = at(year, month, 0).getUTCDate();
  if (day < 1 || day > daysIn) return range("day");
  if (hour > 23) return range("hour");
  if (minute > 59) return range("minute");
  if (second > 59) return range("second");
  const local = at(year, month - 1, day);
  local.setUTCHours(hour, minute, second, 0);
  const utc = new Date(local.getTime() - offsetMinutes * 60_000);
  const whole = utc.toISOString().slice(0, 19);
  if (precision === 0) return { text: `${whole}Z` };
  return { text: `${whole}.${fraction.slice(0, 6).padEnd(6, "0")}Z` };
}
