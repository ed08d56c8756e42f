import { after, afterEach, beforeEach, type TestContext } from "node:test";
import type { FakeClock } from "./fake-clock.ts";

/**
 * Leak checks in the spirit of VS Code's `ensureNoDisposablesAreLeakedInTestSuite`: a test must
 * leave behind nothing that keeps the process alive. Node lists what keeps its event loop alive
 * in `process.getActiveResourcesInfo()` (ref'd timers, listening servers, sockets, child
 * processes, worker threads, file watchers); a server, watch, store or component a test forgot
 * to dispose shows up there as a `TCPServerWrap`, `TCPSocketWrap`, `Timeout`, `Worker` or
 * `ProcessWrap` more than when the test began. Unref'd handles (an idle pooled connection) do
 * not keep the process alive and are not counted.
 */
export interface LeakCheckOptions {
  /** Sleeps still pending on this clock at the end are a leak too (a loop not stopped). */
  readonly clock?: FakeClock;
  /**
   * How long the check waits for resources the test already released to close: a destroyed
   * socket, a stopped child process and a closed server go away a little after the test's last
   * line. @default 2000
   */
  readonly settleMs?: number;
}

/** Counts of each kind of resource keeping the event loop alive. */
type Census = Map<string, number>;

/** A snapshot of what keeps the event loop alive now: counts by kind, for `leaksSince`. */
export function activeResources(): Census {
  const counts: Census = new Map();
  for (const kind of process.getActiveResourcesInfo()) {
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

/**
 * The sockets and servers keeping the loop alive, described for a reader by their ports (timers
 * are not handles there and are only counted). `process._getActiveHandles` is undocumented but
 * has been in every Node release; without it the counts alone are reported.
 */
function describeHandles(): string {
  const handles = (process as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  const parts: string[] = [];
  for (const handle of handles) {
    const h = handle as {
      localPort?: number;
      remotePort?: number;
      hasRef?: () => boolean;
    };
    if (h.hasRef !== undefined && !h.hasRef()) continue;
    if (h.remotePort !== undefined) parts.push(`socket :${h.localPort} → :${h.remotePort}`);
    else if (h.localPort !== undefined)
      parts.push(`server, or socket without a peer, :${h.localPort}`);
  }
  return parts.join(", ");
}

/** What `now` holds beyond `before`, as `2 TCPSocketWrap, 1 Timeout`; "" when nothing. */
function excess(before: ReadonlyMap<string, number>, now: Census): string {
  const parts: string[] = [];
  for (const [kind, count] of now) {
    const more = count - (before.get(kind) ?? 0);
    if (more > 0) parts.push(`${more} ${kind}`);
  }
  return parts.sort().join(", ");
}

/**
 * Resolves to "" once nothing beyond `before` keeps the event loop alive, or, after `settleMs`,
 * to a sentence saying what still does.
 */
export async function leaksSince(
  before: ReadonlyMap<string, number>,
  options: LeakCheckOptions = {},
): Promise<string> {
  const deadline = Date.now() + (options.settleMs ?? 2000);
  const problems = (): string[] => {
    const found: string[] = [];
    const extra = excess(before, activeResources());
    if (extra !== "") {
      const handles = describeHandles();
      found.push(
        `still keeping the process alive: ${extra}${handles === "" ? "" : `; all live handles: ${handles}`}`,
      );
    }
    const sleeping = options.clock?.waiters ?? 0;
    if (sleeping > 0) found.push(`${sleeping} sleep(s) still pending on the FakeClock`);
    return found;
  };
  for (;;) {
    const found = problems();
    if (found.length === 0) return "";
    if (Date.now() >= deadline) {
      return `The test left resources behind (${found.join("; ")}): dispose what it started (await using), abort the signals of what it ran, and stop its timers.`;
    }
    // This wait's own timer has fired by the time the next census is taken.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Throws the `leaksSince` sentence when there is one. */
async function assertNoLeaksSince(
  before: ReadonlyMap<string, number>,
  options: LeakCheckOptions,
): Promise<void> {
  const leaks = await leaksSince(before, options);
  if (leaks !== "") throw new Error(leaks);
}

/**
 * Fails `t` if, once it ends, it left more keeping the process alive than `since` (a snapshot
 * from `activeResources()`; by default, what there was when this was called). The check is a
 * `t.after` hook, and those run in the order they were registered: a test that stops something
 * in its own `t.after` calls this after registering that, with the snapshot taken at its start.
 */
export function ensureNoLeaks(
  t: TestContext,
  options: LeakCheckOptions & { readonly since?: ReadonlyMap<string, number> } = {},
): void {
  const before = options.since ?? activeResources();
  t.after(async () => {
    await assertNoLeaksSince(before, options);
  });
}

/**
 * `ensureNoLeaks` for every test of the calling file, or of the calling `describe` when called in
 * one (its `beforeEach`/`afterEach` hooks).
 */
export function ensureNoLeaksInEachTest(options: LeakCheckOptions = {}): void {
  let before: Census = new Map();
  beforeEach(() => {
    before = activeResources();
  });
  afterEach(async () => {
    await assertNoLeaksSince(before, options);
  });
}

/**
 * For a suite (or file) whose tests share fixtures set up in `before` and torn down in `after`:
 * once the suite's own `after` hooks have run, nothing beyond what kept the process alive when
 * this was called may be left. node:test runs `after` hooks in the order they were registered,
 * so call it after the suite's `after`, at the end of the `describe` body (or of the file); the
 * snapshot is taken at that call, while the suite is still being declared.
 */
export function ensureNoLeaksAfterSuite(options: LeakCheckOptions = {}): void {
  const before = activeResources();
  after(async () => {
    await assertNoLeaksSince(before, options);
  });
}
