import type { Clock, Logger } from "../util/index.ts";
import type { Revision, Storage } from "./storage.ts";

export interface CompactorDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface CompactorOptions {
  /**
   * Time between compactions, as the apiserver's `--etcd-compaction-interval`.
   * @default 300_000 (5 minutes)
   */
  readonly intervalMs?: number;
  /** Revisions always kept behind the latest, whatever the interval. @default 10_000 */
  readonly retainRevisions?: number;
}

/**
 * Compacts `storage` periodically until `signal` aborts, then resolves; it never rejects (a
 * failed compaction is logged and retried next interval). Each tick compacts to the lower of
 * the revision seen one interval earlier and `latest - retainRevisions`, so watchers can resume
 * from anything written in the last interval and from the last `retainRevisions` revisions.
 */
export async function runCompactor(
  deps: CompactorDeps,
  options: CompactorOptions,
  signal: AbortSignal,
): Promise<void> {
  const intervalMs = options.intervalMs ?? 300_000;
  const retain = options.retainRevisions ?? 10_000;
  let seenLastTick: Revision = 0;
  while (!signal.aborted) {
    try {
      await deps.clock.sleep(intervalMs, signal);
    } catch {
      return; // aborted
    }
    try {
      const latest = await deps.storage.currentRevision();
      const target = Math.min(seenLastTick, latest - retain);
      if (target > (await deps.storage.compactedRevision())) {
        await deps.storage.compact(target);
        deps.logger.v(2).info("Compacted storage", { revision: target, latest });
      }
      seenLastTick = latest;
    } catch (error) {
      deps.logger.error("Cannot compact storage", { error: String(error) });
    }
  }
}
