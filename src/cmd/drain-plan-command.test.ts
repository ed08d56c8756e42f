import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod, PodGroup, Workload } from "../api/index.ts";
import { makePdb, makePod } from "../testing/index.ts";
import { formatPlan, planDrain } from "./drain-plan-command.ts";

function member(name: string, group: string, node: string, ready = true): Pod {
  const pod = makePod(name)
    .label("app", "train")
    .nodeName(node)
    .phase("Running")
    .condition({ type: "Ready", status: ready ? "True" : "False" })
    .obj();
  pod.spec.workloadRef = { name: "train", podGroupName: group };
  return pod;
}

const workload: Workload = {
  metadata: { name: "train", namespace: "default" },
  spec: {
    podGroupTemplates: [
      { name: "pairs", policy: { gang: { minCount: 2 } } },
      { name: "big", policy: { gang: { minCount: 8 } } },
    ],
  },
};

function group(name: string, template: string): PodGroup {
  return {
    metadata: { name, namespace: "default" },
    spec: { workloadRef: { name: "train" }, podGroupTemplateName: template },
  };
}

const pods = [
  member("a-0", "a", "n1"),
  member("a-1", "a", "n1"),
  member("b-0", "b", "n1"),
  member("b-1", "b", "n2", false),
  ...Array.from({ length: 10 }, (_, i) => member(`big-${i}`, "big", i < 2 ? "n1" : "n2")),
];
const budget = makePdb("train-pdb")
  .matchLabels({ app: "train" })
  .maxUnavailable(1)
  .usePodGroups()
  .status({ disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 2, expectedPods: 3 })
  .obj();
const plans = planDrain({
  nodePods: pods.filter((p) => p.spec.nodeName === "n1"),
  budgets: [budget],
  pods,
  workloads: [workload],
  podGroups: [group("a", "pairs"), group("b", "pairs"), group("big", "big")],
});

test("planDrain: broken groups first, then surplus pods, then the pods that break a group", () => {
  assert.deepEqual(
    plans.map((p) => [p.name, p.evictable, p.group, p.breaksGroup]),
    [
      ["b-0", "yes", "podgroup/b", false],
      ["big-0", "yes", "podgroup/big", false],
      ["big-1", "yes", "podgroup/big", false],
      ["a-0", "budget", "podgroup/a", true],
      ["a-1", "budget", "podgroup/a", true],
    ],
  );
});

test("formatPlan: one row per pod under a header, in plan order", () => {
  const lines = formatPlan(plans).trimEnd().split("\n");
  assert.match(lines[0] ?? "", /^ORDER\s+NAMESPACE\s+POD\s+PDB\s+EVICT NOW\s+GROUP\s+REASON$/);
  assert.match(
    lines[1] ?? "",
    /^1\s+default\s+b-0\s+train-pdb\s+yes\s+podgroup\/b\s+group already broken$/,
  );
  assert.equal(lines.length, plans.length + 1);
});
