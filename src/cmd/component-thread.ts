/**
 * `gantry up --component-threads`: the scheduler, the controller manager, the queueing
 * controllers and the emulated kubelets run in worker threads, leaving the main thread (the API
 * server) a core of its own, as upstream runs them in processes of their own. Each thread runs
 * its components with `startComponents`, talking HTTP to the API server exactly as in-process
 * components and `gantry scheduler`, `gantry kubelet`, … do. Their log lines go to the main
 * thread's logger; their metrics appear on the API server's `/metrics`, gathered from every
 * thread at each scrape and summed with the main thread's metrics of the same name.
 */
import type { EventLoopUtilization } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { AggregatorRegistry, type Metric, type Registry } from "prom-client";
import type { LogFields, Logger } from "../util/index.ts";
import type { Connection } from "./component-client.ts";
import type {
  ThreadComponentsOptions,
  ThreadMetrics,
  ThreadReply,
  ThreadRequest,
  ThreadStart,
} from "./component-thread-protocol.ts";
import type { Components, ComponentsOptions } from "./components.ts";

/** What a component thread can run. */
export type ComponentName = "scheduler" | "controllers" | "queueing" | "kubelets";

/** Which components share a thread: one list per thread. */
export type ThreadLayout = readonly (readonly ComponentName[])[];

/**
 * The kubelets in one thread, the scheduler and the controllers in another: on a 2-core
 * machine more threads only share the same cores (see docs/benchmarks.md).
 */
export const defaultThreadLayout: ThreadLayout = [
  ["kubelets"],
  ["scheduler", "controllers", "queueing"],
];

/** One component thread's heap. */
export interface ThreadMemory {
  /** The components it runs, e.g. `scheduler,controllers,queueing`. */
  readonly thread: string;
  readonly heapUsed: number;
  readonly heapTotal: number;
}

/** The running component threads, for figures. */
export interface ComponentThreads {
  /** Each thread's heap; after two full collections when `gc` and the process has `--expose-gc`. */
  memory(gc: boolean): Promise<readonly ThreadMemory[]>;
  /**
   * Each thread's event-loop utilization since it started (`performance.eventLoopUtilization`
   * of two readings gives it between them).
   */
  utilization(): readonly { readonly thread: string; readonly elu: EventLoopUtilization }[];
  /** Each thread's id in the kernel (Linux; undefined elsewhere), for per-thread CPU figures. */
  tids(): readonly { readonly thread: string; readonly tid: number | undefined }[];
}

/** How long a stopping thread may take before it is terminated. */
const stopGraceMs = 20_000;

/**
 * Starts the components of `options` in worker threads laid out as `layout` (components not
 * configured are left out, and threads left empty are not started). Resolves once every thread
 * is ready (every configured node registered); rejects, with every thread stopped, when one
 * fails to start.
 */
export async function startComponentThreads(
  connection: Connection,
  options: ComponentsOptions,
  layout: ThreadLayout,
  verbosity: number,
  logger: Logger,
  signal: AbortSignal,
): Promise<Components> {
  const threads: ComponentThread[] = [];
  for (const names of layout) {
    const share = threadOptions(options, names);
    if (share === undefined) continue;
    threads.push(
      new ComponentThread(
        names.filter((name) => isConfigured(options, name)).join(","),
        { connection, options: share, verbosity },
        logger,
      ),
    );
  }
  const stopAll = (): Promise<void> =>
    Promise.all(threads.map((thread) => thread.stop())).then(() => undefined);
  signal.addEventListener("abort", () => void stopAll(), { once: true });
  let descriptors: ThreadMetrics[];
  try {
    descriptors = await Promise.all(threads.map((thread) => thread.ready));
  } catch (error: unknown) {
    await stopAll();
    throw error;
  }
  if (options.metricsRegistry !== undefined) {
    registerThreadMetrics(options.metricsRegistry, threads, descriptors);
  }
  const failure = Promise.race(threads.map((thread) => thread.failure));
  const view: ComponentThreads = {
    memory: (gc) => Promise.all(threads.map((thread) => thread.memory(gc))),
    utilization: () =>
      threads.map((thread) => ({ thread: thread.name, elu: thread.utilization() })),
    tids: () => threads.map((thread) => ({ thread: thread.name, tid: thread.tid })),
  };
  return {
    fleet: undefined,
    failure,
    threads: view,
    done: Promise.all(threads.map((thread) => thread.exited)).then(() => undefined),
  };
}

