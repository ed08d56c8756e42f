/**
 * Waits for every running part of a component to stop. Unlike `Promise.all`, it never leaves
 * a part running behind a failed one: it settles after all have settled, then rejects with the
 * first failure, if any.
 */
export async function settleAll(running: readonly Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(running);
  for (const result of results) {
    if (result.status === "rejected") throw result.reason;
  }
}
