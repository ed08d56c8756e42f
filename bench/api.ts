/**
 * `npm run bench:api`: create, get, list and watch over HTTP against an in-process gantry, on
 * SQLite and on memory, beside the raw SQLite write rate at the same durability. The server runs
 * on this thread; the clients run in a worker thread (bench/load.ts), so each has a core.
 *
 * `npm run bench:api -- --storage etcd`: the same phases on a throwaway one-member etcd
 * (/usr/bin/etcd, data on the temp dir's disk), beside the raw etcd put rate measured in the same
 * run through the store's own etcd client (src/storage/etcd/grpc) with the same concurrency.
 *
 * Knobs (environment): BENCH_PODS (10000), BENCH_WARMUP (2000 untimed creates before the timed
 * ones), BENCH_GETS (30000), BENCH_WATCHERS (100),
 * BENCH_EVENTS (10000), BENCH_CLIENTS (16), BENCH_LIST_RUNS (10); BENCH_AUDIT_POLICY=FILE audits
 * with that policy into a log in the data dir (`--audit-policy-file`); BENCH_PRIORITY_AND_FAIRNESS
 * =false uses the plain in-flight limits (`--enable-priority-and-fairness=false`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startAllInOne } from "../src/cmd/all-in-one.ts";
import { readAuditPolicy } from "../src/cmd/overload-flags.ts";
import { GrpcChannel } from "../src/storage/etcd/grpc/channel.ts";
import { newKVClient } from "../src/storage/etcd/grpc/kv.ts";
import { openSqliteStorage } from "../src/storage/index.ts";
import { type EtcdCluster, startEtcd } from "../src/testing/etcd.ts";
import { discardLogger, type JsonObject } from "../src/util/index.ts";
import type { LoadTask } from "./load.ts";
import { startLoadClient } from "./load-client.ts";
import { fmt, type PhaseResult, summarize, table } from "./stats.ts";
import { threadCpuSeconds } from "./thread-cpu.ts";

const knob = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const pods = knob("BENCH_PODS", 10_000);
const gets = knob("BENCH_GETS", 30_000);
const watchers = knob("BENCH_WATCHERS", 100);
const events = knob("BENCH_EVENTS", 10_000);
const clients = knob("BENCH_CLIENTS", 16);
const warmup = knob("BENCH_WARMUP", 2_000);
const listRuns = knob("BENCH_LIST_RUNS", 10);
const auditPolicyFile = process.env["BENCH_AUDIT_POLICY"];
const auditPolicy = auditPolicyFile === undefined ? undefined : readAuditPolicy(auditPolicyFile);
const priorityAndFairness = process.env["BENCH_PRIORITY_AND_FAIRNESS"] !== "false";
const budgetMs = 180_000;

type Backend = "sqlite" | "memory" | "etcd";

/** `--storage etcd` benchmarks etcd; anything else (the default) SQLite and memory. */
const storageFlag = process.argv.indexOf("--storage");
const mode: "sqlite" | "etcd" =
  storageFlag >= 0 && process.argv[storageFlag + 1] === "etcd" ? "etcd" : "sqlite";
const backends: readonly Backend[] = mode === "etcd" ? ["etcd"] : ["sqlite", "memory"];
type Phase = "create" | "get" | "list" | "chunked" | "watch";
type Step = `${Backend}:${Phase}` | "raw";

/**
 * Time budgets (ms) that keep a whole run under three minutes on a slow or busy machine. Each
 * step may take up to its cap, but always leaves every later step its floor; a step that runs
 * out stops starting operations and says so under the table.
 */
const steps: readonly { step: Step; cap: number; floor: number }[] = [
  ...backends.flatMap((backend) => [
    { step: `${backend}:create` as const, cap: 30_000, floor: 5_000 },
    { step: `${backend}:get` as const, cap: 12_000, floor: 3_000 },
    { step: `${backend}:list` as const, cap: 8_000, floor: 2_000 },
    { step: `${backend}:chunked` as const, cap: 8_000, floor: 2_000 },
    { step: `${backend}:watch` as const, cap: 60_000, floor: 10_000 },
  ]),
  { step: "raw", cap: 10_000, floor: 3_000 },
];
/** Room kept for starting servers and writing the table. */
const overheadMs = 12_000;

