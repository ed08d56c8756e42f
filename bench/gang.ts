/**
 * `npm run bench:gang`: gang scheduling on `--nodes` nodes (5,000; scheduler_perf's node shape:
 * 4 CPUs, 32Gi, 110 pods), end to end through the API. An in-process API server (memory storage,
 * real HTTP on 127.0.0.1) and the real scheduler; pods are created by this thread, 32 at a time.
 *
 * For gangs of 3, 64 and 512 pods (each gang one PodGroup of a Workload template with
 * minCount = size), it creates the PodGroups, then every pod, and waits until all are bound:
 *   - time per gang placement: the average of the scheduler's own
 *     `scheduler_podgroup_scheduling_attempt_duration_seconds{result="scheduled"}` (the group
 *     cycle: collect members, filter and score each on one snapshot, assume, start bindings),
 *     as scheduler_perf's gang suite measures it;
 *   - throughput: pods bound per second from the first pod created to the last pod bound.
 * Not a test: figures depend on the machine. Options: --nodes 5000 --pods 3000 (per gang size),
 * --batching false (every member filtered and scored in full, to compare with the default where
 * members reuse the answers of nodes no earlier member changed; placements are the same).
 */
import { setMaxListeners } from "node:events";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Registry } from "prom-client";
import type { Namespace, Node, Pod, PodGroup, Workload } from "../src/api/index.ts";
import {
  namespacesResource,
  newInformerFactory,
  nodesResource,
  podGroupsResource,
  podsResource,
  workloadsResource,
} from "../src/client/index.ts";
import { defaultProfile, inTreeRegistry, newScheduler } from "../src/scheduler/index.ts";
import {
  makeNode,
  makePod,
  makePodGroup,
  makeWorkload,
  startClusterHarness,
} from "../src/testing/index.ts";
import { discardLogger, seededRandom, systemClock } from "../src/util/index.ts";
import { fmt, table } from "./stats.ts";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "5000" },
    pods: { type: "string", default: "3000" },
    batching: { type: "string", default: "true" },
  },
});
const nodeCount = Number(values.nodes);
const podsPerSize = Number(values.pods);
const sizes = [3, 64, 512];

async function inBatches<T>(items: readonly T[], size: number, fn: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(fn));
  }
}

async function histogram(registry: Registry): Promise<{ sum: number; count: number }> {
  const metric = await registry
    .getSingleMetric("scheduler_podgroup_scheduling_attempt_duration_seconds")
    ?.get();
  let sum = 0;
  let count = 0;
  for (const v of metric?.values ?? []) {
    if (v.labels["result"] !== "scheduled") continue;
    const name = (v as { metricName?: string }).metricName ?? "";
    if (name.endsWith("_sum")) sum += v.value;
    if (name.endsWith("_count")) count += v.value;
  }
  return { sum, count };
}

async function main(): Promise<void> {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const registry = new Registry();
  const informers = newInformerFactory(harness.client);
  const scheduler = newScheduler(
    {
      client: harness.client,
      informers,
      clock: systemClock,
      random: seededRandom(1),
      logger: discardLogger,
      registry: inTreeRegistry(),
      profiles: [defaultProfile()],
    },
    { metricsRegistry: registry, opportunisticBatching: values.batching !== "false" },
  );
  const started = performance.now();
  const nodes = Array.from({ length: nodeCount }, (_, i) =>
    makeNode(`node-${i}`).capacity({ cpu: "4", memory: "32Gi", pods: "110" }).obj(),
  );
  await inBatches(nodes, 64, async (node) => {
    const created = await harness.client.create<Node>(nodesResource, node);
    await harness.client.updateStatus(nodesResource, { ...created, status: node.status });
  });
  process.stdout.write(`${nodeCount} nodes in ${fmt((performance.now() - started) / 1000, 1)} s\n`);
  const running = Promise.all([informers.start(stop.signal), scheduler.start(stop.signal)]);
  const boundPods = new Set<string>();
  const watchStop = new AbortController();
  const boundWatch = (async () => {
    for await (const event of harness.client.watch<Pod>(
      podsResource,
      undefined,
      {},
      watchStop.signal,
    )) {
      if (event.type === "MODIFIED" && (event.object.spec.nodeName ?? "") !== "") {
        boundPods.add(event.object.metadata.uid ?? "");
      }
    }
  })();

  const rows: string[][] = [];
  for (const size of sizes) {
    const ns = `gang-${size}`;
    const gangs = Math.max(1, Math.floor(podsPerSize / size));
    await harness.client.create<Namespace>(namespacesResource, { metadata: { name: ns } });
    await harness.client.create(workloadsResource, {
      ...makeWorkload("w").template("worker", size).forCreate(),
      metadata: { name: "w", namespace: ns },
    } as Workload);
    await inBatches(
      Array.from({ length: gangs }, (_, g) => g),
      32,
      (g) =>
        harness.client.create<PodGroup>(podGroupsResource, {
          ...makePodGroup(`g${g}`, "w", "worker").forCreate(),
          metadata: { name: `g${g}`, namespace: ns },
        }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // the informer sees the groups
    const before = await histogram(registry);
    const boundBefore = boundPods.size;
    const total = gangs * size;
    const t0 = performance.now();
    const pods = Array.from({ length: total }, (_, i) => {
      const pod = makePod(`p${i}`)
        .requests({ cpu: "100m", memory: "500Mi" })
        .podGroup("w", `g${Math.floor(i / size)}`)
        .obj();
      return { ...pod, metadata: { name: `p${i}`, namespace: ns } };
    });
    await inBatches(pods, 32, (pod) => harness.client.create(podsResource, pod));
    while (boundPods.size - boundBefore < total)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (performance.now() - t0) / 1000;
    const after = await histogram(registry);
    const cycles = after.count - before.count;
    const avgMs = cycles === 0 ? 0 : ((after.sum - before.sum) / cycles) * 1000;
    rows.push([
      String(size),
      String(gangs),
      String(total),
      String(cycles),
      fmt(avgMs, 2),
      fmt(total / seconds, 0),
    ]);
    process.stdout.write(`gangs of ${size}: done\n`);
  }
  process.stdout.write(
    `\n${table(["gang size", "gangs", "pods", "group cycles", "ms per gang (avg)", "pods/s end to end"], rows)}\n`,
  );
  watchStop.abort();
  stop.abort();
  await running;
  await boundWatch;
  await harness[Symbol.asyncDispose]();
}

await main();
