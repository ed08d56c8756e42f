/**
 * `npm run bench:watch` (bench/watch-fanout.ts): what the API server's
 * thread spends to deliver watch events. An in-process gantry (memory storage) on this thread;
 * `--watchers` HTTP watches of one namespace's pods in a worker thread (bench/watch-clients.ts);
 * `--events` pod creates written straight to storage on this thread, `--per-turn` of them per
 * event-loop turn (1: each write in a turn of its own, as memory storage publishes the writes of
 * separate requests; more: as a group commit or a busy poll phase hands over several).
 *
 * Each round runs the writes once with no watcher (the writes' and the watch cache's own cost)
 * and once with the watchers, and prints the server thread's CPU (utime + stime from
 * `/proc/self/task/PID/stat`) per event without watchers, per delivery with them, and the
 * difference per delivery; the delivery latency (receipt in the worker − the write's resolution
 * here, both wall clock) and the socket reads per delivery on the watchers' side.
 *
 * Flags: --watchers 100, --events 10000, --per-turn 1, --rounds 2, --rate WRITES_PER_SECOND (0, the
 * default: as fast as the server takes them; a rate the watchers keep up with makes the latency
 * the server's), --label-selector SELECTOR (each watcher's), --table true (watchers ask for Table,
 * as `kubectl get -w`).
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { newMemoryStorage } from "../src/storage/index.ts";
import { startTestApiServer } from "../src/testing/api-server.ts";
import type { JsonObject } from "../src/util/index.ts";
import { podBody } from "./pods.ts";
import { fmt, percentile, table } from "./stats.ts";
import type { WatchClientResult, WatchClientTask } from "./watch-clients.ts";

const { values } = parseArgs({
  options: {
    watchers: { type: "string", default: "100" },
    events: { type: "string", default: "10000" },
    "per-turn": { type: "string", default: "1" },
    rounds: { type: "string", default: "2" },
    rate: { type: "string", default: "0" },
    "label-selector": { type: "string", default: "" },
    table: { type: "string", default: "false" },
  },
});
const positive = (name: string, text: string): number => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`--${name} must be ≥ 1: ${text}`);
  return value;
};
const watchers = positive("watchers", values.watchers);
const events = positive("events", values.events);
const perTurn = positive("per-turn", values["per-turn"]);
const rounds = positive("rounds", values.rounds);
const rate = values.rate === "0" ? 0 : positive("rate", values.rate);
const labelSelector = values["label-selector"];
const asTable = values.table === "true";
const namespace = "bench-watch";

function serverThreadCpuUs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

function startClients(): {
  run(task: WatchClientTask): Promise<unknown>;
  close(): Promise<number>;
} {
  const worker = new Worker(new URL("./watch-worker.js", import.meta.url));
  return {
    run: (task) =>
      new Promise((resolve, reject) => {
        worker.once("message", (message: { result?: unknown; error?: string }) => {
          if (message.error !== undefined) reject(new Error(message.error));
          else resolve(message.result);
        });
        worker.postMessage(task);
      }),
    close: () => worker.terminate(),
  };
}

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const storage = newMemoryStorage();
const plane = await startTestApiServer({ storage });
const clients = startClients();
try {
  for (const name of [namespace]) {
    const res = await fetch(`${plane.url}/api/v1/namespaces`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metadata: { name } }),
    });
    if (res.status !== 201) throw new Error(`Cannot create namespace ${name}: ${res.status}`);
  }
  // One pod through the API, so the writes below carry what a stored pod carries (defaults,
  // managedFields); each write is a copy under a new name.
  const created = await fetch(`${plane.url}/api/v1/namespaces/${namespace}/pods`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(podBody("template", { shard: "3" })),
  });
  if (created.status !== 201) throw new Error(`Cannot create the template pod: ${created.status}`);
  const template = (await storage.get(`/registry/pods/${namespace}/template`))?.value;
  if (template === undefined) throw new Error("The template pod is not in storage");
  const templateMeta = template["metadata"] as JsonObject;

  let serial = 0;
  const write = async (writtenAt: Map<number, number>): Promise<void> => {
    const i = serial++;
    const name = `pod-${i}`;
    const value: JsonObject = {
      ...template,
      metadata: {
        ...templateMeta,
        name,
        uid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      },
    };
    const stored = await storage.create(`/registry/pods/${namespace}/${name}`, value);
    writtenAt.set(stored.revision, performance.timeOrigin + performance.now());
  };
  const writeAll = async (writtenAt: Map<number, number>): Promise<void> => {
    const start = performance.now();
    for (let done = 0; done < events; done += perTurn) {
      const batch = Math.min(perTurn, events - done);
      const writes: Promise<void>[] = [];
      for (let k = 0; k < batch; k++) writes.push(write(writtenAt));
      await Promise.all(writes);
      const ahead = rate === 0 ? 0 : start + ((done + batch) / rate) * 1000 - performance.now();
      if (ahead >= 1) await new Promise((resolve) => setTimeout(resolve, ahead));
      else await new Promise((resolve) => setImmediate(resolve));
    }
  };

  const query = new URLSearchParams();
  if (labelSelector !== "") query.set("labelSelector", labelSelector);
  const path = `/api/v1/namespaces/${namespace}/pods${query.size > 0 ? `?${query}` : ""}`;
  const rows: string[][] = [];
  log(
    `gantry bench/watch-fanout on ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}, ${new Date().toISOString()}`,
  );
  log(
    `${watchers} watchers${labelSelector === "" ? "" : ` (labelSelector ${labelSelector})`}${asTable ? " as Table" : ""}, ${events} creates, ${perTurn} per loop turn, ${rate === 0 ? "unpaced" : `${rate}/s`}, memory storage`,
  );
  for (let round = 1; round <= rounds; round++) {
    const load = loadavg()[0] ?? Number.NaN;
    // Without watchers: the writes and the watch cache alone.
    const baseStart = serverThreadCpuUs();
    await writeAll(new Map());
    const baseUs = (serverThreadCpuUs() - baseStart) / events;

    const revision = String(await storage.currentRevision());
    await clients.run({
      op: "open",
      url: plane.url,
      path,
      resourceVersion: revision,
      watchers,
      accept: asTable
        ? "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
        : "application/json",
      capacity: watchers * events,
    });
    const writtenAt = new Map<number, number>();
    const cpuStart = serverThreadCpuUs();
    const wallStart = performance.now();
    await writeAll(writtenAt);
    const result = (await clients.run({
      op: "collect",
      expect: events,
      timeoutMs: 120_000,
    })) as WatchClientResult;
    const wallMs = performance.now() - wallStart;
    const cpuUs = serverThreadCpuUs() - cpuStart;
    const deliveries = result.events;
    const latencies = new Float64Array(result.receivedRv.length);
    for (let i = 0; i < latencies.length; i++) {
      const at = writtenAt.get(result.receivedRv[i] ?? 0);
      latencies[i] = at === undefined ? Number.NaN : Math.max(0, (result.receivedAt[i] ?? 0) - at);
    }
    rows.push([
      String(round),
      fmt(load, 1),
      fmt(baseUs, 1),
      fmt(cpuUs / deliveries, 2),
      fmt((cpuUs - baseUs * events) / deliveries, 2),
      fmt((deliveries / wallMs) * 1000),
      fmt(percentile(latencies, 50), 2),
      fmt(percentile(latencies, 99), 2),
      fmt(result.chunks / deliveries, 3),
      result.short > 0 ? `${result.short} watchers short` : "",
    ]);
    log(`round ${round}: ${fmt(deliveries)} deliveries in ${fmt(wallMs)} ms`);
  }
  log("");
  log(
    table(
      [
        "round",
        "load avg",
        "CPU µs/event, no watchers",
        "CPU µs/delivery",
        "marginal µs/delivery",
        "deliveries/s",
        "latency p50 ms",
        "p99 ms",
        "reads/delivery",
        "note",
      ],
      rows,
    ),
  );
} finally {
  await clients.close();
  await plane[Symbol.asyncDispose]();
}
