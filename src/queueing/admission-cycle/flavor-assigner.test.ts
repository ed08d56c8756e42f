import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClusterQueue, KueueWorkload, ResourceFlavor } from "../../api/index.ts";
import { makeClusterQueue, makeKueueWorkload, makeResourceFlavor } from "../../testing/index.ts";
import { frKey, QuotaTree, quotaNodeOf } from "../cache/quota.ts";
import { assignFlavors } from "./flavor-assigner.ts";

const flavors = [
  makeResourceFlavor("on-demand", { nodeLabels: { "instance-type": "on-demand" } }),
  makeResourceFlavor("spot", {
    nodeLabels: { "instance-type": "spot" },
    nodeTaints: [{ key: "spot", value: "true", effect: "NoSchedule" }],
  }),
  makeResourceFlavor("default"),
];

function run(
  cqs: ClusterQueue[],
  workload: KueueWorkload,
  usage: Record<string, number> = {},
): ReturnType<typeof assignFlavors> {
  const tree = new QuotaTree();
  for (const cq of cqs) tree.add(quotaNodeOf(cq));
  const first = cqs[0] as ClusterQueue;
  const node = tree.nodes.get(first.metadata.name ?? "");
  assert.ok(node !== undefined, "the first ClusterQueue is in the tree");
  for (const [key, value] of Object.entries(usage)) node.usage.set(key, value);
  const byName = new Map<string, ResourceFlavor>(flavors.map((f) => [f.metadata.name ?? "", f]));
  return assignFlavors(workload, first, byName, tree, node);
}

const cpu = (amount: string) =>
  makeKueueWorkload("w").queue("q").podSet("main", 1, { cpu: amount });

const cases = [
  {
    name: "the first flavor with room",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ "on-demand": { cpu: "2" } })
        .obj(),
    ],
    workload: cpu("1").obj(),
    want: { flavor: "on-demand", usage: "1" },
  },
  {
    name: "the next flavor when the first is full",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ "on-demand": { cpu: "1" }, default: { cpu: "4" } })
        .obj(),
    ],
    workload: cpu("1").obj(),
    usage: { [frKey("on-demand", "cpu")]: 1000 },
    want: { flavor: "default", usage: "1" },
  },
  {
    name: "skips a flavor whose taint the pods do not tolerate",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ spot: { cpu: "8" }, default: { cpu: "4" } })
        .obj(),
    ],
    workload: cpu("500m").obj(),
    want: { flavor: "default", usage: "500m" },
  },
  {
    name: "takes a tainted flavor the pods tolerate",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ spot: { cpu: "8" }, default: { cpu: "4" } })
        .obj(),
    ],
    workload: makeKueueWorkload("w")
      .podSet("main", 1, { cpu: "1" }, { tolerations: [{ key: "spot", operator: "Exists" }] })
      .obj(),
    want: { flavor: "spot", usage: "1" },
  },
  {
    name: "skips a flavor whose node labels the node selector excludes",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ "on-demand": { cpu: "8" }, spot: { cpu: "8" } })
        .obj(),
    ],
    workload: makeKueueWorkload("w")
      .podSet(
        "main",
        1,
        { cpu: "1" },
        {
          nodeSelector: { "instance-type": "spot" },
          tolerations: [{ key: "spot", operator: "Exists" }],
        },
      )
      .obj(),
    want: { flavor: "spot", usage: "1" },
  },
  {
    name: "borrows from the cohort when its own quota is used",
    cqs: [
      makeClusterQueue("a")
        .cohort("all")
        .resourceGroup({ default: { cpu: "2" } })
        .obj(),
      makeClusterQueue("b")
        .cohort("all")
        .resourceGroup({ default: { cpu: "2" } })
        .obj(),
    ],
    workload: cpu("3").obj(),
    want: { flavor: "default", usage: "3" },
  },
  {
    name: "a podSet of 3 pods counts every pod",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ default: { cpu: "4", memory: "4Gi" } })
        .obj(),
    ],
    workload: makeKueueWorkload("w").podSet("main", 3, { cpu: "1", memory: "1Gi" }).obj(),
    want: { flavor: "default", usage: "3" },
  },
] as const;