function isConfigured(options: ComponentsOptions, name: ComponentName): boolean {
  switch (name) {
    case "scheduler":
      return options.scheduler === true;
    case "controllers":
      return options.controllers === true;
    case "queueing":
      return options.queueing?.config.enabled === true;
    case "kubelets":
      return options.cluster !== undefined;
  }
}

/** The part of `options` a thread running `names` needs; undefined when it has nothing to run. */
function threadOptions(
  options: ComponentsOptions,
  names: readonly ComponentName[],
): ThreadComponentsOptions | undefined {
  const runs = (name: ComponentName): boolean =>
    names.includes(name) && isConfigured(options, name);
  if (!names.some(runs)) return undefined;
  const kubeletsHere = runs("kubelets");
  const settings = options.controllerManager ?? options.cluster?.controllerManager;
  return {
    ...(kubeletsHere && options.cluster !== undefined ? { cluster: options.cluster } : {}),
    ...(runs("scheduler") ? { scheduler: true } : {}),
    ...(runs("controllers") ? { controllers: true } : {}),
    ...(runs("controllers") && settings !== undefined ? { controllerManager: settings } : {}),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(runs("queueing") && options.queueing !== undefined
      ? { queueing: options.queueing.config }
      : {}),
  };
}

/** One worker thread running some components, and its side of the message protocol. */
class ComponentThread {
  readonly ready: Promise<ThreadMetrics>;
  /** Resolves with the first failure of the running thread (never after `stop`). */
  readonly failure: Promise<Error>;
  /** Resolves once the worker thread has exited. */
  readonly exited: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, (reply: ThreadReply | undefined) => void>();
  #nextId = 0;
  #stopping = false;
  #gone = false;

  readonly name: string;
  readonly logger: Logger;
  /** The thread's kernel id, once it is ready (Linux). */
  tid: number | undefined;

  constructor(name: string, start: ThreadStart, logger: Logger) {
    this.name = name;
    this.logger = logger;
    let onReady: (metrics: ThreadMetrics) => void = () => undefined;
    let onStartFailure: (error: Error) => void = () => undefined;
    let onFailure: (error: Error) => void = () => undefined;
    let started = false;
    this.ready = new Promise((resolve, reject) => {
      onReady = resolve;
      onStartFailure = reject;
    });
    // Nobody may be waiting for readiness when a thread fails before the others are ready.
    this.ready.catch(() => undefined);
    this.failure = new Promise((resolve) => {
      onFailure = resolve;
    });
    let failed = false;
    const fail = (text: string): void => {
      // A thread that threw also exits: one report.
      if (failed) return;
      failed = true;
      if (!started) {
        onStartFailure(new Error(`Cannot start the component thread ${this.name}: ${text}`));
        return;
      }
      if (this.#stopping) {
        logger.error("Component thread failed while stopping", { thread: this.name, error: text });
        return;
      }
      logger.error("Component thread failed", { thread: this.name, error: text });
      onFailure(new Error(`Component thread ${this.name} failed: ${text}`));
    };
    this.#worker = newComponentWorker(start);
    this.#worker.on("message", (reply: ThreadReply) => {
      switch (reply.kind) {
        case "log":
          replayLog(logger, reply);
          return;
        case "ready":
          started = true;
          this.tid = reply.tid;
          onReady(reply.metrics);
          return;
        case "failed":
          fail(reply.error);
          return;
        case "stopped":
          // Pooled connections and timers of stopped parts must not keep the thread alive.
          void this.#worker.terminate();
          return;
        case "metrics":
        case "memory":
          this.#pending.get(reply.id)?.(reply);
          this.#pending.delete(reply.id);
          return;
      }
    });
    this.#worker.on("error", (error: Error) => fail(error.stack ?? error.message));
    this.exited = new Promise((resolve) => {
      this.#worker.once("exit", (code) => {
        this.#gone = true;
        if (!this.#stopping) fail(`the thread exited with code ${code}`);
        for (const settle of this.#pending.values()) settle(undefined);
        this.#pending.clear();
        resolve();
      });
    });
  }

  /** Asks the components to stop; terminates the thread if they take longer than the grace. */
  async stop(): Promise<void> {
    if (!this.#stopping) {
      this.#stopping = true;
      if (!this.#gone) this.#post({ kind: "stop" });
    }
    const timer = setTimeout(() => {
      this.logger.error("Component thread did not stop in time; terminating it", {
        thread: this.name,
        graceSeconds: stopGraceMs / 1000,
      });
      void this.#worker.terminate();
    }, stopGraceMs);
    await this.exited;
    clearTimeout(timer);
  }

  utilization(): EventLoopUtilization {
    return this.#worker.performance.eventLoopUtilization();
  }

  /** The thread's metrics; none once it has exited. */
  async metrics(): Promise<ThreadMetrics> {
    const reply = await this.#ask((id) => ({ kind: "metrics", id }));
    return reply?.kind === "metrics" ? reply.metrics : [];
  }

  async memory(gc: boolean): Promise<ThreadMemory> {
    const reply = await this.#ask((id) => ({ kind: "memory", id, gc }));
    return reply?.kind === "memory"
      ? { thread: this.name, heapUsed: reply.heapUsed, heapTotal: reply.heapTotal }
      : { thread: this.name, heapUsed: 0, heapTotal: 0 };
  }

  #ask(request: (id: number) => ThreadRequest): Promise<ThreadReply | undefined> {
    if (this.#gone) return Promise.resolve(undefined);
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#post(request(id));
    });
  }

  #post(request: ThreadRequest): void {
    this.#worker.postMessage(request);
  }
}

