/**
 * Go `time.Duration` text, as kubelet configuration and messages use it: `parseDuration("1m30s")`
 * is 90,000 ms and `formatDuration(90_000)` is `"1m30s"`.
 */

const unitMs: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses Go's duration syntax (`300ms`, `1.5h`, `2h45m`, `0`) into milliseconds, rounded to a
 * whole millisecond. Returns `undefined` for anything Go's `time.ParseDuration` rejects.
 */
export function parseDuration(text: string): number | undefined {
  let rest = text.trim();
  let sign = 1;
  if (rest.startsWith("-") || rest.startsWith("+")) {
    if (rest.startsWith("-")) sign = -1;
    rest = rest.slice(1);
  }
  if (rest === "0") return 0;
  if (rest === "") return undefined;
  let total = 0;
  while (rest !== "") {
    const match = /^([0-9]*(?:\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    const number = match?.[1];
    const unit = match?.[2];
    if (match === null || number === undefined || unit === undefined) return undefined;
    if (number === "" || number === ".") return undefined;
    total += Number(number) * (unitMs[unit] ?? 0);
    rest = rest.slice(match[0].length);
  }
  return sign * Math.round(total);
}

/**
 * Prints milliseconds as Go's `Duration.String()`: `"10s"`, `"1m20s"`, `"5m0s"`, `"1h0m0s"`,
 * `"500ms"`, `"0s"`.
 */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const negative = ms < 0;
  const abs = Math.abs(ms);
  let text: string;
  if (abs < 1000) {
    text = `${abs}ms`;
  } else {
    const hours = Math.floor(abs / 3_600_000);
    const minutes = Math.floor((abs % 3_600_000) / 60_000);
    const secondsMs = abs % 60_000;
    const seconds = Number.isInteger(secondsMs / 1000)
      ? String(secondsMs / 1000)
      : (secondsMs / 1000).toFixed(3).replace(/0+$/, "");
    if (hours > 0) text = `${hours}h${minutes}m${seconds}s`;
    else if (minutes > 0) text = `${minutes}m${seconds}s`;
    else text = `${seconds}s`;
  }
  return negative ? `-${text}` : text;
}
