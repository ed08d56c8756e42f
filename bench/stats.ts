/** Latency samples (milliseconds) and the figures the benchmark prints from them. */

/** The `p`-th percentile (0–100) of `samples`, by nearest rank; NaN when there are none. */
export function percentile(samples: ArrayLike<number>, p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? Number.NaN;
}

/** What one measured phase reports. */
export interface PhaseResult {
  /** Operations (or events) per second over the phase's wall time; NaN when not meaningful. */
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly count: number;
  /** Anything worth printing beside the figures (errors, sizes). */
  readonly note: string;
}

export function summarize(
  latenciesMs: ArrayLike<number>,
  elapsedMs: number,
  note = "",
): PhaseResult {
  return {
    perSecond: elapsedMs > 0 ? (latenciesMs.length / elapsedMs) * 1000 : Number.NaN,
    p50Ms: percentile(latenciesMs, 50),
    p99Ms: percentile(latenciesMs, 99),
    count: latenciesMs.length,
    note,
  };
}

/** A number for the table: thousands separators, fixed decimals, or "–". */
export function fmt(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return "–";
  return value.toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

/** Renders rows as a Markdown table with right-aligned numeric columns. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `-${"-".repeat(w)}-` : `-${"-".repeat(w)}:`)).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}
