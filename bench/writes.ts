/**
 * `npm run bench:writes`: the API server thread's CPU per request for each write of Kueue's
 * plain-pod admission, one kind of request at a time, against an in-process gantry (memory
 * storage, real HTTP on 127.0.0.1, no components, so nothing else runs on the thread and no
 * watcher is served). The requests come from a worker thread (bench/load.ts), 16 at a time:
 *
 * 1. POST pods: queued plain pods (`kueue.x-k8s.io/queue-name`), through Kueue's pod webhook.
 * 2. POST workloads: each pod's Workload, as the queueing component builds it.
 * 3. PUT workloads/status: quota reserved and admitted, the body carrying what the queueing
 *    component sends (identity, labels, status).
 * 4. PATCH pods: the ungate, a JSON merge patch with the resourceVersion, as Kueue sends it.
 * 5. POST events: one event per pod.
 *
 * This is where `bench:queueing`'s API thread spends its time, split by request, so that a
 * change to one write path can be measured on its own. CPU is the thread's own (from
 * /proc/self/task), so it does not count time spent waiting for a core; the host's speed still
 * varies between runs and within one (2× on the 2-vCPU VM of docs/benchmarks.md), so `--rounds`
 * (4) repeats the whole sequence with fresh objects and the table shows every round and the
 * least of them: interference only ever adds CPU, so the least is the best estimate of the
 * cost itself. `--count N` (3000) requests per kind and round.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { KueueWorkload, Pod } from "../src/api/index.ts";
import { startAllInOne } from "../src/cmd/all-in-one.ts";
import { defaultQueueingConfig } from "../src/queueing/index.ts";
import { workloadForPod } from "../src/queueing/pod-integration/workload-for-pod.ts";
import { makeQueuedPod } from "../src/testing/index.ts";
import { discardLogger } from "../src/util/index.ts";
import type { LoadTask } from "./load.ts";
import { startLoadClient } from "./load-client.ts";
import { fmt, table } from "./stats.ts";
import { threadCpuSeconds } from "./thread-cpu.ts";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "3000" },
    rounds: { type: "string", default: "4" },
  },
});
const count = Number(values.count);
const rounds = Number(values.rounds);
if (!Number.isInteger(count) || count <= 0 || !Number.isInteger(rounds) || rounds <= 0) {
  throw new RangeError("Cannot run: --count and --rounds must be positive integers");
}

const dataDir = mkdtempSync(join(tmpdir(), "gantry-bench-writes-"));
const plane = await startAllInOne({
  dataDir,
  port: 0,
  address: "127.0.0.1",
  storage: "memory",
  logger: discardLogger,
  queueing: { ...defaultQueueingConfig, enabled: true },
});
const load = startLoadClient((line) => console.log(line));
const namespace = "bench";
const workloadsPath = `/apis/kueue.x-k8s.io/v1beta1/namespaces/${namespace}/workloads`;

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${plane.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Sends the requests from the worker; returns the API thread's CPU µs per request. */
async function measure(
  method: string,
  paths: readonly string[],
  bodies: readonly unknown[],
  status: number,
  contentType?: string,
): Promise<number> {
  const task: LoadTask = {
    op: "requests",
    url: plane.url,
    method,
    paths,
    bodies: bodies.map((b) => JSON.stringify(b)),
    clients: 16,
    status,
    budgetMs: 600_000,
    ...(contentType === undefined ? {} : { contentType }),
  };
  const before = threadCpuSeconds().get(process.pid) ?? 0;
  await load.run(task);
  const after = threadCpuSeconds().get(process.pid) ?? 0;
  return ((after - before) * 1e6) / paths.length;
}

