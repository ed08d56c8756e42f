import { type Revision, StorageError, type StorageKey, type WatchEvent } from "../storage.ts";
import { revisionOf, toWatchEvent } from "./codec.ts";
import type { EtcdConnection, WatchStream } from "./connection.ts";
import { classifyEtcdError } from "./errors.ts";
import type { WatchResponse } from "./grpc/messages.ts";
import type { KeySpace } from "./keys.ts";

export interface EtcdWatchDeps {
  readonly connection: EtcdConnection;
  readonly keys: KeySpace;
  /** Events buffered here before reading from etcd pauses (etcd keeps the rest). */
  readonly bufferLimit: number;
  /** Aborted when the store closes: every watch then ends quietly. */
  readonly closing: AbortSignal;
}

const minReconnectDelayMs = 100;
const maxReconnectDelayMs = 2000;

/**
 * `Storage.watch` over one etcd watch stream (kube-apiserver's watcher.go does the same: one
 * etcd watch per storage watch, with prev_kv). The stream starts at revision `after` itself and
 * drops events at or below the last one delivered, so etcd answers Compacted exactly when
 * `after` is below its compacted revision, and resuming never duplicates. When the stream
 * breaks (a member dies, etcd restarts) it is reopened, on the next member, from the last
 * delivered revision: the consumer sees no gap and no duplicate, only a pause. If that revision
 * was compacted meanwhile, the watch throws Compacted and the consumer re-lists.
 */
export function watchEtcd(
  deps: EtcdWatchDeps,
  prefix: StorageKey,
  after: Revision,
  signal: AbortSignal,
): AsyncIterable<WatchEvent> {
  return { [Symbol.asyncIterator]: () => run(deps, prefix, after, signal) };
}

async function* run(
  deps: EtcdWatchDeps,
  prefix: StorageKey,
  after: Revision,
  signal: AbortSignal,
): AsyncGenerator<WatchEvent, void, undefined> {
  const { connection, keys } = deps;
  if (connection.closed || deps.closing.aborted) {
    throw new StorageError("Unavailable", prefix, undefined, "storage is closed");
  }
  if (signal.aborted) return;
  const range = keys.range(prefix);
  if (range === undefined) throw new RangeError(`Cannot watch "${prefix}": empty key range`);

  let queue: WatchEvent[] = [];
  let head = 0;
  let last = after;
  let failure: Error | undefined;
  let stopped = false;
  let paused = false;
  let stream: WatchStream | undefined;
  let wake: (() => void) | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let delay = minReconnectDelayMs;

  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  const release = (s: WatchStream): void => {
    s.close();
  };

  const stop = (): void => {
    stopped = true;
    clearTimeout(reconnectTimer);
    if (stream !== undefined) release(stream);
    stream = undefined;
    notify();
  };

  const fail = (error: Error): void => {
    failure ??= error;
    stop();
  };

  const reconnectLater = (): void => {
    if (stopped) return;
    connection.failover();
    const wait = delay;
    delay = Math.min(delay * 2, maxReconnectDelayMs);
    reconnectTimer = setTimeout(() => void connect(), wait);
  };

  const onResponse = (s: WatchStream, res: WatchResponse): void => {
    if (s !== stream) return;
    if (res.canceled) {
      const compacted = revisionOf(res.compact_revision);
      fail(
        compacted > 0
          ? new StorageError("Compacted", prefix, compacted)
          : new StorageError(
              "Unavailable",
              prefix,
              undefined,
              `etcd cancelled the watch: ${res.cancel_reason}`,
            ),
      );
      return;
    }
    if (res.created) delay = minReconnectDelayMs;
    for (const event of res.events) {
      const revision = revisionOf(event.kv.mod_revision);
      if (revision <= last) continue;
      try {
        queue.push(toWatchEvent(keys, event.type, event.kv, event.prev_kv));
      } catch (error: unknown) {
        fail(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      last = revision;
    }
    if (!paused && queue.length - head >= deps.bufferLimit) {
      paused = true;
      s.pause();
    }
    notify();
  };

  const onBroken = (s: WatchStream, error: unknown): void => {
    if (s !== stream || stopped) return;
    stream = undefined;
    paused = false;
    release(s);
    // Refused for good (auth): reconnecting cannot help. Anything else is the stream or the
    // member failing: reopen it.
    if (
      error instanceof Error &&
      /PERMISSION_DENIED|UNAUTHENTICATED|permission denied/.test(error.message)
    ) {
      fail(error);
      return;
    }
    reconnectLater();
  };

  const connect = async (): Promise<void> => {
    if (stopped) return;
    let s: WatchStream;
    // Responses or the end may come before `stream` is set below: they wait for it.
    let opened: WatchStream | undefined;
    const early: (() => void)[] = [];
    const whenOpen = (act: (o: WatchStream) => void): void => {
      if (opened !== undefined) act(opened);
      else early.push(() => act(opened as WatchStream));
    };
    try {
      s = await connection.openWatchStream({
        onResponse: (res) => whenOpen((o) => onResponse(o, res)),
        onEnd: (error) =>
          whenOpen((o) => onBroken(o, error ?? new Error("14 UNAVAILABLE: watch stream ended"))),
      });
    } catch (error: unknown) {
      if (classifyEtcdError(error) === "closed" || connection.closed) {
        stop();
        return;
      }
      reconnectLater();
      return;
    }
    if (stopped) {
      release(s);
      return;
    }
    stream = s;
    opened = s;
    for (const act of early) act();
    s.send({
      create_request: {
        key: range.key,
        range_end: range.rangeEnd,
        // From `last` itself (dropped below), so that etcd's compaction check matches ours.
        start_revision: Math.max(last, 1),
        prev_kv: true,
      },
    });
  };

  const onAbort = (): void => stop();
  signal.addEventListener("abort", onAbort, { once: true });
  deps.closing.addEventListener("abort", onAbort, { once: true });
  try {
    await connect();
    for (;;) {
      if (signal.aborted || deps.closing.aborted) return;
      if (head < queue.length) {
        const event = queue[head] as WatchEvent;
        head++;
        if (head >= 1024 && head * 2 >= queue.length) {
          queue = queue.slice(head);
          head = 0;
        }
        if (paused && queue.length - head < deps.bufferLimit / 2) {
          paused = false;
          stream?.resume();
        }
        yield event;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (stopped) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    deps.closing.removeEventListener("abort", onAbort);
    stop();
  }
}
