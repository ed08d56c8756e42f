/**
 * bench:scheduler's client side, run in a worker thread so the control plane (main thread) and
 * the load each have a core: creates pods as fast as the API takes them from concurrent
 * keep-alive clients, and follows one watch on their namespace to see each pod bound and
 * Running. Samples the counts once a second (scheduler_perf's throughput collector).
 */
import { performance } from "node:perf_hooks";
import { StringDecoder } from "node:string_decoder";
import { parentPort } from "node:worker_threads";
import { type Connection, newConnection, readText, send } from "../src/client/http-request.ts";
import { thisThreadId } from "../src/cmd/thread-id.ts";
import type { ProgressSample } from "./throughput.ts";

export interface SchedulingTask {
  readonly url: string;
  readonly namespace: string;
  /** Pod names are `<prefix>-<i>`; pods `from` … `count - 1` are created, all `count` followed. */
  readonly prefix: string;
  readonly from: number;
  readonly count: number;
  /** Concurrent create requests. */
  readonly clients: number;
  /** Also wait until every pod is Running (the kubelets started it). */
  readonly waitRunning: boolean;
  /**
   * Created pods not yet Running at most; creators wait for pods to start beyond it. Unset:
   * create as fast as the API takes them (scheduler_perf's way).
   */
  readonly maxPending?: number;
  /** Give up (and report what was reached) after this long. */
  readonly budgetMs: number;
  readonly sampleMs: number;
  /** A progress line at most this often. */
  readonly progressMs: number;
}

export interface SchedulingResult {
  readonly created: number;
  readonly bound: number;
  readonly running: number;
  /** performance.now() in the worker: only differences between them mean anything. */
  readonly firstCreateAtMs: number;
  readonly lastCreateAtMs: number;
  readonly lastBoundAtMs: number;
  readonly lastRunningAtMs: number;
  readonly samples: readonly ProgressSample[];
  /** Create acknowledged → bound seen on the watch, per pod, ms. */
  readonly createToBoundMs: readonly number[];
  readonly createLatencyMs: readonly number[];
  readonly timedOut: boolean;
  readonly workerHeapUsed: number;
  /** The load worker's thread id in the kernel (Linux), for per-thread CPU figures. */
  readonly tid: number | undefined;
}

/** The pod of upstream's SchedulingBasic (scheduler_perf's pod-default.yaml). */
function podBody(name: string): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, labels: { app: "bench-scheduler" } },
    spec: {
      containers: [
        {
          name: "pause",
          image: "registry.k8s.io/pause:3.10",
          ports: [{ containerPort: 80 }],
          resources: {
            requests: { cpu: "100m", memory: "500Mi" },
            limits: { cpu: "100m", memory: "500Mi" },
          },
        },
      ],
    },
  });
}

const noDeadline = new AbortController().signal;

/**
 * One create over the components' own client (decision 0015): the load shares the machine's two
 * cores with the control plane, so it costs as little CPU as the components do.
 */
