import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { defaultKubeletSettings, type KubeletSettings } from "../config/cluster-config.ts";
import { parsePrometheusText, renderPrometheusText } from "../internal/prometheus-text.ts";
import { type CheckpointStore, CpuManager } from "./cpu-manager.ts";
import { CpuSet } from "./cpuset.ts";
import { testPod } from "./internal/test-pods.ts";
import {
  alignedPhysicalCpu,
  alignedUncoreCache,
  type CpuManagerMetrics,
  isAlignedAtUncoreCache,
} from "./metrics.ts";
import { discoverTopology } from "./topology/discover.ts";
import { findPreset } from "./topology/presets.ts";
import { readTopology } from "./topology/read.ts";
import type { CpuTopology } from "./topology/topology.ts";

function presetTopology(name: string): CpuTopology {
  assert.ok(findPreset(name) !== undefined, `preset ${name} exists`);
  const read = readTopology(name, name);
  if (!read.ok) throw new TypeError(read.problems.join("; "));
  return discoverTopology(read.nodes);
}

/** 2 sockets × 16 cores, SMT2; L3 groups 0-7+32-39, 8-15+40-47, 16-23+48-55, 24-31+56-63. */
const splitL3 = presetTopology("split-l3-2s-16c-smt2");

const alignmentCases = [
  { name: "the empty set is aligned", cpus: "", want: true },
  { name: "one CPU is aligned", cpus: "11", want: true },
  { name: "threads of one L3 group are aligned", cpus: "1-4,33-36", want: true },
  { name: "a whole L3 group is aligned", cpus: "8-15,40-47", want: true },
  { name: "two L3 groups are not", cpus: "7-8", want: false },
  { name: "an unknown CPU among others is not", cpus: "1,99", want: false },
] as const;

for (const c of alignmentCases) {
  test(`isAlignedAtUncoreCache: ${c.name}`, () => {
    assert.equal(isAlignedAtUncoreCache(splitL3, CpuSet.parse(c.cpus)), c.want);
  });
}

interface Snapshot {
  requests: number;
  errors: number;
  pool: number;
  exclusive: number;
  physical: number;
  physicalFailures: number;
  uncore: number;
  perNuma: Record<string, number>;
}

function snapshot(m: CpuManagerMetrics): Snapshot {
  return {
    requests: m.pinningRequests,
    errors: m.pinningErrors,
    pool: m.sharedPoolMillicores,
    exclusive: m.exclusiveCpus,
    physical: m.aligned(alignedPhysicalCpu),
    physicalFailures: m.alignedFailures(alignedPhysicalCpu),
    uncore: m.aligned(alignedUncoreCache),
    perNuma: Object.fromEntries([...m.perNuma()].map(([k, v]) => [String(k), v])),
  };
}

function store(): CheckpointStore & { text: string | undefined } {
  const s = {
    path: "/data/cpu_manager_state",
    text: undefined as string | undefined,
    read: () => s.text,
    write: (text: string) => {
      s.text = text;
    },
  };
  return s;
}

const settings = (options: Record<string, string>): KubeletSettings => ({
  ...defaultKubeletSettings,
  cpuManagerPolicy: "static",
  reservedSystemCPUs: "0,32",
  cpuManagerPolicyOptions: options,
});

function admit(manager: CpuManager, pod: Pod, restoring = false, others: Pod[] = []): boolean {
  const admitted = manager.admit({
    pod,
    otherPods: others,
    node: { apiVersion: "v1", kind: "Node", metadata: { name: "n" } },
    restoring,
  }).admit;
  if (admitted) others.push(pod);
  return admitted;
}

test("CpuManagerMetrics: a fresh static policy reports the shared pool and zeroed alignment counters", () => {
  const manager = CpuManager.open({ kubelet: settings({}), topology: splitL3 });
  assert.deepEqual(snapshot(manager.metrics), {
    requests: 0,
    errors: 0,
    pool: 62_000,
    exclusive: 0,
    physical: 0,
    physicalFailures: 0,
    uncore: 0,
    perNuma: {},
  });
});

