import assert from "node:assert/strict";
import test from "node:test";
import type { Node, Pod } from "../../api/index.ts";
import { makeNode, makePod } from "../../testing/index.ts";
import { type PodAdmitHandler, type PodAdmitResult, runAdmitHandlers } from "./admit-handler.ts";
import { newPredicateAdmitHandler } from "./predicate.ts";

const node = makeNode("n1").capacity({
  cpu: "4",
  memory: "16Gi",
  pods: "3",
  "example.com/gpu": "2",
});

const cases: readonly {
  name: string;
  pod: Pod;
  others?: Pod[];
  node?: Node;
  restoring?: boolean;
  want: PodAdmitResult;
}[] = [
  {
    name: "a pod that fits is admitted",
    pod: makePod("p").requests({ cpu: "1" }).obj(),
    want: { admit: true },
  },
  {
    name: "too much cpu is OutOfcpu with millicores",
    pod: makePod("p").requests({ cpu: "2" }).obj(),
    others: [makePod("a").requests({ cpu: "2500m" }).obj()],
    want: {
      admit: false,
      reason: "OutOfcpu",
      message: "Node didn't have enough resource: cpu, requested: 2000, used: 2500, capacity: 4000",
    },
  },
  {
    name: "too much memory is OutOfmemory in bytes",
    pod: makePod("p").requests({ memory: "17Gi" }).obj(),
    want: {
      admit: false,
      reason: "OutOfmemory",
      message: `Node didn't have enough resource: memory, requested: ${17 * 2 ** 30}, used: 0, capacity: ${16 * 2 ** 30}`,
    },
  },
  {
    name: "a full node is OutOfpods even for a pod without requests",
    pod: makePod("p").obj(),
    others: [makePod("a").obj(), makePod("b").obj(), makePod("c").obj()],
    want: {
      admit: false,
      reason: "OutOfpods",
      message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3",
    },
  },
  {
    name: "an extended resource the node has too little of",
    pod: makePod("p").requests({ "example.com/gpu": "3" }).obj(),
    want: {
      admit: false,
      reason: "OutOfexample.com/gpu",
      message:
        "Node didn't have enough resource: example.com/gpu, requested: 3, used: 0, capacity: 2",
    },
  },
  {
    name: "an extended resource the node lacks entirely is ignored, as upstream",
    pod: makePod("p").requests({ "other.com/fpga": "1" }).obj(),
    want: { admit: true },
  },
  {
    name: "a nodeSelector the node does not match",
    pod: makePod("p").nodeSelector({ disk: "ssd" }).obj(),
    want: {
      admit: false,
      reason: "NodeAffinity",
      message: "Predicate NodeAffinity failed: node(s) didn't match Node selector",
    },
  },
  {
    name: "a NoExecute taint the pod does not tolerate",
    pod: makePod("p").obj(),
    node: node.clone().taint("maintenance", "", "NoExecute").obj(),
    want: {
      admit: false,
      reason: "TaintToleration",
      message: "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate",
    },
  },
  {
    name: "a NoSchedule taint does not matter to the kubelet",
    pod: makePod("p").obj(),
    node: node.clone().taint("dedicated", "x", "NoSchedule").obj(),
    want: { admit: true },
  },
  {
    name: "restoring a running pod skips affinity and taints",
    pod: makePod("p").nodeSelector({ disk: "ssd" }).obj(),
    node: node.clone().taint("maintenance", "", "NoExecute").obj(),
    restoring: true,
    want: { admit: true },
  },
  {
    name: "a host port already taken",
    pod: makePod("p").hostPort(8080).obj(),
    others: [makePod("a").hostPort(8080).obj()],
    want: {
      admit: false,
      reason: "NodePorts",
      message:
        "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
    },
  },
  {
    name: "a pod for another OS",
    pod: makePod("p").label("kubernetes.io/os", "windows").obj(),
    want: {
      admit: false,
      reason: "PodOSSelectorNodeLabelDoesNotMatch",
      message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
    },
  },
];

for (const c of cases) {
  test(`PredicateAdmitHandler.admit: ${c.name}`, () => {
    const got = newPredicateAdmitHandler().admit({
      pod: c.pod,
      otherPods: c.others ?? [],
      node: c.node ?? node.obj(),
      restoring: c.restoring === true,
    });
    assert.deepEqual(got, c.want);
  });
}

test("runAdmitHandlers: the first refusal wins and earlier handlers release the pod", () => {
  const log: string[] = [];
  const handler = (name: string, result: PodAdmitResult | Error): PodAdmitHandler => ({
    name,
    admit: () => {
      log.push(`admit ${name}`);
      if (result instanceof Error) throw result;
      return result;
    },
    release: () => log.push(`release ${name}`),
  });
  const attributes = { pod: makePod("p").obj(), otherPods: [], node: node.obj(), restoring: false };
  const got = runAdmitHandlers(
    [
      handler("cpu", { admit: true }),
      handler("broken", new Error("no cpus left")),
      handler("never", { admit: true }),
    ],
    attributes,
  );
  assert.deepEqual(
    { got, log },
    {
      got: {
        admit: false,
        reason: "UnexpectedAdmissionError",
        message: "Allocate failed due to no cpus left, which is unexpected",
      },
      log: ["admit cpu", "admit broken", "release cpu"],
    },
  );
});
