/**
 * bench:eviction: eviction latency and the disruption controller's sync time against an
 * in-process API server (memory storage), for one group-scoped budget over 10,000 pods in 1,250
 * groups of 8, and for 1,000 budgets of 10 pods each in one namespace.
 *
 * - Evictions are real POSTs of `pods/NAME/eviction` over HTTP on 127.0.0.1: the budget
 *   decision, the budget's status write, the DisruptionTarget condition and the delete. Each
 *   takes one pod from a different group, so the group stays at its minCount and spends nothing.
 *   They are sent one at a time from a worker thread (bench/load.ts), as `kubectl drain` sends
 *   them from its own process: the client's work and garbage stay off the server's thread.
 *   50 untimed evictions from other groups warm the eviction path up first.
 * - A sync is the controller's whole `syncBudget` over its informers (list, group counting,
 *   status computation, and the status write when something changed).
 *
 * Prints p50/p99 per phase. Not a test: nothing is asserted.
 */
import { setMaxListeners } from "node:events";
import { performance } from "node:perf_hooks";
import type {
  KubeObject,
  Namespace,
  Pod,
  PodDisruptionBudget,
  PodGroup,
  Workload,
} from "../src/api/index.ts";
import type { ApiServer } from "../src/apiserver/index.ts";
import {
  type Client,
  customResourceDefinitionsResource,
  deploymentsResource,
  type HttpClient,
  type InformerFactory,
  namespacesResource,
  newInformerFactory,
  podDisruptionBudgetsResource,
  podGroupsResource,
  podsResource,
  replicaSetsResource,
  replicationControllersResource,
  statefulSetsResource,
  workloadsResource,
} from "../src/client/index.ts";
import { noDisruptionMetrics } from "../src/controllers/disruption/index.ts";
import { newRestMapper, readScaleSubresource } from "../src/controllers/disruption/rest-mapper.ts";
import { type BudgetContext, syncBudget } from "../src/controllers/disruption/sync.ts";
import type { EventRecorder } from "../src/controllers/framework/index.ts";
import {
  makePdb,
  makePod,
  makePodGroup,
  makeWorkload,
  startClusterHarness,
} from "../src/testing/index.ts";
import { discardLogger, systemClock } from "../src/util/index.ts";
import { type LoadClient, startLoadClient } from "./load-client.ts";
import { fmt, type PhaseResult, percentile, table } from "./stats.ts";

const groups = 1250;
const size = 8;
const rounds = 200;
/** Evictions made before the timed ones, from groups the timed ones do not touch. */
const warmupEvictions = 50;
const smallBudgets = 1000;

async function inBatches<T>(items: readonly T[], batch: number, fn: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += batch) {
    await Promise.all(items.slice(i, i + batch).map(fn));
  }
}

/** What the in-process writes of the set-up carry. */
function context(subresource: string) {
  return {
    user: { username: "bench", groups: ["system:masters"] },
    dryRun: false,
    fieldManager: "bench",
    warnings: [],
    subresource,
  };
}

/**
 * Creates a bound, Running and Ready pod in process (through the registry's store, without
 * HTTP: the set-up of 20,000 pods would otherwise take minutes on a loaded machine).
 */
async function readyPod(server: ApiServer, pod: Pod): Promise<void> {
  const pods = server.store("", "v1", "pods");
  if (pods === undefined) throw new Error("pods are not served");
  const namespace = pod.metadata.namespace ?? "";
  const created = await pods.create(namespace, pod as unknown as KubeObject, context(""));
  await pods.update(
    namespace,
    created.metadata.name ?? "",
    (current) => {
      current["status"] = {
        phase: "Running",
        conditions: [{ type: "Ready", status: "True" }],
      };
      return current;
    },
    context("status"),
  );
}

/** Creates a budget and writes a status the controller would have written. */
async function budget(
  client: HttpClient,
  pdb: PodDisruptionBudget,
  status: PodDisruptionBudget["status"],
): Promise<void> {
  const created = await client.create<PodDisruptionBudget>(podDisruptionBudgetsResource, pdb);
  await client.updateStatus(podDisruptionBudgetsResource, { ...created, status });
}

/**
 * Evicts `names` one after another from the load worker (bench/load.ts), as `kubectl drain` does
 * from its own process, and returns the latency percentiles.
 */