function budgetFor(step: Step): number {
  const index = steps.findIndex((s) => s.step === step);
  const later = steps.slice(index + 1).reduce((sum, s) => sum + s.floor, 0);
  const left = budgetMs - overheadMs - (performance.now() - started) - later;
  return Math.max(steps[index]?.floor ?? 1_000, Math.min(steps[index]?.cap ?? 0, left));
}

const started = performance.now();
const log = (line: string): void => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(5);
  process.stdout.write(`[${seconds}s] ${line}\n`);
};

const load = startLoadClient(log);

/**
 * CPU time (µs) the main thread, where the server runs, has used so far: from
 * `/proc/self/task/PID/stat` (utime + stime, in ticks of 1/100 s), so it leaves out the load
 * worker, GC helper threads and SQLite's writer thread. It moves far less with the machine's other
 * load than throughput does. `undefined` where /proc is not there (not Linux).
 */
function serverThreadCpuUs(): number | undefined {
  const seconds = threadCpuSeconds().get(process.pid);
  return seconds === undefined ? undefined : seconds * 1_000_000;
}

/** A phase's figures plus the server thread's CPU per operation (µs; NaN when unknown). */
type Measured = PhaseResult & { readonly serverCpuUs: number };

async function runLoad(task: LoadTask): Promise<Measured> {
  const before = serverThreadCpuUs();
  const result = await load.run(task);
  const after = serverThreadCpuUs();
  const serverCpuUs =
    before === undefined || after === undefined || result.count === 0
      ? Number.NaN
      : (after - before) / result.count;
  return { ...result, serverCpuUs };
}

async function createNamespace(url: string, name: string): Promise<void> {
  const res = await fetch(`${url}/api/v1/namespaces`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ metadata: { name } }),
  });
  if (res.status !== 201) throw new Error(`Cannot create namespace ${name}: ${res.status}`);
}