for (const c of cases) {
  test(`assignFlavors: ${c.name}`, () => {
    const result = run([...c.cqs], c.workload, "usage" in c ? c.usage : {});
    assert.equal(result.kind, "fit", result.kind === "noFit" ? result.message : "");
    if (result.kind !== "fit") return;
    assert.deepEqual(
      [
        result.podSetAssignments[0]?.flavors?.["cpu"],
        result.podSetAssignments[0]?.resourceUsage?.["cpu"],
      ],
      [c.want.flavor, c.want.usage],
    );
  });
}

const noFit = [
  {
    name: "the request exceeds what the ClusterQueue could ever hold",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ default: { cpu: "8" } })
        .obj(),
    ],
    workload: cpu("10").obj(),
    usage: {},
    want: "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, request > maximum capacity (10 > 8)",
  },
  {
    name: "a resource no group covers",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ default: { cpu: "2" } })
        .obj(),
    ],
    workload: makeKueueWorkload("w").podSet("main", 1, { cpu: "1", "example.com/gpu": "1" }).obj(),
    usage: {},
    want: "couldn't assign flavors to pod set main: resource example.com/gpu unavailable in ClusterQueue",
  },
  {
    name: "a borrowing limit caps what the cohort lends",
    cqs: [
      makeClusterQueue("a")
        .cohort("all")
        .resourceGroup({ default: { cpu: { nominal: "2", borrowingLimit: "1" } } })
        .obj(),
      makeClusterQueue("b")
        .cohort("all")
        .resourceGroup({ default: { cpu: "4" } })
        .obj(),
    ],
    workload: cpu("4").obj(),
    usage: {},
    want: "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, request > maximum capacity (4 > 3)",
  },
  {
    name: "a lending limit keeps the rest of a lender's quota",
    cqs: [
      makeClusterQueue("a")
        .cohort("all")
        .resourceGroup({ default: { cpu: "1" } })
        .obj(),
      makeClusterQueue("b")
        .cohort("all")
        .resourceGroup({ default: { cpu: { nominal: "4", lendingLimit: "1" } } })
        .obj(),
    ],
    workload: cpu("3").obj(),
    usage: {},
    want: "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, request > maximum capacity (3 > 2)",
  },
] as const;

test("assignFlavors: a request within nominal quota that is in use can preempt, with Kueue's pending message", () => {
  const cq = makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "2", memory: "2Gi" } })
    .obj();
  const result = run(
    [cq],
    makeKueueWorkload("w").podSet("main", 1, { cpu: "1", memory: "2Gi" }).obj(),
    { [frKey("default", "memory")]: 1024 ** 3 },
  );
  assert.equal(result.kind, "preempt");
  if (result.kind !== "preempt") return;
  assert.deepEqual(
    [result.message, [...result.needPreemption]],
    [
      "couldn't assign flavors to pod set main: insufficient unused quota for memory in flavor default, 1Gi more needed",
      ["default/memory"],
    ],
  );
});

test("assignFlavors: a request above nominal that only borrowing could satisfy does not preempt unless borrowWithinCohort allows it", () => {
  const cqs = (policy: "Never" | "LowerPriority") => [
    makeClusterQueue("a")
      .cohort("all")
      .resourceGroup({ default: { cpu: "2" } })
      .preemption({ reclaimWithinCohort: "Any", borrowWithinCohort: { policy } })
      .obj(),
    makeClusterQueue("b")
      .cohort("all")
      .resourceGroup({ default: { cpu: "2" } })
      .obj(),
  ];
  const usage = { [frKey("default", "cpu")]: 1000 };
  assert.equal(run(cqs("Never"), cpu("4").obj(), usage).kind, "noFit");
  assert.equal(run(cqs("LowerPriority"), cpu("4").obj(), usage).kind, "preempt");
});

for (const c of noFit) {
  test(`assignFlavors: no fit when ${c.name}`, () => {
    const result = run([...c.cqs], c.workload, c.usage);
    assert.deepEqual(result, { kind: "noFit", message: c.want });
  });
}
