/**
 * `npm run bench:scheduler`: kube-scheduler's SchedulingBasic shape end to end through the API.
 * The control plane runs in this thread as `gantry up` wires it (API server on 127.0.0.1, the
 * scheduler, the emulated kubelets and, unless `--controllers=false`, the controller manager,
 * each with its own HTTP client); a worker thread creates the pods and watches them.
 *
 *   0. the scheduling cycle alone, without the API.
 *   1. init pods: `--init-pods` pods (1,000, as scheduler_perf's SchedulingBasic
 *      5000Nodes_10000Pods) created in a namespace of their own and bound, not measured.
 *   2. throughput: `--pods` pods (100m CPU, 500Mi) created as fast as the API takes them on
 *      `--nodes` nodes; pods per second from the first create to the last pod bound, and
 *      scheduler_perf's per-second throughput (average, percentiles). Before it, what the idle
 *      control plane spends on the nodes' heartbeats.
 *   3. memory: more pods (at most 500 waiting to start) until `--running-pods` are Running,
 *      then RSS and heap after a full GC, whether every node is still Ready and how old the
 *      oldest node Lease is.
 *
 * Options: --nodes 5000 --init-pods 1000 --pods 10000 --running-pods 50000 (0 skips phase 3)
 * --clients 16
 * --storage memory|sqlite (memory) --controllers true|false (true) --budget SECONDS (2400)
 * --kubelets true|thread|false (true: emulated kubelets; thread: the same as
 * `--component-threads kubelets`; false: bare nodes)
 * --component-threads false|true|per-component|kubelets (false: every component in the API
 * server's thread; true: as `gantry up --component-threads`, the kubelets in a worker thread
 * and the scheduler and controllers in another; per-component: one thread each; kubelets: only
 * the kubelets in a thread of their own)
 * --profile FILE --profile-phase throughput|memory (a .cpuprofile of the API server's thread).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startAllInOne } from "../src/cmd/all-in-one.ts";
import { defaultThreadLayout, type ThreadLayout } from "../src/cmd/component-thread.ts";
import type { ComponentThreads } from "../src/cmd/components.ts";
import { defaultClusterConfig } from "../src/kubelet/index.ts";
import { discardLogger, newJsonLogger } from "../src/util/index.ts";
import { startLoadClient } from "./load-client.ts";
import { profiled } from "./profile.ts";
import { measureCycle } from "./scheduler-cycle.ts";
import type { SchedulingResult, SchedulingTask } from "./scheduler-load.ts";
import { fmt, percentile, table } from "./stats.ts";
import { cpuPerUnitByThread, threadCpuSeconds, threadWaitSeconds } from "./thread-cpu.ts";
import { throughputOf } from "./throughput.ts";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "5000" },
    "init-pods": { type: "string", default: "1000" },
    pods: { type: "string", default: "10000" },
    "running-pods": { type: "string", default: "50000" },
    clients: { type: "string", default: "16" },
    storage: { type: "string", default: "memory" },
    controllers: { type: "string", default: "true" },
    kubelets: { type: "string", default: "true" },
    "component-threads": { type: "string", default: "false" },
    budget: { type: "string", default: "2400" },
    v: { type: "string", default: "-1" },
    profile: { type: "string" },
    "profile-phase": { type: "string", default: "throughput" },
  },
});

function count(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) {
    throw new RangeError(`Cannot use --${name}=${text}: give a whole number ≥ ${min}`);
  }
  return n;
}

const nodes = count("nodes", values.nodes, 1);
const initPods = count("init-pods", values["init-pods"], 0);
const pods = count("pods", values.pods, 1);
const runningPods = count("running-pods", values["running-pods"], 0);
const clients = count("clients", values.clients, 1);
const budgetMs = count("budget", values.budget, 10) * 1000;
function storageKind(text: string): "memory" | "sqlite" {
  if (text !== "memory" && text !== "sqlite") {
    throw new RangeError(`Cannot use --storage=${text}: choose memory or sqlite`);
  }
  return text;
}
const storage = storageKind(values.storage);
const controllers = values.controllers !== "false";
function kubeletMode(text: string): "in-process" | "thread" | "none" {
  if (text === "true") return "in-process";
  if (text === "thread") return "thread";
  if (text === "false") return "none";
  throw new RangeError(`Cannot use --kubelets=${text}: choose true, thread or false`);
}
/**
 * `true`: emulated kubelets run the nodes; `thread`: the same, in a worker thread of their own;
 * `false`: nodes are bare API objects, as in scheduler_perf (no memory phase then).
 */
