/**
 * `npm run bench:fairness`: one noisy user floods an in-process gantry (SQLite storage, plain
 * http with a token file) with many concurrent creates and lists while a quiet user makes one
 * get or create at a time; run once with API priority and fairness and once with the plain
 * max-in-flight limits (400 read-only + 200 mutating). Prints the quiet user's p50/p99 latency
 * and throughput, the 429s each user got, and the machine. The clients run in a worker thread.
 *
 * Creates hold their seat while storage commits, so the flood fills the seats; lists are served
 * from the watch cache and mostly cost the server's CPU.
 *
 * Knobs (environment): BENCH_FAIRNESS_SECONDS (15 per mode), BENCH_NOISY_CLIENTS (600),
 * BENCH_NOISY_PODS (50, the size of each noisy list).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { startAllInOne } from "../src/cmd/all-in-one.ts";
import { discardLogger } from "../src/util/index.ts";
import type { FairnessResult, FairnessTask } from "./fairness-load.ts";
import { podBody } from "./pods.ts";
import { fmt, percentile, table } from "./stats.ts";

const knob = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const seconds = knob("BENCH_FAIRNESS_SECONDS", 15);
const noisyClients = knob("BENCH_NOISY_CLIENTS", 600);
const noisyPods = knob("BENCH_NOISY_PODS", 50);

const started = performance.now();
const log = (line: string): void => {
  const at = ((performance.now() - started) / 1000).toFixed(1).padStart(5);
  process.stdout.write(`[${at}s] ${line}\n`);
};

const worker = new Worker(new URL("./fairness-worker.js", import.meta.url));
worker.unref();

function runClients(task: FairnessTask): Promise<FairnessResult> {
  return new Promise((resolve, reject) => {
    worker.once("message", (message: { result?: FairnessResult; error?: string }) => {
      if (message.result !== undefined) resolve(message.result);
      else reject(new Error(message.error ?? "the load worker failed"));
    });
    worker.once("error", reject);
    worker.postMessage(task);
  });
}

async function post(url: string, token: string, path: string, body: object): Promise<void> {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
}

async function measure(fairness: boolean): Promise<FairnessResult> {
  const dir = mkdtempSync(join(tmpdir(), "gantry-bench-fairness-"));
  const tokens = join(dir, "tokens.csv");
  writeFileSync(
    tokens,
    'admin-token,bench-admin,u0,"system:masters"\nnoisy-token,noisy,u1\nquiet-token,quiet,u2\n',
  );
  const plane = await startAllInOne({
    dataDir: dir,
    port: 0,
    address: "127.0.0.1",
    storage: "sqlite",
    logger: discardLogger,
    tokenAuthFile: tokens,
    enablePriorityAndFairness: fairness,
  });
  try {
    for (const ns of ["noisy", "quiet"]) {
      await post(plane.url, "admin-token", "/api/v1/namespaces", { metadata: { name: ns } });
    }
    for (let i = 0; i < noisyPods; i++) {
      await post(plane.url, "admin-token", "/api/v1/namespaces/noisy/pods", podBody(`noisy-${i}`));
    }
    await post(plane.url, "admin-token", "/api/v1/namespaces/quiet/pods", podBody("quiet-0"));
    log(
      `fairness ${fairness ? "on" : "off"}: ${noisyClients} noisy clients, 1 quiet client, ${seconds} s`,
    );
    return await runClients({
      url: plane.url,
      noisyToken: "noisy-token",
      quietToken: "quiet-token",
      noisyClients,
      durationMs: seconds * 1000,
    });
  } finally {
    await plane.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const on = await measure(true);
const off = await measure(false);

const row = (name: string, r: FairnessResult): string[] => [
  name,
  fmt(percentile(r.quietLatencies, 50), 1),
  fmt(percentile(r.quietLatencies, 99), 1),
  fmt((r.quietLatencies.length / r.elapsedMs) * 1000, 1),
  fmt(r.quiet429),
  fmt((r.noisyOk / r.elapsedMs) * 1000),
  fmt(r.noisy429),
  Object.entries(r.other)
    .map(([status, count]) => `${status}: ${count}`)
    .join(", "),
];

const cpu = cpus();
process.stdout.write(
  `\nMachine: ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${fmt(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}, ${process.platform}/${process.arch}\n`,
);
process.stdout.write(
  `Noisy user: ${noisyClients} concurrent clients, 3 creates (SQLite) per list of ${noisyPods} pods; quiet user: one get or create at a time. ${seconds} s per mode; 429s are retried after Retry-After (the noisy clients after at most 100 ms).\n\n`,
);
process.stdout.write(
  `${table(
    [
      "mode",
      "quiet p50 ms",
      "quiet p99 ms",
      "quiet ops/s",
      "quiet 429s",
      "noisy ok/s",
      "noisy 429s",
      "other",
    ],
    [row("priority and fairness", on), row("max-in-flight only", off)],
  )}\n`,
);
