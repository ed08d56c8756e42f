/** The source of time for everything that is not a composition root. */
export interface Clock {
  /** The current wall-clock time. */
  now(): Date;
  /** Resolves after `ms` milliseconds, or rejects with the signal's reason once `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `Date` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/** RFC 3339 with whole seconds and a `Z`, as Kubernetes writes `metav1.Time`. */
export function rfc3339(date: Date): string {
  // Writes stamp the current second many times over: format each second once.
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastSecond.second) {
    lastSecond.text = `${date.toISOString().slice(0, 19)}Z`;
    lastSecond.second = second;
  }
  return lastSecond.text;
}

/** The last second `rfc3339` formatted. */
const lastSecond = { second: Number.NaN, text: "" };

/** RFC 3339 with microseconds, as Kubernetes writes `metav1.MicroTime`. */
export function rfc3339Micro(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}
