import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { discoverTopology, readTopology } from "../../kubelet/index.ts";
import { eventually, kubectl, runGantry, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

const node = "epyc-0";
const config = `apiVersion: gantry.dev/v1alpha1
kind: ClusterConfig
nodePools:
- name: epyc
  count: 1
  topology: amd-epyc-9654-2s
  capacity: {memory: 768Gi}
  kubelet:
    cpuManagerPolicy: static
    cpuManagerPolicyOptions: {prefer-align-cpus-by-uncorecache: "true"}
    reservedSystemCPUs: "0,192"
`;

function guaranteed(name: string, cpu: number): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeName: ${node}
  containers:
  - name: app
    image: nginx
    resources:
      limits: {cpu: "${cpu}", memory: 1Gi}
`;
}

const pods = [
  guaranteed("db", 16),
  guaranteed("cache", 8),
  guaranteed("web", 4),
  `apiVersion: v1
kind: Pod
metadata: {name: batch}
spec:
  nodeName: ${node}
  containers:
  - name: app
    image: nginx
    resources:
      requests: {cpu: 500m}
`,
].join("---\n");

interface PodResourcesList {
  pod_resources?: { name: string; containers?: { name: string; cpu_ids?: number[] }[] }[];
}

/** The 2-socket EPYC 9654 as the kubelet sees it: CPU → L3 (uncore cache) id. */
function l3Of(): (cpu: number) => number | undefined {
  const read = readTopology("amd-epyc-9654-2s", "amd-epyc-9654-2s");
  assert.ok(read.ok, "the preset reads");
  const topology = discoverTopology(read.nodes);
  return (cpu) => topology.details.get(cpu)?.uncoreCache;
}

test("CPU manager e2e: Guaranteed pods on a split-L3 EPYC get CPUs from one L3, visible through podresources and metrics, across a restart", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "gantry-cpu-e2e-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "cluster.yaml"), config);
  const dataDir = join(dir, "data");
  const args = ["--config", join(dir, "cluster.yaml")];
  const raw = async (gantry: { kubeconfig: string; dataDir: string }, path: string) => {
    const got = await kubectl(gantry, "", ["get", "--raw", `/api/v1/nodes/${node}/proxy/${path}`]);
    assert.equal(got.code, 0, got.stderr);
    return got.stdout;
  };
  const l3 = l3Of();
  let before: PodResourcesList;
  {
    await using gantry = await startGantry({ dataDir, extraArgs: args, storage: "sqlite" });
    const applied = await kubectl(gantry, "", ["apply", "-f", "-"], { input: pods });
    assert.equal(applied.code, 0, applied.stderr);
    await eventually(async () => {
      const got = await kubectl(gantry, "", [
        "get",
        "pods",
        "-o",
        "jsonpath={.items[*].status.phase}",
      ]);
      assert.deepEqual(
        got.stdout.split(" "),
        ["Running", "Running", "Running", "Running"],
        got.stderr,
      );
    }, 20_000);

    before = JSON.parse(await raw(gantry, "podresources")) as PodResourcesList;
    const byPod = new Map((before.pod_resources ?? []).map((p) => [p.name, p.containers ?? []]));
    assert.deepEqual(
      [...byPod.keys()],
      ["batch", "cache", "db", "web"],
      "every active pod is listed",
    );
    assert.deepEqual(
      byPod.get("batch"),
      [{ name: "app" }],
      "a shared-pool container has no cpu_ids",
    );
    const taken = new Set<number>();
    for (const [name, want] of [
      ["db", 16],
      ["cache", 8],
      ["web", 4],
    ] as const) {
      const cpus = byPod.get(name)?.[0]?.cpu_ids ?? [];
      assert.equal(cpus.length, want, `${name} holds ${want} exclusive CPUs`);
      assert.equal(new Set(cpus.map(l3)).size, 1, `${name}'s CPUs ${cpus.join(",")} share one L3`);
      for (const cpu of cpus) {
        assert.ok(!taken.has(cpu), `CPU ${cpu} is exclusive to one container`);
        taken.add(cpu);
      }
    }
    const allocatable = JSON.parse(await raw(gantry, "podresources/allocatable")) as {
      cpu_ids: number[];
    };
    assert.equal(allocatable.cpu_ids.length, 382, "all CPUs but the two reserved are allocatable");

    const metrics = await raw(gantry, "metrics");
    for (const line of [
      "kubelet_cpu_manager_pinning_requests_total 3",
      "kubelet_cpu_manager_pinning_errors_total 0",
      "kubelet_cpu_manager_exclusive_cpu_allocation_count 28",
      "kubelet_cpu_manager_shared_pool_size_millicores 354000",
      'kubelet_container_aligned_compute_resources_count{boundary="uncore_cache",scope="container"} 3',
    ]) {
      assert.ok(metrics.split("\n").includes(line), `/metrics has "${line}":\n${metrics}`);
    }

    const shown = await runGantry(["cpus", "show", node, "--kubeconfig", gantry.kubeconfig]);
    assert.equal(shown.code, 0, shown.stderr);
    const rows = shown.stdout
      .trim()
      .split("\n")
      .map((line) => line.split(/\s{2,}/));
    assert.deepEqual(rows[0], ["NAMESPACE", "POD", "CONTAINER", "CPUS", "L3 CACHES", "NUMA NODES"]);
    const db = rows.find((r) => r[1] === "db");
    const dbCpus = byPod.get("db")?.[0]?.cpu_ids ?? [];
    assert.deepEqual(
      [db?.[4], db?.[5]],
      [String(l3(dbCpus[0] ?? -1)), "0"],
      `gantry cpus show names db's one L3 and NUMA node:\n${shown.stdout}`,
    );
    assert.deepEqual(rows.find((r) => r[1] === "batch")?.slice(3), ["shared", "-", "-"]);
  }
  {
    await using gantry = await startGantry({ dataDir, extraArgs: args, storage: "sqlite" });
    const after = JSON.parse(await raw(gantry, "podresources")) as PodResourcesList;
    assert.deepEqual(after, before, "the checkpoint keeps every assignment across a restart");
    const metrics = await raw(gantry, "metrics");
    assert.ok(
      metrics.includes("\nkubelet_cpu_manager_exclusive_cpu_allocation_count 28\n"),
      `the restored state is counted:\n${metrics}`,
    );
  }
});
