/**
 * `npm run bench:queueing`: Kueue-style queued admission end to end, against an in-process gantry
 * (memory storage, or `--storage sqlite` for gantry's default store; real HTTP on 127.0.0.1)
 * running only the API server and the queueing
 * component (no scheduler or kubelets: the end point is admission, not placement).
 *
 * 1. Single pods: `--pods` (10,000) plain pods with a queue name, created 64 at a time, in a
 *    ClusterQueue with free quota: pods admitted per second, from the first create to the last
 *    `kueue.x-k8s.io/admission` gate removed.
 * 2. Pod groups: `--groups` (1,000) groups of 10 pods (`pod-group-name`, `pod-group-total-count`),
 *    same measure; reported as missing when groups never get admitted.
 * 3. Kueue's scheduler "baseline" (test/performance/scheduler/configs/baseline): 5 cohorts × 6
 *    ClusterQueues (nominal 20 CPUs, borrowingLimit 100, reclaimWithinCohort Any,
 *    withinClusterQueue LowerPriority); per ClusterQueue 350 small (1 CPU, priority 50, one per
 *    100 ms, runs 200 ms), 100 medium (5 CPUs, priority 100, one per 500 ms, 500 ms) and 50 large
 *    (20 CPUs, priority 200, one per 1,200 ms, 1 s) Workloads: 15,000 in all. Like Kueue's
 *    minimalkueue runner, Workloads are created directly and this bench plays their job
 *    controller: an admitted Workload finishes after its runtime, an evicted one gives its quota
 *    back and is requeued. Intervals and runtimes are divided by `--compress` (10). Reports
 *    Kueue's figures: wall time, average time to admission per class (creation to the last
 *    admission), and the minimum over ClusterQueues of the time-averaged CPU reservation as a
 *    share of nominal quota; times are also shown scaled back by the compression factor.
 *
 * The pods are created from a worker thread (bench/load.ts), as a user's client sends them from
 * a process of its own, and admissions are followed from another (bench/admission-observer.ts),
 * so that neither's work lands on the API server's thread.
 * `--queueing-process` runs the queueing controllers as `gantry queueing` in a process of their
 * own, as Kueue runs beside kube-apiserver, with the pod webhook in the API server;
 * `--component-threads` runs them in a worker thread of the bench's process, as
 * `gantry up --component-threads` does; without either they run on the API server's thread, as
 * plain `gantry up` runs them. CPU figures count every thread and both processes, the bench's
 * own clients (creates, a watch of admitted pods) included; the single-pod and group phases
 * also print each thread's event-loop utilization.
 *
 * `--pod-workers N` sets Kueue's `controller.groupKindConcurrency.Pod` (5, Kueue's default).
 * `--profile FILE` writes a `.cpuprofile` of the API server's thread during the single-pod phase.
 *
 * Not a test: figures depend on the machine. Each phase stops after `--budget` seconds (240)
 * and says so. Progress goes to stderr every two seconds.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { KueueWorkload, Pod } from "../src/api/index.ts";
import { newInformerFactory, podsResource, type ResourceRef } from "../src/client/index.ts";
import { startAllInOne } from "../src/cmd/all-in-one.ts";
import { connectionFromKubeconfig, newComponentClient } from "../src/cmd/component-client.ts";
import { defaultQueueingConfig, type QueueingConfig } from "../src/queueing/index.ts";
import { makeQueuedPod, type QueuedPodOptions } from "../src/testing/index.ts";
import { discardLogger } from "../src/util/index.ts";
import { gated, startAdmissionObserver } from "./admission-observer.ts";
import { startLoadClient } from "./load-client.ts";
import { profiled } from "./profile.ts";
import { fmt, percentile, table } from "./stats.ts";
import { cpuPerUnitByThread, threadCpuSeconds } from "./thread-cpu.ts";

const { values } = parseArgs({
  options: {
    pods: { type: "string", default: "10000" },
    groups: { type: "string", default: "1000" },
    compress: { type: "string", default: "10" },
    budget: { type: "string", default: "240" },
    only: { type: "string", default: "" },
    "queueing-process": { type: "boolean", default: false },
    "component-threads": { type: "boolean", default: false },
    storage: { type: "string", default: "memory" },
    profile: { type: "string" },
    "pod-workers": { type: "string", default: "5" },
  },
});
if (values.storage !== "memory" && values.storage !== "sqlite") {
  throw new RangeError(`Cannot use --storage=${values.storage}: choose memory or sqlite`);
}
const storage: "memory" | "sqlite" = values.storage;
const podWorkers = Number(values["pod-workers"]);
if (!Number.isInteger(podWorkers) || podWorkers < 1) {
  throw new RangeError(
    `Cannot use --pod-workers=${values["pod-workers"]}: give a whole number ≥ 1`,
  );
}
/** Kueue's defaults, with `controller.groupKindConcurrency.Pod` from `--pod-workers`. */
const queueingConfig: QueueingConfig = {
  ...defaultQueueingConfig,
  groupKindConcurrency: { ...defaultQueueingConfig.groupKindConcurrency, Pod: podWorkers },
};
const queueingProcess = values["queueing-process"];
const componentThreads = values["component-threads"];
const podCount = Number(values.pods);
const groupCount = Number(values.groups);
const compress = Number(values.compress);
const budgetMs = Number(values.budget) * 1000;
const only = new Set(values.only === "" ? [] : values.only.split(","));
const runs = (phase: string): boolean => only.size === 0 || only.has(phase);

