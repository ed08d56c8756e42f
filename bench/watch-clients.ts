/**
 * The watchers of bench/watch-fanout.ts, in a worker thread so that they do not take the server
 * thread's CPU. `open` starts `watchers` HTTP watches of one path from a resourceVersion; `collect`
 * waits until each has seen `expect` events (or `timeoutMs` passed), closes them and answers with
 * every receipt: the event's resourceVersion and the wall-clock time (ms since the epoch, so the
 * main thread can compare it with its own) the chunk holding it arrived, plus how many chunks
 * (socket reads) the watchers took.
 */
import { Agent, type ClientRequest, request } from "node:http";
import { performance } from "node:perf_hooks";
import { parentPort } from "node:worker_threads";

export type WatchClientTask =
  | {
      readonly op: "open";
      readonly url: string;
      /** Path and query of the watch, without `watch` and `resourceVersion`. */
      readonly path: string;
      readonly resourceVersion: string;
      readonly watchers: number;
      /** The watches' Accept header. */
      readonly accept: string;
      /** Receipts kept at most (the rest are counted only). */
      readonly capacity: number;
    }
  | { readonly op: "collect"; readonly expect: number; readonly timeoutMs: number };

export interface WatchClientResult {
  readonly events: number;
  /** Socket reads (`data` chunks) over all watchers. */
  readonly chunks: number;
  /** Watchers that saw fewer than `expect` events before the timeout. */
  readonly short: number;
  readonly receivedRv: Float64Array;
  readonly receivedAt: Float64Array;
}

const marker = Buffer.from('"resourceVersion":"');
const newline = 0x0a;

interface Open {
  readonly agent: Agent;
  readonly requests: ClientRequest[];
  readonly perWatcher: number[];
  readonly receivedRv: Float64Array;
  readonly receivedAt: Float64Array;
  received: number;
  chunks: number;
}

let open: Open | undefined;

async function start(task: Extract<WatchClientTask, { op: "open" }>): Promise<void> {
  const base = new URL(task.url);
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const state: Open = {
    agent,
    requests: [],
    perWatcher: new Array<number>(task.watchers).fill(0),
    receivedRv: new Float64Array(task.capacity),
    receivedAt: new Float64Array(task.capacity),
    received: 0,
    chunks: 0,
  };
  open = state;
  const separator = task.path.includes("?") ? "&" : "?";
  await Promise.all(
    Array.from(
      { length: task.watchers },
      (_, w) =>
        new Promise<void>((resolve, reject) => {
          const req = request(
            {
              host: base.hostname,
              port: base.port,
              path: `${task.path}${separator}watch=true&resourceVersion=${task.resourceVersion}`,
              agent,
              headers: { accept: task.accept },
            },
            (res) => {
              if (res.statusCode !== 200) reject(new Error(`watch: HTTP ${res.statusCode}`));
              resolve();
              let carry: Buffer = Buffer.alloc(0);
              res.on("data", (chunk: Buffer) => {
                const now = performance.timeOrigin + performance.now();
                state.chunks++;
                const data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
                let lineStart = 0;
                let end = data.indexOf(newline);
                while (end >= 0) {
                  const at = data.indexOf(marker, lineStart);
                  if (at >= 0 && at < end && state.received < state.receivedRv.length) {
                    const from = at + marker.length;
                    const to = data.indexOf(0x22, from);
                    state.receivedRv[state.received] = Number(data.toString("latin1", from, to));
                    state.receivedAt[state.received] = now;
                    state.received++;
                  }
                  state.perWatcher[w] = (state.perWatcher[w] ?? 0) + 1;
                  lineStart = end + 1;
                  end = data.indexOf(newline, lineStart);
                }
                carry = lineStart >= data.length ? Buffer.alloc(0) : data.subarray(lineStart);
              });
            },
          );
          req.on("error", (error: Error) => {
            if (!("code" in error && error.code === "ECONNRESET")) reject(error);
          });
          req.end();
          state.requests.push(req);
        }),
    ),
  );
}

async function collect(
  task: Extract<WatchClientTask, { op: "collect" }>,
): Promise<WatchClientResult> {
  const state = open;
  if (state === undefined) throw new Error("collect before open");
  const deadline = performance.now() + task.timeoutMs;
  while (state.perWatcher.some((n) => n < task.expect) && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
  }
  for (const req of state.requests) req.destroy();
  state.agent.destroy();
  open = undefined;
  return {
    events: state.perWatcher.reduce((a, b) => a + b, 0),
    chunks: state.chunks,
    short: state.perWatcher.filter((n) => n < task.expect).length,
    receivedRv: state.receivedRv.slice(0, state.received),
    receivedAt: state.receivedAt.slice(0, state.received),
  };
}

parentPort?.on("message", (task: WatchClientTask) => {
  const run = async (): Promise<WatchClientResult | "opened"> => {
    if (task.op === "open") {
      await start(task);
      return "opened";
    }
    return collect(task);
  };
  run().then(
    (result) => parentPort?.postMessage({ result }),
    (error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.stack : String(error) }),
  );
});
