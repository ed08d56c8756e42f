/**
 * bench:eviction: the eviction decision and the disruption controller's status computation,
 * in process and without HTTP, for one group-scoped budget over 10,000 pods in 1,250 groups of
 * 8, and for 1,000 budgets of 10 pods each. Prints p50/p99 per phase.
 */
import { performance } from "node:perf_hooks";
import {
  countPodGroups,
  type Pod,
  type PodGroup,
  type PodGroupSource,
  type Workload,
} from "../src/api/index.ts";
import { decideForGroups } from "../src/apiserver/registry/eviction/index.ts";
import {
  buildDisruptedPodMap,
  countHealthyPods,
  nextPdbStatus,
} from "../src/controllers/disruption/status.ts";
import { makePdb, makePod } from "../src/testing/index.ts";
import { fmt, percentile, table } from "./stats.ts";

const groups = 1250;
const size = 8;
const rounds = 200;

function readyPod(name: string, labels: Record<string, string>): Pod {
  return makePod(name)
    .labels(labels)
    .phase("Running")
    .condition({ type: "Ready", status: "True" })
    .obj();
}

const workload: Workload = {
  metadata: { name: "train", namespace: "default" },
  spec: { podGroupTemplates: [{ name: "w", policy: { gang: { minCount: 7 } } }] },
};
const podGroups: PodGroup[] = Array.from({ length: groups }, (_, g) => ({
  metadata: { name: `g${g}`, namespace: "default" },
  spec: { workloadRef: { name: "train" }, podGroupTemplateName: "w" },
}));
const byName = new Map(podGroups.map((g) => [g.metadata.name ?? "", g]));
const source: PodGroupSource = {
  workload: () => workload,
  podGroup: (name) => byName.get(name),
  podGroupsOf: () => podGroups,
};
const pods = Array.from({ length: groups * size }, (_, i) => {
  const pod = readyPod(`p${i}`, { app: "train" });
  pod.spec.workloadRef = { name: "train", podGroupName: `g${Math.floor(i / size)}` };
  return pod;
});
const groupPdb = makePdb("train")
  .matchLabels({ app: "train" })
  .maxUnavailable(1)
  .usePodGroups()
  .status({
    disruptionsAllowed: 1,
    currentHealthy: groups,
    desiredHealthy: groups - 1,
    expectedPods: groups,
  })
  .obj();

function measure(run: (i: number) => void): number[] {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    run(i);
    samples.push(performance.now() - start);
  }
  return samples;
}

const decision = measure((i) => {
  decideForGroups(groupPdb, pods[(i * 37) % pods.length] as Pod, { pods, source }, new Date());
});
const groupSync = measure(() => {
  const now = new Date();
  const { disrupted } = buildDisruptedPodMap(pods, groupPdb, now);
  const counts = countPodGroups(pods, source, disrupted);
  nextPdbStatus(
    groupPdb,
    {
      currentHealthy: counts.healthy,
      desiredHealthy: counts.expected - 1,
      expectedPods: counts.expected,
      disruptedPods: disrupted,
    },
    now,
  );
});
const small = Array.from({ length: 1000 }, (_, b) => ({
  pdb: makePdb(`b${b}`)
    .matchLabels({ app: `a${b}` })
    .minAvailable(5)
    .obj(),
  pods: Array.from({ length: 10 }, (_, i) => readyPod(`b${b}-${i}`, { app: `a${b}` })),
}));
const manySync = measure((i) => {
  const budget = small[i % small.length];
  if (budget === undefined) return;
  const now = new Date();
  const { disrupted } = buildDisruptedPodMap(budget.pods, budget.pdb, now);
  const healthy = countHealthyPods(budget.pods, disrupted, now);
  nextPdbStatus(
    budget.pdb,
    { currentHealthy: healthy, desiredHealthy: 5, expectedPods: 10, disruptedPods: disrupted },
    now,
  );
});

const row = (name: string, samples: number[]): string[] => [
  name,
  fmt(percentile(samples, 50), 3),
  fmt(percentile(samples, 99), 3),
];
process.stdout.write(
  table(
    ["phase (ms)", "p50", "p99"],
    [
      row("eviction decision, 1 PDB over 10,000 pods / 1,250 groups of 8", decision),
      row("controller sync compute, same PDB", groupSync),
      row("controller sync compute, 1 of 1,000 PDBs x 10 pods", manySync),
    ],
  ),
);
process.stdout.write("\n");