const kubeletsAt = kubeletMode(values.kubelets);
const kubelets = kubeletsAt !== "none";
/** Where the components run: `gantry up --component-threads`' layouts, or all in this thread. */
function threadLayout(text: string): ThreadLayout | undefined {
  switch (text) {
    case "false":
      return kubeletsAt === "thread" ? [["kubelets"]] : undefined;
    case "true":
      return defaultThreadLayout;
    case "per-component":
      return [["kubelets"], ["scheduler"], ["controllers", "queueing"]];
    case "kubelets":
      return [["kubelets"]];
    default:
      throw new RangeError(
        `Cannot use --component-threads=${text}: choose false, true, per-component or kubelets`,
      );
  }
}
const layout = threadLayout(values["component-threads"]);
const threadsName =
  layout === undefined ? "none" : layout.map((names) => names.join("+")).join(" | ");
const verbosity = Number(values.v);
function phaseName(text: string): "throughput" | "memory" {
  if (text !== "throughput" && text !== "memory") {
    throw new RangeError(`Cannot use --profile-phase=${text}: choose throughput or memory`);
  }
  return text;
}
const profilePhase = phaseName(values["profile-phase"]);
/** The upstream floor for SchedulingBasic 5000Nodes_10000Pods, and the issue's target. */
const upstreamFloor = 680;
const target = 1000;

const started = performance.now();
const log = (line: string): void => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[${seconds}s] ${line}\n`);
};
const left = (): number => budgetMs - (performance.now() - started);

const load = startLoadClient<SchedulingTask, SchedulingResult>(
  log,
  new URL("./scheduler-worker.js", import.meta.url),
);
const runLoad = (task: SchedulingTask): Promise<SchedulingResult> => load.run(task);

/** The component threads (`--component-threads`), once the control plane runs. */
let componentThreads: ComponentThreads | undefined;

/** The threads named in per-thread CPU figures: this one, the component threads, the load's. */
function threadNames(
  threads: ComponentThreads | undefined,
  loadTid: number | undefined,
): Map<number, string> {
  const names = new Map<number, string>([
    [process.pid, threads === undefined ? "control plane" : "API server"],
  ]);
  for (const { thread, tid } of threads?.tids() ?? [])
    if (tid !== undefined) names.set(tid, thread);
  if (loadTid !== undefined) names.set(loadTid, "load clients");
  return names;
}

interface Memory {
  readonly rss: number;
  /** Every thread's but the load's. */
  readonly heapUsed: number;
  readonly external: number;
  /** The heap of this (the API server's) thread and of each component thread. */
  readonly perThread: readonly { readonly thread: string; readonly heapUsed: number }[];
}

/**
 * Memory after a full collection (run node with --expose-gc; otherwise as it is). The heaps of
 * the component threads, when there are some, are counted in; the load's thread is not.
 */
async function memory(): Promise<Memory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const threads = (await componentThreads?.memory(true)) ?? [];
  if (gc !== undefined) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  const usage = process.memoryUsage();
  const perThread = [
    { thread: componentThreads === undefined ? "main" : "API server", heapUsed: usage.heapUsed },
    ...threads.map((t) => ({ thread: t.thread, heapUsed: t.heapUsed })),
  ];
  return {
    rss: usage.rss,
    heapUsed: perThread.reduce((sum, t) => sum + t.heapUsed, 0),
    external: usage.external,
    perThread,
  };
}

const heapsOf = (m: Memory): string =>
  m.perThread.map((t) => `${t.thread} ${mib(t.heapUsed)}`).join(", ");

/** Each component thread's event-loop utilization between two readings. */
type ThreadElu = ReturnType<ComponentThreads["utilization"]>;
function threadsBusy(before: ThreadElu, after: ThreadElu): string {
  return after
    .map((t, i) => {
      const start = before[i];
      const elu =
        start === undefined
          ? t.elu.utilization
          : performance.eventLoopUtilization(t.elu, start.elu).utilization;
      return `${t.thread} ${fmt(elu * 100)}%`;
    })
    .join(", ");
}

const profileWritten = (file: string): void =>
  log(`profile of the ${profilePhase} phase written to ${file}`);

const mib = (bytes: number): string => fmt(bytes / 2 ** 20);

/** `apiserver_request_total` by verb, resource and subresource (all codes), from /metrics. */
async function requestCounts(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line.startsWith("apiserver_request_total{")) continue;
    const labels = Object.fromEntries(
      [...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] ?? "", m[2] ?? ""]),
    );
    const key = `${labels["verb"]} ${labels["resource"]}${labels["subresource"] ? `/${labels["subresource"]}` : ""}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1)));
  }
  return counts;
}