const kueue = (resource: string, kind: string, namespaced: boolean): ResourceRef => ({
  group: "kueue.x-k8s.io",
  version: "v1beta1",
  resource,
  kind,
  namespaced,
});
const flavorsRef = kueue("resourceflavors", "ResourceFlavor", false);
const clusterQueuesRef = kueue("clusterqueues", "ClusterQueue", false);
const localQueuesRef = kueue("localqueues", "LocalQueue", true);
const workloadsRef = kueue("workloads", "Workload", true);
const apiVersion = "kueue.x-k8s.io/v1beta1";

const progress = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

type BenchClient = ReturnType<typeof newComponentClient>;

/**
 * The API server's `apiserver_request_total` from /metrics, summed per
 * `VERB resource[/subresource]` (watches and lists included).
 */
async function requestCounts(client: BenchClient): Promise<Map<string, number>> {
  const text = await client.getRaw("/metrics");
  const counts = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line.startsWith("apiserver_request_total{")) continue;
    const labels = new Map(
      [...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] ?? "", m[2] ?? ""]),
    );
    const sub = labels.get("subresource") ?? "";
    const key = `${labels.get("verb") ?? ""} ${labels.get("resource") ?? ""}${sub === "" ? "" : `/${sub}`}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1)));
  }
  return counts;
}

/** `after - before` per key, zero differences left out. */
function countDelta(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [key, n] of after) {
    const d = n - (before.get(key) ?? 0);
    if (d > 0) delta.set(key, d);
  }
  return delta;
}

/** CPU seconds a process has used so far (Linux `/proc/<pid>/stat`, 100 ticks a second). */
function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** This process's CPU seconds, plus the queueing process's when there is one. */
type CpuMeter = () => number;

/** Event-loop utilization per thread since the meter was made: `[thread, share busy]`. */
type UtilizationMeter = () => readonly (readonly [string, number])[];

/**
 * CPU ms per `units` of each thread of this process since the meter was made, as a line;
 * `observer`: the admission observer's thread, named apart from the rest.
 */
type ThreadCpuMeter = (units: number, observer?: number) => string;

interface Bench {
  readonly client: BenchClient;
  readonly signal: AbortSignal;
  readonly cpu: CpuMeter;
  /** The API server's address, for the load worker. */
  readonly url: string;
  /** Starts measuring each thread's event-loop utilization from now. */
  readonly utilization: () => UtilizationMeter;
  /** Starts measuring each thread's CPU time from now. */
  readonly threadCpu: () => ThreadCpuMeter;
  /** For clients in other threads. */
  readonly kubeconfigPath: string;
}

async function withGantry<T>(fn: (bench: Bench) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), "gantry-bench-queueing-"));
  const gantry = await startAllInOne({
    dataDir,
    port: 0,
    address: "127.0.0.1",
    storage,
    logger: discardLogger,
    ...(queueingProcess
      ? { queueing: queueingConfig }
      : {
          components: {
            queueing: { config: queueingConfig },
            ...(componentThreads ? { threads: [["queueing"]] } : {}),
          },
        }),
  });
  const stop = new AbortController();
  let child: ChildProcess | undefined;
  try {
    if (queueingProcess) {
      const gantryBin = join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "gantry.js");
      const configFile = join(dataDir, "queueing-bench.yaml");
      writeFileSync(
        configFile,
        `queueing:\n  controller:\n    groupKindConcurrency:\n      Pod: ${podWorkers}\n`,
      );
      child = spawn(
        process.execPath,
        [
          gantryBin,
          "queueing",
          "--kubeconfig",
          gantry.kubeconfigPath,
          "--config",
          configFile,
          "--leader-elect=false",
          "--secure-port",
          "0",
        ],
        // Its log (events dropped when the recorder's queue is full, say) is left out.
        { stdio: "ignore" },
      );
    }
    const pid = child?.pid;
    const cpu: CpuMeter = () => {
      const own = process.cpuUsage();
      return (own.user + own.system) / 1e6 + processCpuSeconds(pid);
    };
    const client = newComponentClient(connectionFromKubeconfig(gantry.kubeconfigPath), "bench");
    const utilization = (): UtilizationMeter => {
      const main = performance.eventLoopUtilization();
      const threads = gantry.components.threads?.utilization() ?? [];
      return () => [
        ["API server (main)", performance.eventLoopUtilization(main).utilization],
        ...threads.map((before) => {
          const now = gantry.components.threads
            ?.utilization()
            .find((t) => t.thread === before.thread);
          const busy =
            now === undefined
              ? 0
              : performance.eventLoopUtilization(now.elu, before.elu).utilization;
          return [before.thread, busy] as const;
        }),
      ];
    };
    const threadCpu = (): ThreadCpuMeter => {
      const before = threadCpuSeconds();
      const names = new Map<number, string>([[process.pid, "API server (main)"]]);
      for (const { thread, tid } of gantry.components.threads?.tids() ?? []) {
        if (tid !== undefined) names.set(tid, thread);
      }
      return (units, observer) => {
        const named =
          observer === undefined ? names : new Map([...names, [observer, "bench observer"]]);
        return cpuPerUnitByThread(before, threadCpuSeconds(), named, units);
      };
    };
    return await fn({
      client,
      signal: stop.signal,
      cpu,
      url: gantry.url,
      utilization,
      threadCpu,
      kubeconfigPath: gantry.kubeconfigPath,
    });
  } finally {
    stop.abort();
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await gantry.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Resolves once the queueing controllers admit a pod: they run and their caches synced. */
async function untilQueueingRuns(client: BenchClient, deadline: number): Promise<void> {
  await client.create(podsResource, plainPod("queueing-probe"));
  while (performance.now() < deadline) {
    const pod = (await client.get(podsResource, "default", "queueing-probe")) as Pod;
    if (!gated(pod)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the queueing controllers admitted no pod");
}

interface PodPhase {
  readonly created: number;
  readonly admitted: number;
  readonly createSeconds: number;
  readonly wallSeconds: number;
  /**
   * p50 and p99 of the time from each pod's creation to its ungating, in seconds (creation
   * timestamps have whole seconds: up to one second more).
   */
  readonly waitSeconds: readonly [number, number];
  /** CPU time of this process (every component and the bench's own client) over the phase. */
  readonly cpuSeconds: number;
  /** API requests made from the first create to the last admission, per `VERB resource`. */
  readonly requests: ReadonlyMap<string, number>;
  /** Each thread's event-loop utilization over the phase (the load worker's left out). */
  readonly threads: readonly (readonly [string, number])[];
  /**
   * CPU ms per admitted pod of each thread of this process (the load worker's thread has ended
   * by then and is left out); empty where /proc is not there.
   */
  readonly cpuByThread: string;
  readonly note: string;
}

/**
 * Creates `pods` (64 at a time, from the load worker) and waits until every one is ungated or
 * the budget runs out.
 */
async function podPhase(name: string, pods: readonly Pod[]): Promise<PodPhase> {
  return withGantry(async ({ client, cpu, url, utilization, threadCpu, kubeconfigPath }) => {
    await client.create(flavorsRef, {
      apiVersion,
      kind: "ResourceFlavor",
      metadata: { name: "default-flavor" },
    } as never);
    await client.create(clusterQueuesRef, {
      apiVersion,
      kind: "ClusterQueue",
      metadata: { name: "cluster-queue" },
      spec: {
        namespaceSelector: {},
        resourceGroups: [
          {
            coveredResources: ["cpu", "memory"],
            flavors: [
              {
                name: "default-flavor",
                resources: [
                  { name: "cpu", nominalQuota: 1_000_000 },
                  { name: "memory", nominalQuota: "100Ti" },
                ],
              },
            ],
          },
        ],
      },
    } as never);
    await client.create(localQueuesRef, {
      apiVersion,
      kind: "LocalQueue",
      metadata: { namespace: "default", name: "user-queue" },
      spec: { clusterQueue: "cluster-queue" },
    } as never);
    // Admissions are followed from a thread of its own: its watch is not the server's work.
    const observer = startAdmissionObserver(kubeconfigPath);
    await observer.synced;
    await untilQueueingRuns(client, performance.now() + 60_000);
    const load = startLoadClient(progress);
    const createPods = (paths: readonly string[]) =>
      load.run({
        op: "requests",
        url,
        method: "POST",
        paths,
        bodies: pods.slice(0, paths.length).map((pod) => JSON.stringify(pod)),
        clients: 64,
        status: 201,
        budgetMs,
      });
    // Creates, then (profiled with them) the wait for every created pod's admission.
    let createdAt: number | undefined;
    const createAndAdmit = async (paths: readonly string[]) => {
      const created = await createPods(paths);
      createdAt = performance.now();
      const until = performance.now() + budgetMs;
      while (observer.admitted() < created.count && performance.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      return created;
    };
    // The worker compiles bench/load.ts before its first task: not part of the measure.
    await createPods([]);
    const countsBefore = await requestCounts(client);
    const cpuBefore = cpu();
    const busy = utilization();
    const byThread = threadCpu();
    const started = performance.now();
    const deadline = started + budgetMs;
    let errors = 0;
    let failure = "";
    const ticker = setInterval(() => {
      progress(
        `${name}: ${observer.admitted()}/${pods.length} admitted after ${fmt((performance.now() - started) / 1000, 1)} s`,
      );
    }, 2000);
    try {
      try {
        const created = await profiled(
          name === "single pods" ? values.profile : undefined,
          () => createAndAdmit(pods.map(() => "/api/v1/namespaces/default/pods")),
          (file) => progress(`profile of the ${name} phase written to ${file}`),
        );
        errors = pods.length - created.count;
      } catch (error: unknown) {
        // A create answered otherwise than 201 stops the worker: count what made it.
        failure = `creates failed: ${String(error)}; `;
        const listed = await client.list(podsResource, "default");
        errors = pods.length - (listed.items.length - 1);
      } finally {
        await load.close();
      }
      const createSeconds = ((createdAt ?? performance.now()) - started) / 1000;
      while (observer.admitted() < pods.length - errors && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const done = observer.admitted() >= pods.length - errors;
      const wallEnd = done ? observer.lastAtMs() - performance.timeOrigin : performance.now();
      const cpuSeconds = cpu() - cpuBefore;
      const threads = busy();
      const cpuByThread = byThread(observer.admitted(), observer.tid());
      // Let the writes that follow the last ungate (events, queue statuses) land before counting.
      await new Promise((r) => setTimeout(r, 2000));
      const requests = countDelta(countsBefore, await requestCounts(client));
      return {
        requests,
        created: pods.length - errors,
        admitted: observer.admitted(),
        createSeconds,
        wallSeconds: (wallEnd - started) / 1000,
        waitSeconds: [percentile(observer.waits, 50) / 1000, percentile(observer.waits, 99) / 1000],
        cpuSeconds,
        threads,
        cpuByThread,
        note: `${failure}${errors > 0 ? `${errors} creates failed; ` : ""}${done ? "" : "budget ran out"}`,
      };
    } finally {
      clearInterval(ticker);
      await observer.stop();
    }
  });
}

/** A queued pod of 100m CPU in `user-queue`. */
const plainPod = (name: string, options: QueuedPodOptions = {}): Pod =>
  makeQueuedPod(name, { image: "pause", requests: { cpu: "100m" }, ...options });

// ---- Kueue's baseline scenario ----

interface WorkloadClass {
  readonly name: "small" | "medium" | "large";
  readonly count: number;
  readonly cpu: number;
  readonly priority: number;
  readonly everyMs: number;
  readonly runMs: number;
}
const classes: readonly WorkloadClass[] = [
  { name: "small", count: 350, cpu: 1, priority: 50, everyMs: 100, runMs: 200 },
  { name: "medium", count: 100, cpu: 5, priority: 100, everyMs: 500, runMs: 500 },
  { name: "large", count: 50, cpu: 20, priority: 200, everyMs: 1200, runMs: 1000 },
];
const cohorts = 5;
const queuesPerCohort = 6;
const nominal = 20;

interface BaselineResult {
  readonly total: number;
  readonly finished: number;
  readonly wallSeconds: number;
  readonly admissionMs: Readonly<Record<string, number>>;
  readonly minUsage: number;
  readonly preemptions: number;
  readonly note: string;
}

async function baseline(): Promise<BaselineResult> {
  return withGantry(async ({ client, signal }) => {
    if (queueingProcess) await untilQueueingRuns(client, performance.now() + 60_000);
    await client.create(flavorsRef, {
      apiVersion,
      kind: "ResourceFlavor",
      metadata: { name: "default" },
    } as never);
    const queues: string[] = [];
    for (let c = 0; c < cohorts; c++) {
      for (let q = 0; q < queuesPerCohort; q++) {
        const name = `cq-${c}-${q}`;
        queues.push(name);
        await client.create(clusterQueuesRef, {
          apiVersion,
          kind: "ClusterQueue",
          metadata: { name },
          spec: {
            cohort: `cohort-${c}`,
            namespaceSelector: {},
            preemption: { reclaimWithinCohort: "Any", withinClusterQueue: "LowerPriority" },
            resourceGroups: [
              {
                coveredResources: ["cpu"],
                flavors: [
                  {
                    name: "default",
                    resources: [{ name: "cpu", nominalQuota: nominal, borrowingLimit: 100 }],
                  },
                ],
              },
            ],
          },
        } as never);
        await client.create(localQueuesRef, {
          apiVersion,
          kind: "LocalQueue",
          metadata: { namespace: "default", name },
          spec: { clusterQueue: name },
        } as never);
      }
    }
    const total = queues.length * classes.reduce((n, c) => n + c.count, 0);
    type Tracked = {
      cls: WorkloadClass;
      cq: string;
      created: number;
      admitted?: number;
      running: boolean;
      finished: boolean;
    };
    const tracked = new Map<string, Tracked>();
    const usage = new Map<string, number>(queues.map((q) => [q, 0]));
    const usageIntegral = new Map<string, number>(queues.map((q) => [q, 0]));
    let lastSample = performance.now();
    const sample = (): void => {
      const now = performance.now();
      for (const [q, u] of usage)
        usageIntegral.set(q, (usageIntegral.get(q) ?? 0) + u * (now - lastSample));
      lastSample = now;
    };
    let finished = 0;
    let preemptions = 0;
    let lastFinish = 0;
    const informers = newInformerFactory(client);
    const isTrue = (w: KueueWorkload, type: string): boolean =>
      (w.status?.conditions ?? []).some((c) => c.type === type && c.status === "True");
    const writeStatus = async (
      w: KueueWorkload,
      edit: (next: KueueWorkload) => void,
    ): Promise<void> => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const current =
          attempt === 0
            ? w
            : ((await client.get(workloadsRef, "default", w.metadata.name ?? "")) as KueueWorkload);
        const next = structuredClone(current);
        edit(next);
        try {
          await client.updateStatus(workloadsRef, next as never);
          return;
        } catch {
          // a conflict: read again
        }
      }
    };
    const now = (): string => `${new Date().toISOString().slice(0, 19)}Z`;
    const onWorkload = (o: unknown): void => {
      const w = o as KueueWorkload;
      const t = tracked.get(w.metadata.name ?? "");
      if (t === undefined || t.finished) return;
      const reserved = isTrue(w, "QuotaReserved");
      if (reserved && isTrue(w, "Evicted")) {
        // The job controller's part of a preemption: stop, give the quota back, requeue.
        if (t.running) {
          sample();
          usage.set(t.cq, (usage.get(t.cq) ?? 0) - t.cls.cpu);
          t.running = false;
          preemptions++;
        }
        void writeStatus(w, (next) => {
          const at = now();
          const message =
            (next.status?.conditions ?? []).find((c) => c.type === "Evicted")?.message ?? "";
          next.status = {
            ...next.status,
            conditions: [
              ...(next.status?.conditions ?? []).filter(
                (c) => !["QuotaReserved", "Admitted", "Requeued"].includes(c.type),
              ),
              {
                type: "QuotaReserved",
                status: "False",
                reason: "Pending",
                message,
                lastTransitionTime: at,
              },
              {
                type: "Admitted",
                status: "False",
                reason: "NoReservation",
                message: "The workload has no reservation",
                lastTransitionTime: at,
              },
              {
                type: "Requeued",
                status: "True",
                reason: "Preempted",
                message,
                lastTransitionTime: at,
              },
            ],
          };
          delete next.status.admission;
        });
        return;
      }
      if (reserved && !t.running) {
        sample();
        t.running = true;
        t.admitted = performance.now();
        usage.set(t.cq, (usage.get(t.cq) ?? 0) + t.cls.cpu);
        const admittedAt = t.admitted;
        setTimeout(() => {
          if (!t.running || t.admitted !== admittedAt) return;
          const current = informerStore.get("default", w.metadata.name ?? "");
          if (current === undefined || isTrue(current as KueueWorkload, "Evicted")) return;
          sample();
          t.running = false;
          t.finished = true;
          usage.set(t.cq, (usage.get(t.cq) ?? 0) - t.cls.cpu);
          finished++;
          lastFinish = performance.now();
          void writeStatus(current as KueueWorkload, (next) => {
            next.status = {
              ...next.status,
              conditions: [
                ...(next.status?.conditions ?? []).filter((c) => c.type !== "Finished"),
                {
                  type: "Finished",
                  status: "True",
                  reason: "Succeeded",
                  message: "done",
                  lastTransitionTime: now(),
                },
              ],
            };
          });
        }, t.cls.runMs / compress);
      }
    };
    const informer = informers.forResource<KueueWorkload>(workloadsRef);
    const informerStore = informer.lister;
    informer.addEventHandler({ onAdd: onWorkload, onUpdate: (_o, n) => onWorkload(n) });
    void informers.start(signal);
    await informers.waitForSync(signal);

    const started = performance.now();
    const deadline = started + budgetMs;
    const ticker = setInterval(() => {
      progress(
        `baseline: ${tracked.size}/${total} created, ${finished} finished, ${preemptions} preempted after ${fmt((performance.now() - started) / 1000, 1)} s`,
      );
    }, 2000);
    let errors = 0;
    const creations: Promise<void>[] = [];
    for (const cq of queues) {
      for (const cls of classes) {
        creations.push(
          (async () => {
            for (let i = 0; i < cls.count; i++) {
              const due = started + (i * cls.everyMs) / compress;
              const wait = due - performance.now();
              if (wait > 0) await new Promise((r) => setTimeout(r, wait));
              if (performance.now() > deadline) return;
              const name = `${cq}-${cls.name}-${i}`;
              tracked.set(name, {
                cls,
                cq,
                created: performance.now(),
                running: false,
                finished: false,
              });
              try {
                await client.create(workloadsRef, {
                  apiVersion,
                  kind: "Workload",
                  metadata: { name, namespace: "default" },
                  spec: {
                    queueName: cq,
                    priority: cls.priority,
                    podSets: [
                      {
                        name: "main",
                        count: 1,
                        template: {
                          spec: {
                            restartPolicy: "Never",
                            containers: [
                              {
                                name: "c",
                                image: "pause",
                                resources: { requests: { cpu: String(cls.cpu) } },
                              },
                            ],
                          },
                        },
                      },
                    ],
                  },
                } as never);
              } catch {
                errors++;
                tracked.delete(name);
              }
            }
          })(),
        );
      }
    }
    await Promise.all(creations);
    while (finished < tracked.size && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    clearInterval(ticker);
    sample();
    const done = finished >= tracked.size && tracked.size === total;
    const end = done ? lastFinish : performance.now();
    const wallMs = end - started;
    const admissionMs: Record<string, number> = {};
    for (const cls of classes) {
      const waits = [...tracked.values()]
        .filter((t) => t.cls === cls && t.admitted !== undefined)
        .map((t) => (t.admitted ?? 0) - t.created);
      admissionMs[cls.name] = waits.reduce((a, b) => a + b, 0) / Math.max(1, waits.length);
    }
    const shares = queues.map((q) => (usageIntegral.get(q) ?? 0) / (wallMs * nominal));
    return {
      total,
      finished,
      wallSeconds: wallMs / 1000,
      admissionMs,
      minUsage: Math.min(...shares) * 100,
      preemptions,
      note: `${errors > 0 ? `${errors} creates failed; ` : ""}${done ? "" : "budget ran out"}`,
    };
  });
}

/** The API requests per admitted pod, mutating ones first. */
function requestTable(title: string, r: PodPhase): string {
  const mutating = /^(POST|PUT|PATCH|DELETE|CREATE|UPDATE|APPLY)\b/;
  const entries = [...r.requests].sort(
    (a, b) =>
      Number(mutating.test(b[0])) - Number(mutating.test(a[0])) ||
      b[1] - a[1] ||
      a[0].localeCompare(b[0]),
  );
  const per = (n: number): string => fmt(n / Math.max(1, r.admitted), 2);
  const writes = entries.filter(([k]) => mutating.test(k)).reduce((n, [, v]) => n + v, 0);
  const busy = r.threads.map(([thread, share]) => `${thread} ${fmt(share * 100, 0)} %`);
  return `\nAPI requests per admitted pod, ${title}\n${table(
    ["Request", "Total", "Per pod"],
    [...entries.map(([k, v]) => [k, fmt(v), per(v)]), ["all writes", fmt(writes), per(writes)]],
  )}\nEvent loops busy: ${busy.join(", ")}\n${
    r.cpuByThread === "" ? "" : `CPU per admitted pod by thread (ms): ${r.cpuByThread}\n`
  }`;
}

/** A phase's p50 / p99 wait from creation to ungating. */
function waits(r: PodPhase): string {
  return `${fmt(r.waitSeconds[0], 1)} / ${fmt(r.waitSeconds[1], 1)}`;
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  const requestTables: string[] = [];
  if (runs("pods")) {
    const pods = Array.from({ length: podCount }, (_, i) => plainPod(`pod-${i}`));
    const r = await podPhase("single pods", pods);
    requestTables.push(requestTable("single pods", r));
    rows.push([
      `${fmt(r.created)} single pods`,
      fmt(r.admitted),
      fmt(r.createSeconds, 1),
      fmt(r.wallSeconds, 1),
      fmt(r.admitted / r.wallSeconds),
      waits(r),
      fmt((r.cpuSeconds * 1000) / Math.max(1, r.admitted), 2),
      r.note,
    ]);
  }
  if (runs("groups")) {
    const pods = Array.from({ length: groupCount * 10 }, (_, i) =>
      plainPod(`g${Math.floor(i / 10)}-p${i % 10}`, {
        group: `group-${Math.floor(i / 10)}`,
        total: 10,
      }),
    );
    const r = await podPhase("pod groups", pods);
    requestTables.push(requestTable("pod groups", r));
    rows.push([
      `${fmt(groupCount)} groups × 10 pods`,
      fmt(r.admitted),
      fmt(r.createSeconds, 1),
      fmt(r.wallSeconds, 1),
      `${fmt(r.admitted / r.wallSeconds)} pods (${fmt(r.admitted / 10 / r.wallSeconds)} groups)`,
      waits(r),
      fmt((r.cpuSeconds * 1000) / Math.max(1, r.admitted), 2),
      r.admitted === 0 ? `groups never admitted (pod-group support missing?) ${r.note}` : r.note,
    ]);
  }
  if (rows.length > 0) {
    process.stdout.write(
      `\nPlain-pod admission end to end (gate removed), free quota, ${storage} storage, ${podWorkers} pod reconciler workers\n${table(
        [
          "Workloads",
          "Admitted",
          "Create s",
          "Wall s",
          "Admitted/s",
          "Wait p50 / p99 s",
          "CPU ms/pod",
          "Note",
        ],
        rows,
      )}\n${requestTables.join("")}`,
    );
  }
  if (runs("baseline")) {
    const r = await baseline();
    const scaled = (ms: number): string =>
      `${fmt(ms, 0)} ms (×${compress}: ${fmt(ms * compress, 0)} ms)`;
    process.stdout.write(
      `\nKueue baseline shape (5 cohorts × 6 ClusterQueues, ${fmt(r.total)} Workloads, time compressed ×${compress})\n${table(
        ["Figure", "Value", "Kueue (minimalkueue, envtest)"],
        [
          ["Workloads finished", `${fmt(r.finished)} / ${fmt(r.total)}`, "15,000"],
          ["Wall time", scaled(r.wallSeconds * 1000), "351,116 ms (limit 425,000)"],
          [
            "Avg time to admission, small",
            scaled(r.admissionMs["small"] ?? Number.NaN),
            "215,468 ms (limit 260,000)",
          ],
          [
            "Avg time to admission, medium",
            scaled(r.admissionMs["medium"] ?? Number.NaN),
            "76,768 ms (limit 90,000)",
          ],
          [
            "Avg time to admission, large",
            scaled(r.admissionMs["large"] ?? Number.NaN),
            "6,666 ms (limit 23,000)",
          ],
          ["Min ClusterQueue usage", `${fmt(r.minUsage, 1)} %`, "58.7 % (limit 50 %)"],
          ["Preemptions", fmt(r.preemptions), "–"],
        ],
      )}\n${r.note === "" ? "" : `Note: ${r.note}\n`}`,
    );
  }
}

await main();
