/**
 * Durations on the command line, in Go's `time.ParseDuration` syntax as upstream components'
 * flags take them: `15s`, `1m30s`, `500ms`, `1.5h`, `0`.
 */

const millisecondsPer: Readonly<Record<string, number>> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  μs: 0.001,
  ns: 0.000_001,
};

/** Milliseconds (rounded), or undefined when Go would reject the text. */
export function parseGoDuration(text: string): number | undefined {
  const negative = text.startsWith("-");
  const body = negative || text.startsWith("+") ? text.slice(1) : text;
  if (body === "0") return 0;
  if (body === "") return undefined;
  // One `<number><unit>` term at a time; `ms` is tried before `m` and `s`.
  const term = /(\d+(?:\.\d*)?|\.\d+)(ms|ns|us|µs|μs|h|m|s)/y;
  let total = 0;
  while (term.lastIndex < body.length) {
    const match = term.exec(body);
    const [, amount, unit] = match ?? [];
    if (amount === undefined || unit === undefined) return undefined;
    total += Number(amount) * (millisecondsPer[unit] ?? Number.NaN);
  }
  const ms = Math.round(total);
  return negative ? -ms : ms;
}