/** The requests made between two `requestCounts`, per pod, largest first. */
function requestsPerPod(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  pods: number,
): string {
  return [...after]
    .map(([key, n]) => [key, (n - (before.get(key) ?? 0)) / Math.max(1, pods)] as const)
    .filter(([, n]) => n >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => `${key} ${n.toFixed(2)}`)
    .join(", ");
}

/** Write requests per second between two `requestCounts`, for the given keys. */
function ratePerSecond(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  keys: readonly string[],
  seconds: number,
): number {
  const n = keys.reduce((sum, k) => sum + (after.get(k) ?? 0) - (before.get(k) ?? 0), 0);
  return n / seconds;
}

interface Idle {
  /** Process CPU (all threads) as a share of one core. */
  readonly cpu: number;
  readonly elu: number;
  /** Each component thread's event-loop utilization. */
  readonly threads: string;
  readonly leaseWrites: number;
  readonly nodeStatusWrites: number;
}

/** What the control plane spends with nodes and no pods: heartbeats, mostly. */
async function idleCost(url: string, seconds: number): Promise<Idle> {
  const before = await requestCounts(url);
  const cpuBefore = process.cpuUsage();
  const eluBefore = performance.eventLoopUtilization();
  const threadsBefore = componentThreads?.utilization() ?? [];
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = await requestCounts(url);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    cpu: (cpu.user + cpu.system) / 1e6 / elapsed,
    elu: performance.eventLoopUtilization(eluBefore).utilization,
    threads: threadsBusy(threadsBefore, componentThreads?.utilization() ?? []),
    leaseWrites: ratePerSecond(before, after, ["PUT leases", "POST leases"], elapsed),
    nodeStatusWrites: ratePerSecond(
      before,
      after,
      ["PATCH nodes/status", "PUT nodes/status"],
      elapsed,
    ),
  };
}

interface NodeHealth {
  readonly ready: number;
  readonly total: number;
  /** Seconds since the least recently renewed node Lease. */
  readonly oldestRenewalS: number;
}

/** How many nodes are Ready and how stale the oldest Lease is: heartbeats kept up, or not. */
async function nodeHealth(url: string): Promise<NodeHealth> {
  const nodeList = (await (await fetch(`${url}/api/v1/nodes`)).json()) as {
    items: { status?: { conditions?: { type: string; status: string }[] } }[];
  };
  const leaseList = (await (
    await fetch(`${url}/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases`)
  ).json()) as { items: { spec?: { renewTime?: string } }[] };
  const now = Date.now();
  const renewed = leaseList.items.map((l) => Date.parse(l.spec?.renewTime ?? "") || 0);
  return {
    ready: nodeList.items.filter((n) =>
      n.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"),
    ).length,
    total: nodeList.items.length,
    oldestRenewalS: renewed.length === 0 ? Number.NaN : (now - Math.min(...renewed)) / 1000,
  };
}

