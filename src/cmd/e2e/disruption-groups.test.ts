import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Pod, PodDisruptionBudget } from "../../api/index.ts";
import {
  eventually,
  type GantryProcess,
  type KubectlResult,
  startGantry,
} from "../../testing/index.ts";
import { cliFor } from "../../testing/kubectl-scenarios.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// Group-aware budgets (usePodGroups / budgetScope: PodGroup) driven by the real kubectl drain.
// Pods are pre-bound with spec.nodeName, so gang scheduling plays no part.

const version = "1.33";

interface List<T> {
  readonly items: readonly T[];
}

describe("kubectl drain with group-aware PodDisruptionBudgets", { concurrency: 1 }, () => {
  let gantry: GantryProcess;
  const { run, ok, get, apply } = cliFor(() => gantry, version);
  const drain = (node: string, timeout: string): Promise<KubectlResult> =>
    run([
      "drain",
      node,
      "--ignore-daemonsets",
      "--delete-emptydir-data",
      "--force",
      `--timeout=${timeout}`,
    ]);

  /** Live (not terminating) pod names of the namespace. */
  const livePods = async (ns: string): Promise<string[]> => {
    const pods = await get<List<Pod>>(["pods", "-n", ns]);
    return pods.items
      .filter((p) => p.metadata.deletionTimestamp === undefined)
      .map((p) => p.metadata.name ?? "")
      .sort();
  };

  const pod = (ns: string, name: string, node: string, workloadRef: object): object => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: ns, labels: { app: "train" } },
    spec: {
      nodeName: node,
      workloadRef,
      containers: [{ name: "c", image: "trainer", resources: { requests: { cpu: "10m" } } }],
    },
  });

  const workload = (ns: string, minCount: number): object => ({
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "Workload",
    metadata: { name: "train", namespace: ns },
    spec: { podGroupTemplates: [{ name: "workers", policy: { gang: { minCount } } }] },
  });

  const podGroup = (ns: string, name: string): object => ({
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "PodGroup",
    metadata: { name, namespace: ns },
    spec: { workloadRef: { name: "train" }, podGroupTemplateName: "workers" },
  });

  const pdb = (ns: string, spec: object): object => ({
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "train-pdb", namespace: ns },
    spec: { selector: { matchLabels: { app: "train" } }, usePodGroups: true, ...spec },
  });

  const budgetReads = (ns: string, want: [expected: number, healthy: number, allowed: number]) =>
    eventually(
      async () => {
        const budget = await get<PodDisruptionBudget>(["pdb", "train-pdb", "-n", ns]);
        const s = budget.status;
        assert.deepEqual([s?.expectedPods, s?.currentHealthy, s?.disruptionsAllowed], want);
      },
      45_000,
      250,
    );

  before(async () => {
    gantry = await startGantry({ storage: "memory", extraArgs: ["--nodes", "5"] });
  });
  after(async () => {
    await gantry?.[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("Eviction with usePodGroups: the KEP's example drains one replica and keeps the other whole", {
    timeout: 90_000,
  }, async () => {
    const ns = "kep-example";
    await ok(["create", "namespace", ns]);
    await apply([
      workload(ns, 2),
      podGroup(ns, "r0"),
      podGroup(ns, "r1"),
      ...["r0", "r1"].flatMap((g) =>
        [0, 1].map((i) => pod(ns, `${g}-${i}`, "node-0", { name: "train", podGroupName: g })),
      ),
      pdb(ns, { maxUnavailable: 1 }),
    ]);
    await budgetReads(ns, [2, 2, 1]);
    const result = await drain("node-0", "8s");
    assert.equal(result.code, 1, `the drain stops at the second replica:\n${result.stderr}`);
    assert.match(
      result.stderr,
      /Cannot evict pod as it would violate the pod's disruption budget\./,
    );
    const live = await livePods(ns);
    assert.ok(
      JSON.stringify(live) === JSON.stringify(["r0-0", "r0-1"]) ||
        JSON.stringify(live) === JSON.stringify(["r1-0", "r1-1"]),
      `one whole replica survives, got ${live.join(",")}`,
    );
    await ok(["uncordon", "node-0"]);
  });

  test("Eviction with usePodGroups: the KEP's e2e test blocks at minAvailable 1 and proceeds at 0", {
    timeout: 90_000,
  }, async () => {
    const ns = "kep-e2e";
    await ok(["create", "namespace", ns]);
    await apply([
      workload(ns, 3),
      podGroup(ns, "g0"),
      podGroup(ns, "g1"),
      ...["g0", "g1"].flatMap((g) =>
        [0, 1, 2].map((i) => pod(ns, `${g}-${i}`, "node-1", { name: "train", podGroupName: g })),
      ),
      pdb(ns, { minAvailable: 1 }),
    ]);
    await budgetReads(ns, [2, 2, 1]);
    const blocked = await drain("node-1", "8s");
    assert.equal(blocked.code, 1, `the drain is blocked:\n${blocked.stderr}`);
    assert.equal((await livePods(ns)).length, 3, "one group of three is left");
    await ok([
      "patch",
      "pdb",
      "train-pdb",
      "-n",
      ns,
      "--type=merge",
      "-p",
      '{"spec":{"minAvailable":0}}',
    ]);
    const done = await drain("node-1", "40s");
    assert.equal(done.code, 0, `the drain proceeds:\n${done.stderr}`);
    assert.match(done.stdout, /^node\/node-1 drained$/m);
    assert.deepEqual(await livePods(ns), []);
    await ok(["uncordon", "node-1"]);
  });

  test("Eviction with usePodGroups: a 10-pod group with minCount 8 loses two pods without budget", {
    timeout: 90_000,
  }, async () => {
    const ns = "surplus";
    await ok(["create", "namespace", ns]);
    await apply([
      workload(ns, 8),
      podGroup(ns, "big"),
      ...Array.from({ length: 10 }, (_, i) =>
        pod(ns, `big-${i}`, i < 2 ? "node-2" : "node-3", { name: "train", podGroupName: "big" }),
      ),
      pdb(ns, { minAvailable: 1 }),
    ]);
    await budgetReads(ns, [1, 1, 0]);
    const result = await drain("node-2", "30s");
    assert.equal(result.code, 0, `the surplus pods go:\n${result.stderr}`);
    assert.match(result.stdout, /^node\/node-2 drained$/m);
    assert.equal((await livePods(ns)).length, 8);
    await budgetReads(ns, [1, 1, 0]);
    await ok(["uncordon", "node-2"]);
  });

  test("Eviction with usePodGroups: a missing Workload blocks eviction with a message naming it", {
    timeout: 60_000,
  }, async () => {
    const ns = "missing";
    await ok(["create", "namespace", ns]);
    await apply([
      pod(ns, "lost-0", "node-4", { name: "ghost", podGroup: "workers", podGroupReplicaKey: "0" }),
      pdb(ns, { minAvailable: 0 }),
    ]);
    const result = await drain("node-4", "6s");
    assert.equal(result.code, 1, `the drain is blocked:\n${result.stderr}`);
    assert.match(
      result.stderr,
      /error when evicting pods\/"lost-0" -n "missing" \(will retry after 5s\): Cannot evict pod as its disruption budget cannot resolve the pod's group: Workload "ghost" not found/,
    );
    assert.deepEqual(await livePods(ns), ["lost-0"]);
    await ok(["uncordon", "node-4"]);
  });
});
