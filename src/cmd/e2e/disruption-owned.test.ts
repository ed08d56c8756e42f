import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
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

// Disruption budgets over controller-owned pod groups, with the real `gantry up` (scheduler,
// gang scheduling, StatefulSet and LeaderWorkerSet controllers, emulated kubelets), the real
// kubectl drain and the real `gantry drain-plan --execute`. Every scenario has nodes of its own.

const version = "1.33";
const repoRoot = join(import.meta.dirname, "..", "..", "..");

interface List<T> {
  readonly items: readonly T[];
}

describe("disruption budgets over controller-owned pod groups", { concurrency: 1 }, () => {
  let gantry: GantryProcess;
  const { run, ok, get, apply } = cliFor(() => gantry, version);
  const drain = (node: string, timeout: string): Promise<KubectlResult> =>
    run(["drain", node, "--ignore-daemonsets", "--force", `--timeout=${timeout}`]);

  /** Running and Ready pods of the namespace, not terminating: name → uid. */
  const readyPods = async (ns: string): Promise<Map<string, string>> => {
    const pods = await get<List<Pod>>(["pods", "-n", ns]);
    return new Map(
      pods.items
        .filter(
          (p) =>
            p.metadata.deletionTimestamp === undefined &&
            p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true,
        )
        .map((p) => [p.metadata.name ?? "", p.metadata.uid ?? ""]),
    );
  };
  const waitReady = (ns: string, count: number): Promise<Map<string, string>> =>
    eventually(
      async () => {
        const ready = await readyPods(ns);
        assert.equal(ready.size, count, `ready pods: ${[...ready.keys()].join(",")}`);
        return ready;
      },
      60_000,
      250,
    );
  const budgetReads = (ns: string, want: [expected: number, healthy: number, allowed: number]) =>
    eventually(
      async () => {
        const budget = await get<PodDisruptionBudget>(["pdb", "budget", "-n", ns]);
        const s = budget.status;
        assert.deepEqual([s?.expectedPods, s?.currentHealthy, s?.disruptionsAllowed], want);
      },
      45_000,
      250,
    );
  const pdb = (ns: string, selector: object, spec: object): object => ({
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "budget", namespace: ns },
    spec: { selector: { matchLabels: selector }, ...spec },
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

  /**
   * The KEP's example, owned by controllers: two replicas (PodGroups r0, r1) of two pods, one
   * pod of each replica on each node. Each pod is a one-replica StatefulSet pinned to its node,
   * so a pod evicted from a cordoned node is recreated but cannot run again.
   */
  const kepReplicas = (ns: string, nodes: readonly [string, string]): object[] => [
    workload(ns, 2),
    podGroup(ns, "r0"),
    podGroup(ns, "r1"),
    ...["r0", "r1"].flatMap((replica) =>
      nodes.map((node, i) => ({
        apiVersion: "apps/v1",
        kind: "StatefulSet",
        metadata: { name: `${replica}-n${i}`, namespace: ns },
        spec: {
          replicas: 1,
          serviceName: replica,
          podManagementPolicy: "Parallel",
          selector: { matchLabels: { app: "train", sts: `${replica}-n${i}` } },
          template: {
            metadata: { labels: { app: "train", sts: `${replica}-n${i}` } },
            spec: {
              nodeSelector: { "kubernetes.io/hostname": node },
              workloadRef: { name: "train", podGroupName: replica },
              containers: [
                { name: "c", image: "trainer", resources: { requests: { cpu: "10m" } } },
              ],
            },
          },
        },
      })),
    ),
  ];

  before(async () => {
    gantry = await startGantry({ storage: "memory", extraArgs: ["--nodes", "6"] });
  });
  after(async () => {
    await gantry?.[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("Eviction without usePodGroups: the KEP's example drain breaks both replicas", {
    timeout: 120_000,
  }, async () => {
    const ns = "kep-pods";
    await ok(["create", "namespace", ns]);
    await apply([
      ...kepReplicas(ns, ["node-0", "node-1"]),
      pdb(ns, { app: "train" }, { maxUnavailable: 2 }),
    ]);
    const before = await waitReady(ns, 4);
    // Four one-replica StatefulSets: 4 pods expected, 2 may go.
    await budgetReads(ns, [4, 4, 2]);
    const result = await drain("node-0", "30s");
    assert.equal(result.code, 0, `the drain completes:\n${result.stderr}`);
    assert.match(result.stdout, /^pod\/r0-n0-0 evicted$/m);
    assert.match(result.stdout, /^pod\/r1-n0-0 evicted$/m);
    // Each replica kept only its pod on node-1: both are below minCount at once.
    const after = await readyPods(ns);
    assert.deepEqual(
      [...after.keys()].sort(),
      ["r0-n1-0", "r1-n1-0"],
      "both replicas lost their pod on node-0",
    );
    assert.equal(after.get("r0-n1-0"), before.get("r0-n1-0"));
    await ok(["uncordon", "node-0"]);
  });

  test("Eviction with usePodGroups: the same drain leaves one replica whole until it times out", {
    timeout: 120_000,
  }, async () => {
    const ns = "kep-groups";
    await ok(["create", "namespace", ns]);
    await apply([
      ...kepReplicas(ns, ["node-2", "node-3"]),
      pdb(ns, { app: "train" }, { maxUnavailable: 1, usePodGroups: true }),
    ]);
    await waitReady(ns, 4);
    // Two PodGroups: 2 groups expected, 1 may break.
    await budgetReads(ns, [2, 2, 1]);
    // kubectl's describer prints the counters and the events, so the event says they are groups.
    await eventually(
      async () => {
        const described = await ok(["describe", "pdb", "budget", "-n", ns]);
        assert.match(described, /^\s+Allowed disruptions:\s+1$/m);
        assert.match(described, /^\s+Total:\s+2$/m);
        assert.match(
          described,
          /Normal\s+CountingPodGroups\s+.*This budget counts pod groups \(budgetScope: PodGroup\): Allowed disruptions, Current, Desired and Total are numbers of pod groups, not pods/,
        );
      },
      20_000,
      500,
    );
    const result = await drain("node-2", "8s");
    assert.equal(result.code, 1, `the drain stops at the second replica:\n${result.stderr}`);
    assert.match(
      result.stderr,
      /error when evicting pods\/"r[01]-n0-0" -n "kep-groups" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./,
    );
    assert.match(result.stderr, /global timeout reached: 8s/);
    const after = [...(await readyPods(ns)).keys()].sort();
    assert.ok(
      JSON.stringify(after) === JSON.stringify(["r0-n0-0", "r0-n1-0", "r1-n1-0"]) ||
        JSON.stringify(after) === JSON.stringify(["r0-n1-0", "r1-n0-0", "r1-n1-0"]),
      `one replica is whole, got ${after.join(",")}`,
    );
    await ok(["uncordon", "node-2"]);
  });

  test("Eviction with usePodGroups: a drain keeps one LeaderWorkerSet group whole", {
    timeout: 120_000,
  }, async () => {
    const ns = "lws";
    await ok(["create", "namespace", ns]);
    const pinned = {
      nodeSelector: { "kubernetes.io/hostname": "node-4" },
      containers: [{ name: "c", image: "trainer", resources: { requests: { cpu: "10m" } } }],
    };
    await apply([
      {
        apiVersion: "leaderworkerset.x-k8s.io/v1",
        kind: "LeaderWorkerSet",
        metadata: { name: "infer", namespace: ns },
        spec: {
          replicas: 2,
          leaderWorkerTemplate: {
            size: 2,
            leaderTemplate: { spec: pinned },
            workerTemplate: { spec: pinned },
          },
        },
      },
      pdb(
        ns,
        { "leaderworkerset.sigs.k8s.io/name": "infer" },
        { maxUnavailable: 1, usePodGroups: true },
      ),
    ]);
    const before = await waitReady(ns, 4);
    await budgetReads(ns, [2, 2, 1]);
    const result = await drain("node-4", "8s");
    assert.equal(result.code, 1, `the drain is held by the budget:\n${result.stderr}`);
    assert.match(
      result.stderr,
      /Cannot evict pod as it would violate the pod's disruption budget\./,
    );
    // One group was taken (the set recreates it, but it cannot run on the cordoned node); the
    // other kept both its original pods.
    const after = await readyPods(ns);
    const whole = [
      ["infer-0", "infer-0-1"],
      ["infer-1", "infer-1-1"],
    ].filter((group) => group.every((name) => after.get(name) === before.get(name)));
    assert.equal(whole.length, 1, `exactly one group is whole: ${[...after.keys()].join(",")}`);
    assert.equal(after.size, 2, `only the whole group runs: ${[...after.keys()].join(",")}`);
    await ok(["uncordon", "node-4"]);
  });

  test("gantry drain-plan --execute evicts in the planned order and honours the budget", {
    timeout: 120_000,
  }, async () => {
    const ns = "plan";
    await ok(["create", "namespace", ns]);
    const pod = (name: string, group: string, node: string): object => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: ns, labels: { app: "train" } },
      spec: {
        nodeName: node,
        workloadRef: { name: "train", podGroupName: group },
        containers: [{ name: "c", image: "trainer", resources: { requests: { cpu: "10m" } } }],
      },
    });
    // On node-5: one pod of a group with a spare pod (free), and two groups at minCount 2 that
    // the drain would break. The budget lets one group break.
    await apply([
      workload(ns, 2),
      ...["a", "b", "c"].map((g) => podGroup(ns, g)),
      pod("a-0", "a", "node-5"),
      pod("a-1", "a", "node-1"),
      pod("a-2", "a", "node-1"),
      pod("b-0", "b", "node-5"),
      pod("b-1", "b", "node-1"),
      pod("c-0", "c", "node-5"),
      pod("c-1", "c", "node-1"),
      pdb(ns, { app: "train" }, { maxUnavailable: 1, usePodGroups: true }),
    ]);
    await waitReady(ns, 7);
    await budgetReads(ns, [3, 3, 1]);
    const result = await drainPlan(["node-5", "--execute"]);
    assert.equal(result.code, 1, `one eviction is refused:\n${result.stdout}${result.stderr}`);
    const order = planOrder(result.stdout);
    assert.deepEqual([...order].sort(), ["a-0", "b-0", "c-0"], result.stdout);
    assert.equal(order[0], "a-0", "the free eviction goes first");
    const evicted = [...result.stdout.matchAll(/^pod\/(\S+) evicted$/gm)].map((m) => m[1]);
    assert.deepEqual(
      evicted,
      order.slice(0, 2),
      "evictions follow the plan until the budget runs out",
    );
    assert.match(
      result.stderr,
      new RegExp(
        `^error when evicting pods/"${order[2]}" -n "plan": Cannot evict pod as it would violate the pod's disruption budget\\.$`,
        "m",
      ),
    );
    const live = [...(await readyPods(ns)).keys()].sort();
    assert.ok(live.includes(order[2] ?? ""), `the refused pod still runs: ${live.join(",")}`);
  });

  /** `gantry drain-plan ARGS` against the test's gantry. */
  function drainPlan(args: readonly string[]): Promise<KubectlResult> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [
          join(repoRoot, "bin", "gantry.js"),
          "drain-plan",
          ...args,
          "--kubeconfig",
          gantry.kubeconfig,
        ],
        { cwd: repoRoot, timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }
});

/** The POD column of drain-plan's table, in order. */
function planOrder(stdout: string): string[] {
  const lines = stdout.split("\n");
  const header = lines.findIndex((l) => l.startsWith("ORDER"));
  const rows: string[] = [];
  for (const line of lines.slice(header + 1)) {
    const cells = line.trim().split(/\s+/);
    if (!/^\d+$/.test(cells[0] ?? "")) break;
    rows.push(cells[2] ?? "");
  }
  return rows;
}