/**
 * The longest a heartbeat waited for a kubelet worker while `work` ran, sampled every second
 * (in-process kubelets only; `undefined` otherwise). A Lease renewal is due every 10 s; it is
 * that much later, and a node goes NotReady when its Lease is 50 s old.
 */
async function withHeartbeatLag<T>(
  fleet: { heartbeatLagMs(): number } | undefined,
  work: () => Promise<T>,
): Promise<{ readonly result: T; readonly maxLagMs: number | undefined }> {
  if (fleet === undefined) return { result: await work(), maxLagMs: undefined };
  let max = 0;
  const sampler = setInterval(() => {
    max = Math.max(max, fleet.heartbeatLagMs());
  }, 1000);
  try {
    return { result: await work(), maxLagMs: max };
  } finally {
    clearInterval(sampler);
  }
}

/** Waits until every node has its Lease (the kubelets' first heartbeats are done). */
async function waitForLeases(url: string, count: number, deadline: number): Promise<void> {
  while (performance.now() < deadline) {
    const list = (await (
      await fetch(`${url}/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases`)
    ).json()) as { items: unknown[] };
    if (list.items.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** scheduler_perf's node-default.yaml, kept away from any kubelet. */
function bareNode(name: string): object {
  const capacity = { pods: "110", cpu: "4", memory: "32Gi" };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      labels: { "kubernetes.io/hostname": name },
      annotations: { "gantry.dev/kubelet": "none" },
    },
    status: {
      capacity,
      allocatable: capacity,
      conditions: [{ type: "Ready", status: "True" }],
      phase: "Running",
    },
  };
}

/** Creates `count` bare nodes, 16 requests at a time. */
async function createBareNodes(url: string, count: number): Promise<void> {
  let next = 0;
  const one = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      const res = await fetch(`${url}/api/v1/nodes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(bareNode(`node-${i}`)),
      });
      if (res.status !== 201) throw new Error(`Cannot create node-${i}: ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, one));
}

async function createNamespace(url: string, name: string): Promise<void> {
  const res = await fetch(`${url}/api/v1/namespaces`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ metadata: { name } }),
  });
  if (res.status !== 201) throw new Error(`Cannot create namespace ${name}: ${res.status}`);
}

/**
 * scheduler_perf's init pods: created and bound before the measured pods, in a namespace of
 * their own (upstream's namespace-1), so the measured pods meet a cluster with pods on it.
 */
