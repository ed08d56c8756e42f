import assert from "node:assert/strict";
import { test } from "node:test";
import { makePdb, makePod, makePodGroup, makeWorkload } from "../../testing/index.ts";
import type { Pod } from "../core/v1/pod-types.ts";
import { type DrainPlanInput, planDrain } from "./drain-plan.ts";

function running(name: string, node = "n1", ready = true) {
  return makePod(name)
    .label("app", "train")
    .nodeName(node)
    .phase("Running")
    .condition({ type: "Ready", status: ready ? "True" : "False" });
}

const pairs = makeWorkload("train").template("pairs", 2).obj();
const groupA = makePodGroup("a", "train", "pairs").obj();
const podBudget = makePdb("pods").matchLabels({ app: "train" }).maxUnavailable(1);
const groupBudget = podBudget.clone().usePodGroups();

function input(nodePods: Pod[], more: Partial<DrainPlanInput> = {}): DrainPlanInput {
  return {
    nodePods,
    budgets: [],
    pods: nodePods,
    workloads: [pairs],
    podGroups: [groupA],
    ...more,
  };
}

const cases: readonly {
  readonly name: string;
  readonly input: DrainPlanInput;
  readonly want: readonly (readonly [string, string, string, boolean, string])[];
}[] = [
  {
    name: "a pod no budget selects goes without spending anything",
    input: input([running("p").obj()]),
    want: [["p", "", "yes", false, "no budget"]],
  },
  {
    name: "pending, finished and terminating pods bypass budgets",
    input: input(
      [
        running("pending").phase("Pending").obj(),
        running("done").phase("Succeeded").obj(),
        running("leaving").terminating().obj(),
      ],
      { budgets: [podBudget.clone().status({ disruptionsAllowed: 0 }).obj()] },
    ),
    want: [
      ["pending", "", "yes", false, "pending, finished or terminating"],
      ["done", "", "yes", false, "pending, finished or terminating"],
      ["leaving", "", "yes", false, "pending, finished or terminating"],
    ],
  },
  {
    name: "a pod two budgets select cannot be evicted",
    input: input([running("p").obj()], {
      budgets: [podBudget.obj(), makePdb("other").matchLabels({ app: "train" }).obj()],
    }),
    want: [["p", "pods", "no", false, "more than one budget"]],
  },
  {
    name: "a per-pod budget spends one unit when it has one",
    input: input([running("p").obj()], {
      budgets: [podBudget.clone().status({ disruptionsAllowed: 2 }).obj()],
    }),
    want: [["p", "pods", "budget", false, "ready pod: spends 1 of 2"]],
  },
  {
    name: "a per-pod budget without disruptions left refuses",
    input: input([running("p", "n1", false).obj()], {
      budgets: [podBudget.clone().status({ disruptionsAllowed: 0 }).obj()],
    }),
    want: [["p", "pods", "no", false, "unready pod: no disruptions allowed"]],
  },
  {
    name: "a group-aware budget refuses a pod whose Workload is missing",
    input: input([running("p").podGroup("train", "a").obj()], {
      budgets: [groupBudget.clone().status({ disruptionsAllowed: 1 }).obj()],
      workloads: [],
    }),
    want: [["p", "pods", "no", false, 'Workload "train" not found']],
  },
  {
    name: "a whole gang's pods break it and go last; a broken gang's pods go first",
    input: {
      nodePods: [
        running("a-0").podGroup("train", "a").obj(),
        running("b-0").podGroup("train", "b").obj(),
      ],
      pods: [
        running("a-0").podGroup("train", "a").obj(),
        running("a-1", "n2").podGroup("train", "a").obj(),
        running("b-0").podGroup("train", "b").obj(),
        running("b-1", "n2", false).podGroup("train", "b").obj(),
      ],
      budgets: [groupBudget.clone().status({ disruptionsAllowed: 1 }).obj()],
      workloads: [pairs],
      podGroups: [groupA, makePodGroup("b", "train", "pairs").obj()],
    },
    want: [
      ["b-0", "pods", "yes", false, "group already broken"],
      ["a-0", "pods", "budget", true, "breaks group podgroup/a: spends 1 of 1"],
    ],
  },
  {
    name: "a gang above its minCount loses a surplus pod for free",
    input: {
      nodePods: [running("a-0").podGroup("train", "a").obj()],
      pods: ["a-0", "a-1", "a-2"].map((n) => running(n).podGroup("train", "a").obj()),
      budgets: [groupBudget.clone().status({ disruptionsAllowed: 0 }).obj()],
      workloads: [pairs],
      podGroups: [groupA],
    },
    want: [["a-0", "pods", "yes", false, "group keeps 2 of minCount 2"]],
  },
];

for (const c of cases) {
  test(`planDrain: ${c.name}`, () => {
    const got = planDrain(c.input).map(
      (p) => [p.name, p.pdb, p.evictable, p.breaksGroup, p.reason] as const,
    );
    assert.deepEqual(got, c.want);
  });
}
