/** Upstream's `SlowStartInitialBatchSize`. */
export const slowStartInitialBatchSize = 1;

export interface SlowStartResult {
  readonly successes: number;
  /** The first error of the batch that stopped the run; absent when every call succeeded. */
  readonly failure?: { readonly error: unknown };
}

/**
 * `slowStartBatch`: calls `fn` `count` times in batches of 1, 2, 4, … run concurrently, and
 * stops after the first batch with a failure, so a quota or admission error costs a handful of
 * requests instead of hundreds. Resolves with the number of successful calls and the first
 * error, if any.
 */
export async function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: () => Promise<void>,
): Promise<SlowStartResult> {
  let remaining = count;
  let successes = 0;
  for (
    let batch = Math.min(remaining, initialBatchSize);
    batch > 0;
    batch = Math.min(2 * batch, remaining)
  ) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    successes += batch - failed.length;
    const first = failed[0];
    if (first !== undefined) return { successes, failure: { error: first.reason } };
    remaining -= batch;
  }
  return { successes };
}