async function bindInitPods(url: string): Promise<void> {
  await createNamespace(url, "bench-init");
  log(`init pods: creating ${fmt(initPods)} pods (not measured)`);
  const run = await runLoad({
    url,
    namespace: "bench-init",
    prefix: "init",
    from: 0,
    count: initPods,
    clients,
    waitRunning: false,
    budgetMs: Math.min(left() * 0.2, 300_000),
    sampleMs: 1000,
    progressMs: 5000,
  });
  const seconds = (run.lastBoundAtMs - run.firstCreateAtMs) / 1000;
  log(`init pods: ${fmt(run.bound)} bound in ${seconds.toFixed(1)} s`);
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench:scheduler: over the ${budgetMs / 1000} s budget; stopping\n`);
    process.exit(1);
  }, budgetMs + 60_000);
  watchdog.unref();
  const cpu = cpus();
  log(
    `gantry bench:scheduler on ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
  );
  log(
    `${fmt(nodes)} nodes, ${fmt(initPods)} init pods, ${fmt(pods)} pods, ${fmt(runningPods)} running pods, ${clients} clients, ${storage} storage, kubelets ${kubelets ? "emulated" : "none (bare nodes)"}, controllers ${controllers ? "on" : "off"}, component threads ${threadsName}`,
  );
  log(`scheduling cycle alone (no API): ${fmt(pods)} pods on ${fmt(nodes)} nodes`);
  const cycle = measureCycle(nodes, pods);
  log(`scheduling cycle alone: ${fmt(cycle.perSecond)} pods/s`);
  const baseline = await memory();
  const dataDir = mkdtempSync(join(tmpdir(), "gantry-bench-scheduler-"));
  const logger =
    verbosity < 0
      ? discardLogger
      : newJsonLogger((line) => process.stderr.write(`${line}\n`), { verbosity });
  const registering = performance.now();
  log(`starting the control plane and registering ${fmt(nodes)} nodes`);
  const plane = await startAllInOne({
    dataDir,
    port: 0,
    address: "127.0.0.1",
    storage,
    logger,
    progress: log,
    components: {
      ...(kubelets ? { cluster: defaultClusterConfig(nodes) } : {}),
      scheduler: true,
      controllers,
      ...(layout === undefined ? {} : { threads: layout }),
      verbosity,
    },
  });
  componentThreads = plane.components.threads;
  try {
    if (!kubelets) await createBareNodes(plane.url, nodes);
    log(
      `${fmt(nodes)} ${kubelets ? "nodes registered" : "bare nodes created"} in ${((performance.now() - registering) / 1000).toFixed(1)} s`,
    );
    // Let the first heartbeats (spread over their first period) and informer resyncs pass.
    if (kubelets) {
      await waitForLeases(plane.url, nodes, performance.now() + 120_000);
      log(`${fmt(nodes)} node Leases created`);
    }
    await new Promise((resolve) => setTimeout(resolve, kubelets ? 12_000 : 3000));
    const idle = kubelets ? await idleCost(plane.url, 10) : undefined;
    if (idle !== undefined) {
      log(
        `idle with ${fmt(nodes)} nodes: CPU ${fmt(idle.cpu * 100)}% of a core, event loop ${fmt(idle.elu * 100)}% busy${idle.threads === "" ? "" : ` (component threads: ${idle.threads})`}; Lease writes ${fmt(idle.leaseWrites)}/s, node status writes ${fmt(idle.nodeStatusWrites, 1)}/s`,
      );
    }
    const withNodes = await memory();
    if (initPods > 0) await bindInitPods(plane.url);
    await createNamespace(plane.url, "bench");

    const requestsBefore = await requestCounts(plane.url);
    log(`throughput: creating ${fmt(pods)} pods with ${clients} clients`);
    const eluBefore = performance.eventLoopUtilization();
    const threadsBefore = componentThreads?.utilization() ?? [];
    const cpuBefore = process.cpuUsage();
    const threadCpuBefore = threadCpuSeconds();
    const threadWaitBefore = threadWaitSeconds();
    const throughputRun = await withHeartbeatLag(plane.fleet, () =>
      profiled(
        profilePhase === "throughput" ? values.profile : undefined,
        () =>
          runLoad({
            url: plane.url,
            namespace: "bench",
            prefix: "pod",
            from: 0,
            count: pods,
            clients,
            waitRunning: false,
            budgetMs: Math.min(left() * 0.4, 600_000),
            sampleMs: 1000,
            progressMs: 5000,
          }),
        profileWritten,
      ),
    );
    const run = throughputRun.result;
    const elu = performance.eventLoopUtilization(eluBefore).utilization;
    const threadsElu = threadsBusy(threadsBefore, componentThreads?.utilization() ?? []);
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMsPerPod = (cpu.user + cpu.system) / 1000 / Math.max(1, run.bound);
    const cpuByThread = cpuPerUnitByThread(
      threadCpuBefore,
      threadCpuSeconds(),
      threadNames(componentThreads, run.tid),
      run.bound,
    );
    const waitByThread = cpuPerUnitByThread(
      threadWaitBefore,
      threadWaitSeconds(),
      threadNames(componentThreads, run.tid),
      run.bound,
    );
    const requestsAfter = await requestCounts(plane.url);
    const elapsedS = (run.lastBoundAtMs - run.firstCreateAtMs) / 1000;
    const e2e = run.bound / elapsedS;
    const createRate = run.created / ((run.lastCreateAtMs - run.firstCreateAtMs) / 1000);
    const bound = throughputOf(run.samples, "bound");
    const createdPerSecond = throughputOf(run.samples, "created");
    log(
      `throughput: ${fmt(run.bound)} pods bound in ${elapsedS.toFixed(1)} s: ${fmt(e2e)} pods/s${run.timedOut ? " (stopped by the time budget)" : ""}`,
    );

    let withPods: Memory | undefined;
    let memoryRun: SchedulingResult | undefined;
    let memoryRequests = "";
    let memoryLagMs: number | undefined;
    let memoryBusy = "";
    let health: NodeHealth | undefined;
    if (runningPods > 0 && kubelets) {
      log(`memory: more pods until ${fmt(runningPods)} are Running`);
      const task: SchedulingTask = {
        url: plane.url,
        namespace: "bench",
        prefix: "pod",
        from: run.created,
        count: Math.max(runningPods, run.created),
        clients,
        waitRunning: true,
        // Creating faster than pods start only queues them in the scheduler and takes the API
        // from the kubelets' heartbeats; the memory phase is about Running pods.
        maxPending: 500,
        budgetMs: Math.max(10_000, left() - 30_000),
        sampleMs: 1000,
        progressMs: 10_000,
      };
      const before = await requestCounts(plane.url);
      const memoryEluBefore = performance.eventLoopUtilization();
      const memoryThreadsBefore = componentThreads?.utilization() ?? [];
      const memoryPhase = await withHeartbeatLag(plane.fleet, () =>
        profiled(
          profilePhase === "memory" ? values.profile : undefined,
          () => runLoad(task),
          profileWritten,
        ),
      );
      memoryRun = memoryPhase.result;
      memoryLagMs = memoryPhase.maxLagMs;
      const memoryThreads = threadsBusy(memoryThreadsBefore, componentThreads?.utilization() ?? []);
      memoryBusy = `${componentThreads === undefined ? "control plane" : "API server"} ${fmt(performance.eventLoopUtilization(memoryEluBefore).utilization * 100)}%${memoryThreads === "" ? "" : `, ${memoryThreads}`}`;
      memoryRequests = requestsPerPod(
        before,
        await requestCounts(plane.url),
        memoryRun.running - run.running,
      );
      health = await nodeHealth(plane.url);
      log(
        `memory: ${fmt(memoryRun.running)} pods Running${memoryRun.timedOut ? " (stopped by the time budget)" : ""}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 3000));
      withPods = await memory();
    }

    const rows = [
      ["scheduling cycle alone, no API (pods/s)", "", fmt(cycle.perSecond)],
      ["pods bound per second, first create → last bound", `≥ ${fmt(target)}`, fmt(e2e)],
      ["per-second throughput: average", `(upstream ≥ ${upstreamFloor})`, fmt(bound.average)],
      [
        "per-second throughput: p50 / p90 / p99",
        "",
        `${fmt(bound.p50)} / ${fmt(bound.p90)} / ${fmt(bound.p99)}`,
      ],
      ["pods created per second (average)", "", fmt(createRate)],
      [
        componentThreads === undefined
          ? "control-plane thread busy (event-loop utilization)"
          : "API server thread busy (event-loop utilization)",
        "",
        `${fmt(elu * 100)}%`,
      ],
      ...(threadsElu === "" ? [] : [["component threads busy", "", threadsElu]]),
      ["process CPU per pod, all threads (ms)", "", fmt(cpuMsPerPod, 2)],
      [
        "per-second creates: p50 / p90",
        "",
        `${fmt(createdPerSecond.p50)} / ${fmt(createdPerSecond.p90)}`,
      ],
      [
        "create request latency p50 / p99 (ms)",
        "",
        `${fmt(percentile(run.createLatencyMs, 50), 1)} / ${fmt(percentile(run.createLatencyMs, 99), 1)}`,
      ],
      [
        "create acknowledged → bound p50 / p99 (ms)",
        "",
        `${fmt(percentile(run.createToBoundMs, 50), 0)} / ${fmt(percentile(run.createToBoundMs, 99), 0)}`,
      ],
      [
        "RSS / heap: process before start (MiB)",
        "",
        `${mib(baseline.rss)} / ${mib(baseline.heapUsed)}`,
      ],
      [
        `RSS / heap: ${fmt(nodes)} nodes, no pods (MiB)`,
        "",
        `${mib(withNodes.rss)} / ${mib(withNodes.heapUsed)}`,
      ],
    ];
    if (idle !== undefined) {
      rows.push(
        [
          `idle with ${fmt(nodes)} nodes: process CPU / event loop busy`,
          "",
          `${fmt(idle.cpu * 100)}% / ${fmt(idle.elu * 100)}%`,
        ],
        [
          "idle: Lease writes / node status writes per second",
          "",
          `${fmt(idle.leaseWrites)} / ${fmt(idle.nodeStatusWrites, 1)}`,
        ],
      );
    }
    if (memoryRun !== undefined) {
      const runningRate = throughputOf(memoryRun.samples, "running");
      rows.push([
        "memory phase: pods Running per second, average / p50 / p90",
        "",
        `${fmt(runningRate.average)} / ${fmt(runningRate.p50)} / ${fmt(runningRate.p90)}`,
      ]);
      rows.push(["memory phase: threads busy (event-loop utilization)", "", memoryBusy]);
    }
    const lag = (ms: number | undefined): string =>
      ms === undefined ? "n/a" : `${fmt(ms / 1000, 1)} s`;
    if (plane.fleet !== undefined) {
      rows.push([
        "longest heartbeat wait for a kubelet worker: throughput / memory phase",
        "",
        `${lag(throughputRun.maxLagMs)} / ${lag(memoryLagMs)}`,
      ]);
    }
    if (health !== undefined) {
      rows.push([
        "after the memory phase: nodes Ready; oldest Lease renewal",
        "",
        `${fmt(health.ready)} / ${fmt(health.total)}; ${fmt(health.oldestRenewalS, 1)} s ago`,
      ]);
    }
    if (withPods !== undefined) {
      rows.push([
        `RSS / heap: ${fmt(nodes)} nodes, ${fmt(memoryRun?.running ?? 0)} Running pods (MiB)`,
        "",
        `${mib(withPods.rss)} / ${mib(withPods.heapUsed)}`,
      ]);
      rows.push([
        "heap per Running pod (KiB)",
        "",
        fmt(
          (withPods.heapUsed - withNodes.heapUsed) / Math.max(1, memoryRun?.running ?? 0) / 1024,
          1,
        ),
      ]);
    }
    process.stdout.write(`\n${table(["measure", "target", "result"], rows)}\n\n`);
    process.stdout.write(
      `heap per thread, ${fmt(nodes)} nodes, no pods (MiB): ${heapsOf(withNodes)}\n`,
    );
    if (withPods !== undefined) {
      process.stdout.write(
        `heap per thread, ${fmt(memoryRun?.running ?? 0)} Running pods (MiB): ${heapsOf(withPods)}\n`,
      );
    }
    process.stdout.write(
      `API requests per pod during the throughput phase: ${requestsPerPod(requestsBefore, requestsAfter, run.bound)}\n`,
    );
    if (cpuByThread !== "") {
      process.stdout.write(
        `CPU per pod by thread during the throughput phase (ms): ${cpuByThread}\n`,
      );
    }
    if (waitByThread !== "") {
      process.stdout.write(
        `time runnable but waiting for a core, per pod by thread (ms): ${waitByThread}\n`,
      );
    }
    process.stdout.write(
      `per-second bound counts: ${bound.perSecond.map((n) => fmt(n)).join(" ")}\n`,
    );
    if (memoryRun !== undefined) {
      const runningRate = throughputOf(memoryRun.samples, "running");
      process.stdout.write(
        `memory phase: ${fmt(memoryRun.created)} created, ${fmt(memoryRun.running)} Running; Running per second average ${fmt(runningRate.average)}; worker heap ${mib(memoryRun.workerHeapUsed)} MiB (in RSS, not in heap)\n`,
      );
      process.stdout.write(
        `API requests per Running pod during the memory phase: ${memoryRequests}\n`,
      );
    }
  } finally {
    log("stopping");
    const stopping = performance.now();
    await plane.close();
    await load.close();
    rmSync(dataDir, { recursive: true, force: true });
    log(`stopped in ${((performance.now() - stopping) / 1000).toFixed(1)} s`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:scheduler failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
