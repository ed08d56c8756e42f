import { type Revision, StorageError, type StorageKey, type WatchEvent } from "../storage.ts";

/** One page of history, as a backend reads it for a watch that starts in the past. */
export interface ReplayPage {
  /** Events under the prefix, in revision order. */
  readonly events: readonly WatchEvent[];
  /** Every revision up to this one has been examined; the next page starts after it. */
  readonly scannedTo: Revision;
}

/**
 * What the hub needs from a backend. Every method is synchronous: the hub relies on no write
 * landing between reading `currentRevision()` and registering a watcher.
 */
export interface WatchSource {
  currentRevision(): Revision;
  compactedRevision(): Revision;
  /**
   * Events under `prefix` with `after < revision <= upTo`, in revision order, at most `limit`.
   * `scannedTo` must be `upTo` once the range is exhausted.
   */
  replay(prefix: StorageKey, after: Revision, upTo: Revision, limit: number): ReplayPage;
}

export interface WatchHubOptions {
  /** Events buffered for one watcher before it is ended with Compacted. */
  readonly maxBufferedEvents: number;
  /** Events read from history per `replay` call. */
  readonly replayPageSize: number;
}

/**
 * Fans committed writes out to watchers. Backends call `publish` synchronously right after each
 * commit, in revision order, so live events arrive in order. A watch registers itself in the same
 * synchronous step in which it reads the current revision R: history `(after, R]` comes from the
 * backend, live events are all `> R`, so there is neither a gap nor a duplicate.
 */
export interface WatchHub {
  /** Offers an event for `key` to the watchers; `make` runs at most once, and only if one wants it. */
  publish(key: StorageKey, make: () => WatchEvent): void;
  /** See `Storage.watch`. */
  watch(prefix: StorageKey, after: Revision, signal: AbortSignal): AsyncIterable<WatchEvent>;
  /** Ends every watch cleanly; later watches throw Unavailable. Idempotent. */
  close(): void;
  /** How many watchers are registered (a test and leak-check aid). */
  readonly size: number;
}

interface Watcher {
  readonly prefix: StorageKey;
  readonly after: Revision;
  buffer: WatchEvent[];
  head: number;
  state: "open" | "ended" | "failed";
  error: StorageError | undefined;
  wake: (() => void) | undefined;
}

export function newWatchHub(source: WatchSource, options: WatchHubOptions): WatchHub {
  const watchers = new Set<Watcher>();
  let closed = false;

  const finish = (w: Watcher, error?: StorageError): void => {
    if (w.state !== "open") return;
    w.state = error === undefined ? "ended" : "failed";
    w.error = error;
    w.buffer = [];
    w.head = 0;
    watchers.delete(w);
    const wake = w.wake;
    w.wake = undefined;
    wake?.();
  };

  const publish = (key: StorageKey, make: () => WatchEvent): void => {
    let event: WatchEvent | undefined;
    for (const w of watchers) {
      if (!key.startsWith(w.prefix)) continue;
      event ??= make();
      if (event.revision <= w.after) continue;
      w.buffer.push(event);
      if (w.buffer.length - w.head > options.maxBufferedEvents) {
        finish(
          w,
          new StorageError(
            "Compacted",
            w.prefix,
            source.compactedRevision(),
            `watcher fell more than ${options.maxBufferedEvents} events behind`,
          ),
        );
        continue;
      }
      const wake = w.wake;
      w.wake = undefined;
      wake?.();
    }
  };

  /** True while the watcher is open; throws its error once it failed. */
  const isOpen = (w: Watcher): boolean => {
    if (w.state === "failed" && w.error !== undefined) throw w.error;
    return w.state === "open";
  };

  const nextLive = async (w: Watcher): Promise<WatchEvent | undefined> => {
    for (;;) {
      if (!isOpen(w)) return undefined;
      if (w.head < w.buffer.length) {
        const event = w.buffer[w.head] as WatchEvent;
        w.head++;
        if (w.head >= 1024 && w.head * 2 >= w.buffer.length) {
          w.buffer = w.buffer.slice(w.head);
          w.head = 0;
        }
        return event;
      }
      await new Promise<void>((resolve) => {
        w.wake = resolve;
      });
    }
  };

  async function* run(
    prefix: StorageKey,
    after: Revision,
    signal: AbortSignal,
  ): AsyncGenerator<WatchEvent, void, undefined> {
    if (closed) throw new StorageError("Unavailable", prefix, undefined, "storage is closed");
    if (signal.aborted) return;
    const compacted = source.compactedRevision();
    if (after < compacted) throw new StorageError("Compacted", prefix, compacted);
    // No await between reading upTo and registering: no write can slip in between.
    const upTo = source.currentRevision();
    const w: Watcher = {
      prefix,
      after,
      buffer: [],
      head: 0,
      state: "open",
      error: undefined,
      wake: undefined,
    };
    watchers.add(w);
    const onAbort = (): void => finish(w);
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      let cursor = after;
      while (cursor < upTo && isOpen(w)) {
        const nowCompacted = source.compactedRevision();
        if (cursor < nowCompacted) throw new StorageError("Compacted", prefix, nowCompacted);
        const page = source.replay(prefix, cursor, upTo, options.replayPageSize);
        for (const event of page.events) {
          if (!isOpen(w)) return;
          yield event;
        }
        cursor = page.scannedTo;
      }
      for (;;) {
        const event = await nextLive(w);
        if (event === undefined) return;
        yield event;
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      finish(w);
    }
  }

  return {
    publish,
    watch: (prefix, after, signal) => ({
      [Symbol.asyncIterator]: () => run(prefix, after, signal),
    }),
    close: () => {
      closed = true;
      for (const w of [...watchers]) finish(w);
    },
    get size() {
      return watchers.size;
    },
  };
}