test("CpuManagerMetrics: counts as upstream's static policy counts, across a restart", () => {
  const options = { "prefer-align-cpus-by-uncorecache": "true", "full-pcpus-only": "true" };
  const checkpoint = store();
  const manager = CpuManager.open({ kubelet: settings(options), topology: splitL3, checkpoint });
  const a = testPod("a", [{ name: "app", cpu: "4" }]);
  const running: Pod[] = [];
  const steps: readonly { name: string; act: () => void; want: Partial<Snapshot> }[] = [
    {
      name: "4 CPUs inside one L3 group: aligned at the physical CPU and the uncore cache",
      act: () => assert.ok(admit(manager, a, false, running), "a is admitted"),
      want: { requests: 1, errors: 0, pool: 58_000, exclusive: 4, physical: 1, uncore: 1 },
    },
    {
      name: "an odd request fails the SMT alignment: an error and a physical CPU failure",
      act: () =>
        assert.ok(
          !admit(manager, testPod("b", [{ name: "app", cpu: "3" }]), false, running),
          "b fails",
        ),
      want: { requests: 2, errors: 1, physicalFailures: 1, exclusive: 4 },
    },
    {
      name: "20 CPUs span two L3 groups: aligned physically, not at the uncore cache",
      act: () =>
        assert.ok(
          admit(manager, testPod("c", [{ name: "app", cpu: "20" }]), false, running),
          "c fits",
        ),
      want: { requests: 3, physical: 2, uncore: 1, exclusive: 24, pool: 38_000 },
    },
    {
      name: "a Burstable pod asks for no pinning and changes nothing",
      act: () =>
        assert.ok(
          admit(
            manager,
            testPod("d", [{ name: "app", cpu: "2", burstable: true }]),
            false,
            running,
          ),
          "d runs in the shared pool",
        ),
      want: { requests: 3, exclusive: 24 },
    },
    {
      name: "releasing a gives its CPUs back to the shared pool",
      act: () => manager.release(a),
      want: { exclusive: 20, pool: 42_000, requests: 3 },
    },
  ];
  for (const step of steps) {
    step.act();
    const got = snapshot(manager.metrics);
    const picked = Object.fromEntries(
      Object.keys(step.want).map((k) => [k, got[k as keyof Snapshot]]),
    );
    assert.deepEqual(picked, step.want, step.name);
  }
  const perNuma = snapshot(manager.metrics).perNuma;
  assert.equal(
    Object.values(perNuma).reduce((sum, n) => sum + n, 0) >= 20,
    true,
    `per-NUMA gauges cover c's CPUs: ${JSON.stringify(perNuma)}`,
  );

  const restarted = CpuManager.open({ kubelet: settings(options), topology: splitL3, checkpoint });
  assert.deepEqual(
    snapshot(restarted.metrics),
    {
      requests: 0,
      errors: 0,
      pool: 42_000,
      exclusive: 20,
      physical: 0,
      physicalFailures: 0,
      uncore: 0,
      perNuma: Object.fromEntries(
        Object.entries(perNuma).filter(
          ([numa]) =>
            splitL3.cpusInNumaNodes(Number(numa)).intersection(restarted.state.assignedCpus())
              .size > 0,
        ),
      ),
    },
    "a restart starts the counters at 0 and the gauges from the checkpoint",
  );
  assert.ok(admit(restarted, testPod("c", [{ name: "app", cpu: "20" }]), true), "c restores");
  assert.deepEqual(
    [restarted.metrics.pinningRequests, restarted.metrics.aligned(alignedPhysicalCpu)],
    [1, 1],
    "re-admitting a pinned container counts a pinning request, as upstream's kubelet does",
  );
  assert.equal(
    restarted.metrics.aligned(alignedUncoreCache),
    0,
    "no new allocation, no uncore count",
  );
});

test("CpuManagerMetrics.families: upstream's names and labels in the text format", () => {
  const manager = CpuManager.open({
    kubelet: settings({ "prefer-align-cpus-by-uncorecache": "true" }),
    topology: splitL3,
  });
  assert.ok(admit(manager, testPod("a", [{ name: "app", cpu: "2" }])), "a is admitted");
  const samples = parsePrometheusText(renderPrometheusText(manager.metrics.families()));
  assert.deepEqual(Object.fromEntries(samples), {
    'kubelet_container_aligned_compute_resources_count{boundary="physical_cpu",scope="container"}': 0,
    'kubelet_container_aligned_compute_resources_count{boundary="uncore_cache",scope="container"}': 1,
    'kubelet_container_aligned_compute_resources_failure_count{boundary="physical_cpu",scope="container"}': 0,
    'kubelet_cpu_manager_allocation_per_numa{numa_node="0"}': 2,
    kubelet_cpu_manager_exclusive_cpu_allocation_count: 2,
    kubelet_cpu_manager_pinning_errors_total: 0,
    kubelet_cpu_manager_pinning_requests_total: 1,
    kubelet_cpu_manager_shared_pool_size_millicores: 60_000,
  });
});