/** Status as the queueing component writes it when it admits a Workload. */
function admitted(workload: KueueWorkload, now: string): unknown {
  const condition = (type: string, message: string) => ({
    type,
    status: "True",
    reason: type,
    message,
    lastTransitionTime: now,
    observedGeneration: workload.metadata.generation ?? 1,
  });
  return {
    apiVersion: workload.apiVersion,
    kind: workload.kind,
    metadata: {
      name: workload.metadata.name,
      namespace,
      uid: workload.metadata.uid,
      resourceVersion: workload.metadata.resourceVersion,
      labels: workload.metadata.labels,
    },
    status: {
      conditions: [
        condition("QuotaReserved", "Quota reserved in ClusterQueue cluster-queue"),
        condition("Admitted", "The workload is admitted"),
      ],
      admission: {
        clusterQueue: "cluster-queue",
        podSetAssignments: [
          { name: "main", flavors: { cpu: "default" }, resourceUsage: { cpu: "100m" }, count: 1 },
        ],
      },
    },
  };
}

const kinds = [
  "POST pods (queued)",
  "POST workloads",
  "PUT workloads/status",
  "PATCH pods (ungate)",
  "POST events",
];
const results: number[][] = kinds.map(() => []);
try {
  await api("POST", "/api/v1/namespaces", { metadata: { name: namespace } });
  console.log(
    `${count} requests of each kind per round, ${rounds} rounds, 16 clients, memory storage`,
  );
  for (let round = 0; round < rounds; round++) {
    const names = Array.from({ length: count }, (_, i) => `r${round}-p${i}`);
    const record = (kind: number, micros: number): void => {
      results[kind]?.push(micros);
      console.log(`round ${round + 1}: ${kinds[kind]}: ${fmt(micros)} µs CPU per request`);
    };
    record(
      0,
      await measure(
        "POST",
        names.map(() => `/api/v1/namespaces/${namespace}/pods`),
        names.map((name) => makeQueuedPod(name, { namespace, requests: { cpu: "100m" } })),
        201,
      ),
    );
    const pods = await Promise.all(
      names.map((name) => api<Pod>("GET", `/api/v1/namespaces/${namespace}/pods/${name}`)),
    );
    const workloads = pods.map((pod) => workloadForPod(pod, { priority: 0 }));
    record(
      1,
      await measure(
        "POST",
        workloads.map(() => workloadsPath),
        workloads,
        201,
      ),
    );
    const stored = await Promise.all(
      workloads.map((w) => api<KueueWorkload>("GET", `${workloadsPath}/${w.metadata.name}`)),
    );
    const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    record(
      2,
      await measure(
        "PUT",
        stored.map((w) => `${workloadsPath}/${w.metadata.name}/status`),
        stored.map((w) => admitted(w, now)),
        200,
      ),
    );
    record(
      3,
      await measure(
        "PATCH",
        pods.map((pod) => `/api/v1/namespaces/${namespace}/pods/${pod.metadata.name}`),
        pods.map((pod) => ({
          metadata: { resourceVersion: pod.metadata.resourceVersion },
          spec: { schedulingGates: null, nodeSelector: { "example.com/flavor": "default" } },
        })),
        200,
        "application/merge-patch+json",
      ),
    );
    record(
      4,
      await measure(
        "POST",
        pods.map(() => `/api/v1/namespaces/${namespace}/events`),
        pods.map((pod) => ({
          metadata: { name: `${pod.metadata.name}.admitted`, namespace },
          involvedObject: {
            apiVersion: "kueue.x-k8s.io/v1beta1",
            kind: "Workload",
            namespace,
            name: `pod-${pod.metadata.name}`,
          },
          reason: "QuotaReserved",
          message: "Quota reserved in ClusterQueue cluster-queue, wait time since queued was 0s",
          type: "Normal",
          firstTimestamp: now,
          lastTimestamp: now,
          count: 1,
          source: { component: "kueue-admission" },
          reportingComponent: "kueue-admission",
        })),
        201,
      ),
    );
  }
  console.log("\nAPI server thread CPU per request (µs), by round, and the least of the rounds");
  console.log(
    table(
      ["Request", ...Array.from({ length: rounds }, (_, i) => `round ${i + 1}`), "least"],
      kinds.map((kind, i) => {
        const micros = results[i] ?? [];
        return [kind, ...micros.map((v) => fmt(v)), fmt(Math.min(...micros))];
      }),
    ),
  );
} finally {
  await load.close();
  await plane.close();
  rmSync(dataDir, { recursive: true, force: true });
}
