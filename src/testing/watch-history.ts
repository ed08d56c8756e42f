/**
 * A checker of watch streams against the history of writes, in the spirit of etcd's
 * robustness tests (tests/robustness/validate: ordered, unique, atomic, reliable, resumable):
 * clients record the writes they made and what each watch delivered (across reconnects to
 * other API servers), and `checkWatchHistory` says what, if anything, broke the contract.
 */

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

/** One write a client sent, with what it learned. */
export interface WriteRecord {
  readonly key: string;
  readonly type: WatchEventType;
  /**
   * The revision (resourceVersion) of the answer; `undefined` when the answer carried none (a
   * delete answers with a Status) or when no answer came.
   */
  readonly revision: bigint | undefined;
  /**
   * The server answered with success. False when no answer came (the server died
   * mid-request): the write may or may not have happened.
   */
  readonly acknowledged: boolean;
}

/** One event a watch delivered. */
export interface ObservedEvent {
  readonly key: string;
  readonly type: WatchEventType;
  readonly revision: bigint;
}

/** What one client's watch saw, reconnects included, in arrival order. */
export interface WatchStream {
  readonly name: string;
  /** The revision it started after (the watch's first `resourceVersion`). */
  readonly from: bigint;
  readonly events: readonly ObservedEvent[];
}

/**
 * The ways the streams broke the contract, as sentences; empty when they kept it:
 * - ordered and unique: in each stream revisions strictly increase (so per key too);
 * - truthful: every event is an acknowledged write (same key, type and revision), or one of
 *   the writes whose revision is unknown (each explains at most one event);
 * - consistent: streams that saw a revision agree on its key and type;
 * - reliable and resumable: each stream holds every acknowledged write after its start up to
 *   the last revision it saw, and every write any stream saw in that range;
 * - complete: every acknowledged write after the earliest start appears in some stream (the
 *   union of the streams is the write history; let the streams catch up before checking); an
 *   acknowledged write without a revision must explain one event.
 */
export function checkWatchHistory(
  writes: readonly WriteRecord[],
  streams: readonly WatchStream[],
): string[] {
  const problems: string[] = [];
  const acked = new Map<bigint, WriteRecord>();
  for (const write of writes) {
    if (write.revision === undefined) continue;
    if (!write.acknowledged) {
      problems.push(`${describe(write)} has a revision but no acknowledgement`);
    }
    const other = acked.get(write.revision);
    if (other !== undefined) {
      problems.push(
        `two acknowledged writes share revision ${write.revision}: ${describe(other)} and ${describe(write)}`,
      );
    }
    acked.set(write.revision, write);
  }
  const unknown = writes.filter((w) => w.revision === undefined);

  // What happened at each revision, by the first stream that saw it.
  const seen = new Map<bigint, { event: ObservedEvent; stream: string }>();
  for (const stream of streams) {
    let last = stream.from;
    for (const event of stream.events) {
      if (event.revision <= last) {
        problems.push(
          `${stream.name}: ${describe(event)} arrived after revision ${last} (out of order or repeated)`,
        );
      }
      last = event.revision > last ? event.revision : last;
      const first = seen.get(event.revision);
      if (first === undefined) {
        seen.set(event.revision, { event, stream: stream.name });
      } else if (first.event.key !== event.key || first.event.type !== event.type) {
        problems.push(
          `${stream.name} saw ${describe(event)} but ${first.stream} saw ${describe(first.event)}`,
        );
      }
    }
  }

  // Every event is a write someone made.
  const explained = new Set<WriteRecord>();
  for (const [revision, { event, stream }] of [...seen].sort(byRevision)) {
    const write = acked.get(revision);
    if (write !== undefined) {
      if (write.key !== event.key || write.type !== event.type) {
        problems.push(`${stream} saw ${describe(event)} but the write was ${describe(write)}`);
      }
      continue;
    }
    const candidates = unknown.filter(
      (w) => !explained.has(w) && w.key === event.key && w.type === event.type,
    );
    const lost = candidates.find((w) => w.acknowledged) ?? candidates[0];
    if (lost === undefined) {
      problems.push(`${stream} saw ${describe(event)}, which no client wrote`);
    } else {
      explained.add(lost);
    }
  }

  // Each stream holds the whole history from its start to the last revision it reached.
  const history = new Set<bigint>([...acked.keys(), ...seen.keys()]);
  for (const stream of streams) {
    const last = stream.events.at(-1)?.revision ?? stream.from;
    const got = new Set(stream.events.map((e) => e.revision));
    const missing = [...history]
      .filter((r) => r > stream.from && r <= last && !got.has(r))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (missing.length > 0) {
      problems.push(
        `${stream.name} missed ${missing.length} event(s) between ${stream.from} and ${last}: revisions ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""}`,
      );
    }
  }

  // The union of the streams is the history of acknowledged writes.
  const earliest = streams.reduce<bigint | undefined>(
    (min, s) => (min === undefined || s.from < min ? s.from : min),
    undefined,
  );
  if (earliest !== undefined) {
    for (const [revision, write] of [...acked].sort(byRevision)) {
      if (revision > earliest && !seen.has(revision)) {
        problems.push(`no stream saw the acknowledged write ${describe(write)}`);
      }
    }
    for (const write of unknown) {
      if (write.acknowledged && !explained.has(write)) {
        problems.push(`no stream saw the acknowledged write ${describe(write)}`);
      }
    }
  }
  return problems;
}

function describe(event: { key: string; type: string; revision: bigint | undefined }): string {
  return `${event.type} ${event.key}@${event.revision ?? "?"}`;
}

function byRevision<T>(a: [bigint, T], b: [bigint, T]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