async function post(connection: Connection, path: string, body: string): Promise<number> {
  const res = await send(connection, { method: "POST", path, body, signal: noDeadline });
  const text = await readText(res, `POST ${path}`);
  if (res.statusCode !== 201) {
    throw new Error(`create: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  }
  return res.statusCode;
}

/** Keep-alive connections to the server of `base`. */
function connectionTo(base: URL): Connection {
  return newConnection({ server: base.origin, userAgent: "gantry-bench", timeoutMs: 0 });
}

const namePattern = /"metadata":\{"name":"([^"]+)"/;

/**
 * Follows pod events from `resourceVersion` and calls `seen(name, bound, running)` for each.
 * The name, node and phase are found without parsing the whole object.
 */
function followPods(
  base: URL,
  path: string,
  seen: (name: string, bound: boolean, running: boolean) => void,
): { stop(): void; opened: Promise<void> } {
  const connection = connectionTo(base);
  const stop = new AbortController();
  const opened = send(connection, { method: "GET", path, stream: true, signal: stop.signal }).then(
    (res) => {
      if (res.statusCode !== 200) throw new Error(`watch: HTTP ${res.statusCode}`);
      void read(res.body);
    },
  );
  const read = async (chunks: AsyncIterable<Buffer>): Promise<void> => {
    const decoder = new StringDecoder("utf8");
    let carry = "";
    try {
      for await (const chunk of chunks) {
        const text = carry + decoder.write(chunk);
        let start = 0;
        for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
          const line = text.slice(start, end);
          start = end + 1;
          const name = namePattern.exec(line)?.[1];
          if (name === undefined) continue;
          seen(name, line.includes('"nodeName":"'), line.includes('"phase":"Running"'));
        }
        carry = text.slice(start);
      }
    } catch (error: unknown) {
      // The bench stops the watch when it is done; anything else ends the bench's wait by budget.
      if (!stop.signal.aborted) progress(`watch ended: ${String(error)}`);
    }
  };
  return {
    opened,
    stop: () => {
      stop.abort();
      connection.pool.destroy();
    },
  };
}

interface PodList {
  readonly metadata?: { readonly resourceVersion?: string };
  readonly items: readonly {
    readonly metadata: { readonly name: string };
    readonly spec: { readonly nodeName?: string };
    readonly status?: { readonly phase?: string };
  }[];
}

/** Lists the pods (the informer's first step); calls `seen` for each; returns the list's RV. */
async function listPods(
  base: URL,
  path: string,
  seen: (name: string, bound: boolean, running: boolean) => void,
): Promise<string> {
  const res = await fetch(new URL(path, base));
  const body = (await res.json()) as PodList;
  for (const pod of body.items) {
    seen(pod.metadata.name, (pod.spec.nodeName ?? "") !== "", pod.status?.phase === "Running");
  }
  return body.metadata?.resourceVersion ?? "0";
}

function progress(line: string): void {
  parentPort?.postMessage({ progress: line });
}

async function schedule(task: SchedulingTask): Promise<SchedulingResult> {
  const base = new URL(task.url);
  const path = `/api/v1/namespaces/${task.namespace}/pods`;
  const prefix = `${task.prefix}-`;
  const ackAt = new Float64Array(task.count).fill(Number.NaN);
  const boundAt = new Float64Array(task.count).fill(Number.NaN);
  const runningAt = new Float64Array(task.count).fill(Number.NaN);
  const createLatencyMs: number[] = [];
  let created = 0;
  let bound = 0;
  let running = 0;
  let lastBoundAtMs = Number.NaN;
  let lastRunningAtMs = Number.NaN;
  let finished: () => void = () => undefined;
  const complete = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const isComplete = (): boolean =>
    bound === task.count && (!task.waitRunning || running === task.count);

  const seen = (name: string, b: boolean, r: boolean): void => {
    if (!name.startsWith(prefix)) return;
    const i = Number(name.slice(prefix.length));
    if (!(i >= 0 && i < task.count)) return;
    const now = performance.now();
    if (b && Number.isNaN(boundAt[i] ?? 0)) {
      boundAt[i] = now;
      bound++;
      lastBoundAtMs = now;
    }
    if (r && Number.isNaN(runningAt[i] ?? 0)) {
      runningAt[i] = now;
      running++;
      lastRunningAtMs = now;
    }
    if (isComplete()) finished();
  };
  const rv = await listPods(base, path, seen);
  const watch = followPods(base, `${path}?watch=true&resourceVersion=${rv}`, seen);
  await watch.opened;

  const samples: ProgressSample[] = [];
  const sample = (): ProgressSample => {
    const s = { atMs: performance.now(), created, bound, running };
    samples.push(s);
    return s;
  };
  const firstCreateAtMs = performance.now();
  sample();
  let lastProgress = firstCreateAtMs;
  const sampler = setInterval(() => {
    const s = sample();
    if (s.atMs - lastProgress >= task.progressMs) {
      lastProgress = s.atMs;
      const seconds = ((s.atMs - firstCreateAtMs) / 1000).toFixed(0);
      progress(
        `${seconds}s: created ${task.from + created}/${task.count}, bound ${bound}${task.waitRunning ? `, Running ${running}` : ""}`,
      );
    }
  }, task.sampleMs);

  const deadline = firstCreateAtMs + task.budgetMs;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    finished();
  }, task.budgetMs);

  const connection = connectionTo(base);
  let next = task.from;
  let lastCreateAtMs = firstCreateAtMs;
  const maxPending = task.maxPending;
  /** Resolves once fewer than `maxPending` created pods wait to be Running (or time is up). */
  const room = async (): Promise<void> => {
    if (maxPending === undefined) return;
    while (task.from + created - running >= maxPending && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const creator = async (): Promise<void> => {
    for (let i = next++; i < task.count && performance.now() < deadline; i = next++) {
      await room();
      const t0 = performance.now();
      await post(connection, path, podBody(`${prefix}${i}`));
      const t1 = performance.now();
      ackAt[i] = t1;
      lastCreateAtMs = t1;
      createLatencyMs.push(t1 - t0);
      created++;
    }
  };
  const creators = Promise.all(Array.from({ length: task.clients }, creator));
  if (isComplete()) finished();
  await creators;
  await complete;
  clearTimeout(timer);
  clearInterval(sampler);
  sample();
  watch.stop();
  connection.pool.destroy();

  const createToBoundMs: number[] = [];
  for (let i = task.from; i < task.count; i++) {
    const latency = (boundAt[i] ?? Number.NaN) - (ackAt[i] ?? Number.NaN);
    if (!Number.isNaN(latency)) createToBoundMs.push(Math.max(0, latency));
  }
  return {
    created,
    bound,
    running,
    firstCreateAtMs,
    lastCreateAtMs,
    lastBoundAtMs,
    lastRunningAtMs,
    samples,
    createToBoundMs,
    createLatencyMs,
    timedOut,
    workerHeapUsed: process.memoryUsage().heapUsed,
    tid: thisThreadId(),
  };
}

parentPort?.on("message", (task: SchedulingTask) => {
  schedule(task).then(
    (result) => parentPort?.postMessage({ result }),
    (error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.stack : String(error) }),
  );
});