function timeEvictions(
  load: LoadClient,
  url: string,
  namespace: string,
  names: readonly string[],
): Promise<PhaseResult> {
  return load.run({
    op: "requests",
    url,
    method: "POST",
    clients: 1,
    paths: names.map((name) => `/api/v1/namespaces/${namespace}/pods/${name}/eviction`),
    bodies: names.map((name) =>
      JSON.stringify({ apiVersion: "policy/v1", kind: "Eviction", metadata: { name, namespace } }),
    ),
    status: 201,
    budgetMs: 120_000,
  });
}

const silentEvents: EventRecorder = { event() {} } as unknown as EventRecorder;

function budgetContext(client: Client, informers: InformerFactory): BudgetContext {
  const crds = informers.forResource(customResourceDefinitionsResource);
  return {
    client,
    clock: systemClock,
    logger: discardLogger,
    events: silentEvents,
    metrics: noDisruptionMetrics,
    pods: informers.forResource<Pod>(podsResource),
    workloads: informers.forResource<Workload>(workloadsResource),
    podGroups: informers.forResource<PodGroup>(podGroupsResource),
    sources: {
      replicationControllers: informers.forResource<KubeObject>(replicationControllersResource),
      replicaSets: informers.forResource<KubeObject>(replicaSetsResource),
      deployments: informers.forResource<KubeObject>(deploymentsResource),
      statefulSets: informers.forResource<KubeObject>(statefulSetsResource),
      mapKind: newRestMapper(crds as never),
      readScale: readScaleSubresource(client),
    },
    warned: new Map(),
    grouped: new Set(),
  };
}

