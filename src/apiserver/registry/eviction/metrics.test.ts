import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Pod, PodDisruptionBudget } from "../../../api/index.ts";
import {
  type ClusterHarness,
  makePdb,
  makePod,
  makePodGroup,
  makeWorkload,
  type PdbBuilder,
  startClusterHarness,
} from "../../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../../testing/leak-check.ts";

// apiserver/ may not import client/: the resources are spelled out here.
const pods = {
  group: "",
  version: "v1",
  resource: "pods",
  kind: "Pod",
  namespaced: true,
} as const;
const budgets = {
  group: "policy",
  version: "v1",
  resource: "poddisruptionbudgets",
  kind: "PodDisruptionBudget",
  namespaced: true,
} as const;
const workloads = {
  group: "scheduling.k8s.io",
  version: "v1alpha1",
  resource: "workloads",
  kind: "Workload",
  namespaced: true,
} as const;
const podGroups = { ...workloads, resource: "podgroups", kind: "PodGroup" } as const;

let harness: ClusterHarness;
let counter = 0;

before(async () => {
  harness = await startClusterHarness();
});
after(async () => {
  await harness[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

async function namespace(): Promise<string> {
  const name = `evm-${++counter}`;
  await harness.client.create(
    { group: "", version: "v1", resource: "namespaces", kind: "Namespace", namespaced: false },
    { apiVersion: "v1", kind: "Namespace", metadata: { name } },
  );
  return name;
}

async function readyPod(ns: string, builder: ReturnType<typeof makePod>): Promise<void> {
  const pod = builder.namespace(ns).label("app", "web").nodeName("n1").obj();
  delete pod.metadata.uid;
  const created = await harness.client.create<Pod>(pods, pod);
  await harness.client.patch(
    pods,
    ns,
    created.metadata.name ?? "",
    "merge",
    { status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] } },
    { subresource: "status" },
  );
}

async function budget(ns: string, builder: PdbBuilder, allowed: number): Promise<void> {
  const created = await harness.client.create<PodDisruptionBudget>(
    budgets,
    builder.namespace(ns).matchLabels({ app: "web" }).forCreate(),
  );
  created.status = {
    observedGeneration: 1,
    disruptionsAllowed: allowed,
    currentHealthy: 2,
    desiredHealthy: 2 - allowed,
    expectedPods: 2,
  };
  await harness.client.updateStatus(budgets, created);
}

async function evict(ns: string, name: string): Promise<number> {
  const response = await fetch(`${harness.url}/api/v1/namespaces/${ns}/pods/${name}/eviction`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ apiVersion: "policy/v1", kind: "Eviction", metadata: { name } }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** The sum of `metric`'s samples on `/metrics` whose labels contain `part` (0 when none is). */
async function scrape(metric: string, part: string): Promise<number> {
  const text = await (await fetch(`${harness.url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${metric}{`) || !line.includes(part)) continue;
    sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

const evictions = (result: string, scope: string): string =>
  `result="${result}",budget_scope="${scope}"}`;

const cases = [
  {
    name: "an eviction without a budget counts as evicted with scope none",
    setUp: async (ns: string) => {
      await readyPod(ns, makePod("p"));
    },
    pod: "p",
    want: { code: 201, series: evictions("evicted", "none") },
  },
  {
    name: "a pod budget's 429 counts as denied with scope Pod",
    setUp: async (ns: string) => {
      await readyPod(ns, makePod("p"));
      await budget(ns, makePdb("web").minAvailable(2), 0);
    },
    pod: "p",
    want: { code: 429, series: evictions("denied", "Pod") },
  },
  {
    name: "a pod budget's approval counts as evicted with scope Pod",
    setUp: async (ns: string) => {
      await readyPod(ns, makePod("p"));
      await budget(ns, makePdb("web").minAvailable(1), 1);
    },
    pod: "p",
    want: { code: 201, series: evictions("evicted", "Pod") },
  },
  {
    name: "a group budget's free eviction counts as evicted with scope PodGroup",
    setUp: async (ns: string) => {
      await harness.client.create(workloads, {
        ...makeWorkload("w").template("worker", 1).forCreate(),
        metadata: { name: "w", namespace: ns },
      });
      await harness.client.create(podGroups, {
        ...makePodGroup("g", "w", "worker").forCreate(),
        metadata: { name: "g", namespace: ns },
      });
      await readyPod(ns, makePod("g1").podGroup("w", "g"));
      await readyPod(ns, makePod("g2").podGroup("w", "g"));
      await budget(ns, makePdb("web").maxUnavailable(0).usePodGroups(), 0);
    },
    pod: "g1",
    want: { code: 201, series: evictions("evicted", "PodGroup") },
  },
  {
    name: "a group budget naming a missing PodGroup counts as denied with scope PodGroup",
    setUp: async (ns: string) => {
      await readyPod(ns, makePod("x").podGroup("w", "gone"));
      await budget(ns, makePdb("web").maxUnavailable(1).usePodGroups(), 1);
    },
    pod: "x",
    want: { code: 429, series: evictions("denied", "PodGroup") },
  },
  {
    name: "a missing pod counts as an error",
    setUp: async () => {},
    pod: "nothing",
    want: { code: 404, series: evictions("error", "none") },
  },
] as const;

for (const c of cases) {
  test(`EvictionMetrics.observe: ${c.name}`, async () => {
    const ns = await namespace();
    await c.setUp(ns);
    // Upstream counts evictions only here, as POSTs to the eviction subresource.
    const request = `verb="POST",resource="pods",subresource="eviction",code="${c.want.code}"}`;
    const read = async () => ({
      evictions: await scrape("apiserver_pod_evictions_total", c.want.series),
      requests: await scrape("apiserver_request_total", request),
    });
    const before = await read();
    const code = await evict(ns, c.pod);
    const after = await read();
    assert.deepEqual(
      {
        code,
        evictions: after.evictions - before.evictions,
        requests: after.requests - before.requests,
      },
      { code: c.want.code, evictions: 1, requests: 1 },
    );
  });
}
