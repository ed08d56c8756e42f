/**
 * The body of a component thread (`gantry up --component-threads`): runs its share of the
 * components (scheduler, controller manager, queueing controllers, kubelets) with
 * `startComponents` as if it were its own process, talking HTTP to the API server of the main
 * thread. Log lines, metrics and heap figures go to the main thread as messages (see
 * component-thread.ts for the protocol).
 */
import { setMaxListeners } from "node:events";
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { Registry } from "prom-client";
import { newQueueingMetrics } from "../queueing/index.ts";
import type { LogFields, Logger } from "../util/index.ts";
import type { ThreadReply, ThreadRequest, ThreadStart } from "./component-thread-protocol.ts";
import { startComponents } from "./components.ts";
import { thisThreadId } from "./thread-id.ts";

const port = parentPort;
if (port === null) throw new Error("component-thread-worker.ts runs only in a worker thread");
const start = workerData as ThreadStart;
const post = (reply: ThreadReply): void => port.postMessage(reply);

/** Writes nothing itself: each line goes to the main thread's logger. */
function forwardingLogger(context: LogFields, verbosity: number): Logger {
  const send = (level: "info" | "error" | number, message: string, fields?: LogFields): void => {
    post({
      kind: "log",
      level,
      message,
      context: JSON.stringify(context, safe),
      fields: fields === undefined ? "{}" : JSON.stringify(fields, safe),
    });
  };
  const silent: Pick<Logger, "info"> = { info: () => undefined };
  return {
    info: (message, fields) => send("info", message, fields),
    error: (message, fields) => send("error", message, fields),
    v: (level) => (level <= verbosity ? { info: (m, f) => send(level, m, f) } : silent),
    with: (fields) => forwardingLogger({ ...context, ...fields }, verbosity),
  };
}

/** What a JSON log line makes of values postMessage cannot clone. */
function safe(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === "bigint") return value.toString();
  return value;
}

const errorText = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

const stop = new AbortController();
// Every informer, watch and worker of the components listens on this one signal.
setMaxListeners(0, stop.signal);
const registry = new Registry();
const logger = forwardingLogger({}, start.verbosity);
let startFailed = false;

async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return;
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

async function answer(request: ThreadRequest): Promise<void> {
  switch (request.kind) {
    case "metrics":
      post({ kind: "metrics", id: request.id, metrics: await registry.getMetricsAsJSON() });
      return;
    case "memory": {
      if (request.gc) await collectGarbage();
      const heap = getHeapStatistics();
      post({
        kind: "memory",
        id: request.id,
        heapUsed: heap.used_heap_size,
        heapTotal: heap.total_heap_size,
      });
      return;
    }
    case "stop":
      stop.abort();
      // Components that never started have nothing to wait for.
      if (startFailed) post({ kind: "stopped" });
      return;
  }
}

port.on("message", (request: ThreadRequest) => {
  answer(request).catch((error: unknown) => post({ kind: "failed", error: errorText(error) }));
});

try {
  const { queueing, ...rest } = start.options;
  const components = await startComponents(
    start.connection,
    {
      ...rest,
      metricsRegistry: registry,
      ...(queueing === undefined
        ? {}
        : { queueing: { config: queueing, metrics: newQueueingMetrics(registry) } }),
    },
    logger,
    stop.signal,
  );
  post({ kind: "ready", metrics: await registry.getMetricsAsJSON(), tid: thisThreadId() });
  components.failure.then(
    (error) => post({ kind: "failed", error: errorText(error) }),
    () => undefined,
  );
  await components.done;
  post({ kind: "stopped" });
} catch (error: unknown) {
  startFailed = true;
  post({ kind: "failed", error: errorText(error) });
}