/** Waits until the informer holds a different version of the budget than `seen` (at most 2 s). */
async function changed(
  lister: InformerFactory,
  key: string,
  seen: string | undefined,
): Promise<void> {
  const [namespace = "", name = ""] = key.split("/");
  const budgets = lister.forResource<PodDisruptionBudget>(podDisruptionBudgetsResource).lister;
  for (let i = 0; i < 200; i++) {
    if (budgets.get(namespace, name)?.metadata.resourceVersion !== seen) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Times `syncBudget` for `keys` in turn. Each budget is synced once untimed first (its first
 * sync writes the status), so the timed syncs find the status current and write nothing.
 */
async function timeSyncs(
  context: BudgetContext,
  informers: InformerFactory,
  keys: readonly string[],
): Promise<number[]> {
  const lister = informers.forResource<PodDisruptionBudget>(podDisruptionBudgetsResource).lister;
  const current = (key: string): PodDisruptionBudget => {
    const [namespace = "", name = ""] = key.split("/");
    const pdb = lister.get(namespace, name);
    if (pdb === undefined) throw new Error(`budget ${key} is not in the informer`);
    return pdb as PodDisruptionBudget;
  };
  for (const key of new Set(keys)) {
    const before = current(key).metadata.resourceVersion;
    await syncBudget(context, key, current(key));
    await changed(informers, key, before);
  }
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const key = keys[i % keys.length] ?? "";
    const pdb = current(key);
    const start = performance.now();
    await syncBudget(context, key, pdb);
    samples.push(performance.now() - start);
  }
  return samples;
}

async function main(): Promise<void> {
  await using harness = await startClusterHarness();
  const client = harness.client;
  const started = performance.now();

  // One group-scoped budget over 1,250 PodGroups of 8 pods (gang minCount 7).
  await client.create<Namespace>(namespacesResource, { metadata: { name: "train" } });
  await client.create(workloadsResource, {
    ...makeWorkload("w").template("worker", 7).forCreate(),
    metadata: { name: "w", namespace: "train" },
  } as Workload);
  await inBatches(
    Array.from({ length: groups }, (_, g) => g),
    64,
    (g) =>
      client.create<PodGroup>(podGroupsResource, {
        ...makePodGroup(`g${g}`, "w", "worker").forCreate(),
        metadata: { name: `g${g}`, namespace: "train" },
      }),
  );
  await inBatches(
    Array.from({ length: groups * size }, (_, i) => i),
    128,
    (i) => {
      const pod = makePod(`p${i}`)
        .namespace("train")
        .label("app", "train")
        .nodeName("n1")
        .podGroup("w", `g${Math.floor(i / size)}`)
        .obj();
      delete pod.metadata.uid;
      return readyPod(harness.server, pod);
    },
  );
  await budget(
    client,
    makePdb("train")
      .namespace("train")
      .matchLabels({ app: "train" })
      .maxUnavailable(1)
      .usePodGroups()
      .forCreate(),
    {
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: groups,
      desiredHealthy: groups - 1,
      expectedPods: groups,
    },
  );

  // 1,000 budgets of 10 pods each in another namespace.
  await client.create<Namespace>(namespacesResource, { metadata: { name: "many" } });
  await inBatches(
    Array.from({ length: smallBudgets }, (_, b) => b),
    32,
    async (b) => {
      await budget(
        client,
        makePdb(`b${b}`)
          .namespace("many")
          .matchLabels({ app: `a${b}` })
          .minAvailable(5)
          .forCreate(),
        {
          observedGeneration: 1,
          disruptionsAllowed: 5,
          currentHealthy: 10,
          desiredHealthy: 5,
          expectedPods: 10,
        },
      );
      for (let i = 0; i < 10; i++) {
        const pod = makePod(`b${b}-${i}`)
          .namespace("many")
          .label("app", `a${b}`)
          .nodeName("n1")
          .obj();
        delete pod.metadata.uid;
        await readyPod(harness.server, pod);
      }
    },
  );
  process.stdout.write(
    `set-up: ${fmt((performance.now() - started) / 1000, 1)} s (${groups * size + smallBudgets * 10} pods, ${smallBudgets + 1} budgets)\n`,
  );

  // The controller's informers, synced before timing.
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const informers = newInformerFactory(client);
  const context = budgetContext(client, informers);
  informers.forResource<PodDisruptionBudget>(podDisruptionBudgetsResource);
  const running = informers.start(stop.signal);
  await informers.waitForSync(stop.signal);

  const groupSync = await timeSyncs(context, informers, ["train/train"]);
  const manySync = await timeSyncs(
    context,
    informers,
    Array.from({ length: smallBudgets }, (_, b) => `many/b${(b * 7) % smallBudgets}`),
  );
  // The informers were here to time the controller; left running, every eviction's three
  // watch events would be decoded by this process on the thread that serves the evictions,
  // which a real client in its own process does not do to the API server.
  stop.abort();
  await running;
  const load = startLoadClient((line) => process.stdout.write(`${line}\n`));
  const timedGroups = Array.from({ length: rounds }, (_, i) => (i * 37) % groups);
  // Warm-up, untimed: the first evictions of a fresh process compile the eviction path, so a
  // few go first, each from a group the timed ones leave alone.
  const spare = new Set(timedGroups);
  await timeEvictions(
    load,
    harness.url,
    "train",
    Array.from({ length: groups }, (_, g) => g)
      .filter((g) => !spare.has(g))
      .slice(0, warmupEvictions)
      .map((g) => `p${g * size}`),
  );
  const groupEvictions = await timeEvictions(
    load,
    harness.url,
    "train",
    timedGroups.map((g) => `p${g * size}`),
  );
  const manyEvictions = await timeEvictions(
    load,
    harness.url,
    "many",
    Array.from({ length: rounds }, (_, i) => `b${(i * 13) % smallBudgets}-${i % 10}`),
  );

  await load.close();
  const row = (name: string, samples: number[] | PhaseResult): string[] =>
    Array.isArray(samples)
      ? [name, fmt(percentile(samples, 50), 3), fmt(percentile(samples, 99), 3)]
      : [name, fmt(samples.p50Ms, 3), fmt(samples.p99Ms, 3)];
  process.stdout.write(
    table(
      ["phase (ms)", "p50", "p99"],
      [
        row("eviction (HTTP), 1 group PDB over 10,000 pods / 1,250 groups of 8", groupEvictions),
        row("eviction (HTTP), 1 of 1,000 PDBs x 10 pods in the namespace", manyEvictions),
        row("controller sync, the group PDB", groupSync),
        row("controller sync, 1 of 1,000 PDBs x 10 pods", manySync),
      ],
    ),
  );
  process.stdout.write("\n");
}

await main();