/** The HTTP phases on one backend; returns one stored pod for the raw SQLite comparison. */
async function httpPhases(
  backend: Backend,
  etcd?: EtcdCluster,
): Promise<{ results: Map<Phase, Measured>; storedPod: JsonObject }> {
  const dataDir = mkdtempSync(join(tmpdir(), `gantry-bench-${backend}-`));
  const plane = await startAllInOne({
    dataDir,
    port: 0,
    address: "127.0.0.1",
    storage: backend,
    ...(etcd === undefined ? {} : { etcd: { endpoints: etcd.endpoints, prefix: "/bench" } }),
    logger: discardLogger,
    enablePriorityAndFairness: priorityAndFairness,
    ...(auditPolicy === undefined
      ? {}
      : {
          audit: {
            policy: auditPolicy,
            logPath: join(dataDir, "audit.log"),
            maxSizeMB: 0,
            maxBackups: 0,
            maxAgeDays: 0,
          },
        }),
  });
  const results = new Map<Phase, Measured>();
  try {
    const url = plane.url;
    await createNamespace(url, "bench");
    await createNamespace(url, "bench-watch");
    await createNamespace(url, "bench-warmup");
    // Steady state, as server benchmarks measure it: the first requests of a fresh process pay
    // for compiling the hot paths, so a warm-up round of creates goes first, untimed.
    log(`${backend}: warm-up, ${fmt(warmup)} creates, ${clients} clients (not measured)`);
    await runLoad({
      op: "create",
      url,
      namespace: "bench-warmup",
      prefix: "pod",
      count: warmup,
      clients,
      budgetMs: budgetFor(`${backend}:create`),
    });
    log(`${backend}: create ${fmt(pods)} pods, ${clients} clients`);
    const created = await runLoad({
      op: "create",
      url,
      namespace: "bench",
      prefix: "pod",
      count: pods,
      clients,
      budgetMs: budgetFor(`${backend}:create`),
    });
    results.set("create", created);
    const made = created.count;
    log(`${backend}: get ${fmt(gets)} times, ${clients} clients`);
    results.set(
      "get",
      await runLoad({
        op: "get",
        url,
        namespace: "bench",
        prefix: "pod",
        pods: made,
        count: gets,
        clients,
        budgetMs: budgetFor(`${backend}:get`),
      }),
    );
    log(`${backend}: list ${fmt(made)} pods, ${listRuns} runs`);
    results.set(
      "list",
      await runLoad({
        op: "list",
        url,
        namespace: "bench",
        runs: listRuns,
        limit: 0,
        budgetMs: budgetFor(`${backend}:list`),
      }),
    );
    log(`${backend}: list ${fmt(made)} pods in chunks of 500, ${listRuns} runs`);
    results.set(
      "chunked",
      await runLoad({
        op: "list",
        url,
        namespace: "bench",
        runs: listRuns,
        limit: 500,
        budgetMs: budgetFor(`${backend}:chunked`),
      }),
    );
    log(`${backend}: watch: ${fmt(events)} events to ${watchers} watchers, ${clients} writers`);
    results.set(
      "watch",
      await runLoad({
        op: "watch",
        url,
        namespace: "bench-watch",
        watchers,
        events,
        clients,
        budgetMs: budgetFor(`${backend}:watch`),
      }),
    );
    const one = await fetch(`${url}/api/v1/namespaces/bench/pods/pod-0`);
    const storedPod = (await one.json()) as JsonObject;
    return { results, storedPod };
  } finally {
    await plane.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The raw SQLite create rate at gantry's durability (synchronous=NORMAL, WAL, group commit):
 * `clients` concurrent writers creating `pods` keys holding a stored pod as the API writes it.
 */
async function rawSqlite(storedPod: JsonObject): Promise<PhaseResult> {
  const dir = mkdtempSync(join(tmpdir(), "gantry-bench-raw-"));
  const storage = await openSqliteStorage({ path: join(dir, "state.db") });
  try {
    const latencies = new Float64Array(pods);
    let next = 0;
    let done = 0;
    const t0 = performance.now();
    const budget = budgetFor("raw");
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = next++; i < pods && performance.now() - t0 < budget; i = next++) {
          const metadata = { ...(storedPod["metadata"] as JsonObject), name: `pod-${i}` };
          const value = { ...storedPod, metadata } as JsonObject;
          const start = performance.now();
          await storage.create(`/registry/pods/bench/pod-${i}`, value);
          latencies[i] = performance.now() - start;
          done++;
        }
      }),
    );
    const pod = Buffer.byteLength(JSON.stringify(storedPod));
    const cut = done < pods ? `; stopped by the time budget after ${done} of ${pods}` : "";
    return summarize(
      latencies.subarray(0, done),
      performance.now() - t0,
      `${clients} writers, ${fmt(pod)} B values${cut}`,
    );
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The raw etcd put rate: `clients` concurrent writers putting `pods` keys holding a stored pod
 * as the API writes it, through the store's etcd client (one HTTP/2 connection, as the
 * store's), on the same etcd as the HTTP phases.
 */
async function rawEtcd(etcd: EtcdCluster, storedPod: JsonObject): Promise<PhaseResult> {
  const channel = new GrpcChannel({ url: etcd.endpoints[0] ?? "" });
  const client = newKVClient(channel);
  try {
    const latencies = new Float64Array(pods);
    let next = 0;
    let done = 0;
    const t0 = performance.now();
    const budget = budgetFor("raw");
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = next++; i < pods && performance.now() - t0 < budget; i = next++) {
          const metadata = { ...(storedPod["metadata"] as JsonObject), name: `pod-${i}` };
          const value = JSON.stringify({ ...storedPod, metadata });
          const start = performance.now();
          await client.put(
            { key: Buffer.from(`/bench-raw/pods/bench/pod-${i}`), value: Buffer.from(value) },
            { deadline: Date.now() + 10_000 },
          );
          latencies[i] = performance.now() - start;
          done++;
        }
      }),
    );
    const pod = Buffer.byteLength(JSON.stringify(storedPod));
    const cut = done < pods ? `; stopped by the time budget after ${done} of ${pods}` : "";
    return summarize(
      latencies.subarray(0, done),
      performance.now() - t0,
      `${clients} writers, ${fmt(pod)} B values${cut}`,
    );
  } finally {
    channel.close();
  }
}

const targets: Record<Phase, string> = {
  create: mode === "etcd" ? "≥ 0.7 × raw etcd" : "≥ 2,000/s (SQLite)",
  get: "≥ 10,000/s",
  list: "< 200 ms",
  chunked: "",
  watch: "p99 < 100 ms",
};