/**
 * A worker running component-thread-worker. Workers do not inherit tsx's loader: from the
 * TypeScript sources, a small bootstrap registers it in the thread first.
 */
function newComponentWorker(start: ThreadStart): Worker {
  const typescript = import.meta.url.endsWith(".ts");
  const entry = new URL(`./component-thread-worker.${typescript ? "ts" : "js"}`, import.meta.url);
  if (!typescript) return new Worker(entry, { workerData: start });
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: start });
}

function replayLog(logger: Logger, line: Extract<ThreadReply, { kind: "log" }>): void {
  const context = JSON.parse(line.context) as LogFields;
  const fields = JSON.parse(line.fields) as LogFields;
  const target = Object.keys(context).length === 0 ? logger : logger.with(context);
  if (line.level === "info") target.info(line.message, fields);
  else if (line.level === "error") target.error(line.message, fields);
  else target.v(line.level).info(line.message, fields);
}

/**
 * Serves the threads' metrics from `registry`: one entry per metric name, which at each scrape
 * asks every thread once for its metrics and sums their values (and those of a metric of the
 * same name the main thread keeps, e.g. the queueing webhook's) with prom-client's cluster
 * aggregation.
 */
function registerThreadMetrics(
  registry: Registry,
  threads: readonly ComponentThread[],
  descriptors: readonly ThreadMetrics[],
): void {
  const locals: Metric[] = [];
  const names = new Set<string>();
  for (const metric of descriptors.flat()) names.add(metric.name);
  for (const name of names) {
    const local = registry.getSingleMetric(name);
    if (local === undefined) continue;
    locals.push(local);
    registry.removeSingleMetric(name);
  }
  type Aggregated = Pick<Registry, "getSingleMetric">;
  let scraping: Promise<Aggregated> | undefined;
  // Every metric's get() of one scrape starts before any resolves: one question per thread.
  const scrape = (): Promise<Aggregated> => {
    scraping ??= Promise.all([
      Promise.all(locals.map((metric) => metric.get())),
      ...threads.map((thread) => thread.metrics()),
    ])
      .then((lists): Aggregated => AggregatorRegistry.aggregate(lists as ThreadMetrics[]))
      .finally(() => {
        scraping = undefined;
      });
    return scraping;
  };
  for (const metric of descriptors.flat()) {
    if (registry.getSingleMetric(metric.name) !== undefined) continue;
    const { name, help, type, aggregator } = metric;
    const merged = {
      name,
      help,
      type,
      aggregator,
      get: async () =>
        (await (await scrape()).getSingleMetric(name)?.get()) ?? {
          name,
          help,
          type,
          aggregator,
          values: [],
        },
    };
    registry.registerMetric(merged as unknown as Metric);
  }
}
