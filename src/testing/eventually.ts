/**
 * Runs `check` until it returns without throwing, and returns what it returned: the way a test
 * waits for controllers that converge in their own time. Once `timeoutMs` has passed, the check's
 * last error is thrown, so a failing test names what it was still waiting for.
 *
 * Checks that assert with `assert.ok` must give a message (tools/architecture.test.ts says why).
 */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 15_000,
  pollMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error: unknown) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