const labels: Record<Phase, string> = {
  create: `create (${clients} clients)`,
  get: `get (${clients} clients)`,
  list: `list ${fmt(pods)} pods, JSON`,
  chunked: `list ${fmt(pods)} pods, limit=500 chain`,
  watch: `watch: ${fmt(events)} events × ${watchers} watchers`,
};

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench:api: over the ${budgetMs / 1000} s budget; stopping\n`);
    process.exit(1);
  }, budgetMs);
  watchdog.unref();
  const cpu = cpus();
  log(
    `gantry bench:api on ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
  );
  const etcd = mode === "etcd" ? await startEtcd({ members: 1 }) : undefined;
  try {
    const runs: { name: string; backend: Backend; results: Map<Phase, Measured> }[] = [];
    let storedPod: JsonObject = {};
    for (const backend of backends) {
      const run = await httpPhases(backend, etcd);
      runs.push({ name: backendNames[backend], backend, results: run.results });
      storedPod = run.storedPod;
    }
    const rawName = etcd === undefined ? "SQLite create" : "etcd put";
    log(`raw ${rawName}: ${fmt(pods)} writes, ${clients} writers`);
    const raw = etcd === undefined ? await rawSqlite(storedPod) : await rawEtcd(etcd, storedPod);
    writeReport(runs, raw, rawName);
  } finally {
    await etcd?.close();
  }
  await load.close();
}

const backendNames: Record<Backend, string> = { sqlite: "SQLite", memory: "memory", etcd: "etcd" };

function writeReport(
  runs: readonly { name: string; backend: Backend; results: Map<Phase, Measured> }[],
  raw: PhaseResult,
  rawName: string,
): void {
  const rows = (Object.keys(labels) as Phase[]).map((phase) => {
    const rate = (r: PhaseResult | undefined) =>
      phase === "list" || phase === "chunked" ? "–" : fmt(r?.perSecond ?? Number.NaN);
    // Lists cost milliseconds each; the rest microseconds.
    const cpu = (r: Measured | undefined) =>
      phase === "list" || phase === "chunked"
        ? `${fmt((r?.serverCpuUs ?? Number.NaN) / 1000, 1)} ms`
        : fmt(r?.serverCpuUs ?? Number.NaN, phase === "watch" ? 1 : 0);
    return [
      labels[phase],
      targets[phase],
      ...runs.flatMap((run) => {
        const r = run.results.get(phase);
        return [rate(r), fmt(r?.p50Ms ?? Number.NaN, 1), fmt(r?.p99Ms ?? Number.NaN, 1), cpu(r)];
      }),
    ];
  });
  rows.push([
    `raw ${rawName} (${clients} writers)`,
    "",
    fmt(raw.perSecond),
    fmt(raw.p50Ms, 2),
    fmt(raw.p99Ms, 2),
    "",
    ...runs.slice(1).flatMap(() => ["", "", "", ""]),
  ]);
  const first = runs[0];
  const createRate = first?.results.get("create")?.perSecond ?? Number.NaN;
  process.stdout.write(
    `\n${table(
      [
        "phase",
        "target",
        ...runs.flatMap((run) => [`${run.name} /s`, "p50 ms", "p99 ms", "CPU µs/op"]),
      ],
      rows,
    )}\n\n`,
  );
  process.stdout.write(
    "CPU µs/op: the server thread's CPU time per operation (per delivery for watch, the phase's creates included; per whole list for lists); it depends far less on the machine's other load than the rates do.\n",
  );
  process.stdout.write(
    `HTTP create on ${first?.name ?? "?"} runs at ${fmt((createRate / raw.perSecond) * 100)}% of the raw ${rawName} rate (${fmt(createRate)}/s vs ${fmt(raw.perSecond)}/s; ratio ${(createRate / raw.perSecond).toFixed(2)}).\n`,
  );
  for (const run of runs) {
    for (const [phase, result] of run.results) {
      if (result.note !== "") process.stdout.write(`${run.backend} ${phase}: ${result.note}\n`);
    }
  }
  process.stdout.write(`raw ${rawName}: ${raw.note}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:api failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
