const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/**
 * A short, human-readable duration with 2–3 significant figures, exactly as apimachinery's
 * `duration.HumanDuration`: `<invalid>` below -1s, `0s` just below zero (clock skew), then `Ns`
 * (< 2m), `MmSs`/`Mm` (< 10m), `Mm` (< 3h), `HhMm`/`Hh` (< 8h), `Hh` (< 48h), `DdHh`/`Dd`
 * (< 8d), `Dd` (< 2y), `YyDd`/`Yy` (< 8y), `Yy`. Units truncate toward zero; a year is 365 days.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / second);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(ms / minute);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(ms / hour);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/**
 * The AGE of a timestamp relative to `now` (`translateTimestampSince`): `<unknown>` when the
 * timestamp is missing or unparsable, else `humanDuration(now - t)`.
 */
export function humanAge(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== "string" || timestamp === "") return "<unknown>";
  // Go's zero time marshals as year 1; metav1.Time.IsZero reports it as unset.
  if (timestamp.startsWith("0001-01-01T00:00:00")) return "<unknown>";
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return "<unknown>";
  return humanDuration(now.getTime() - t);
}
