import assert from "node:assert/strict";
import { test } from "node:test";
import { makeDaemonSet, makeNode, makePod } from "../../testing/index.ts";
import {
  addDaemonPodTolerations,
  nodeShouldRunDaemonPod,
  pinToNode,
  targetNodeName,
} from "./placement.ts";

const ds = makeDaemonSet("agent");
const node = makeNode("n1").label("disk", "ssd");

const cases = [
  { name: "a plain node runs the pod", ds: ds, node: node, want: [true, true] },
  {
    name: "a nodeSelector the node does not match keeps the pod off",
    ds: ds.clone().nodeSelector({ disk: "hdd" }),
    node: node,
    want: [false, false],
  },
  {
    name: "a required node affinity the node matches runs the pod",
    ds: ds.clone().requiredNodeAffinityTerm({
      matchExpressions: [{ key: "disk", operator: "In", values: ["ssd"] }],
    }),
    node: node,
    want: [true, true],
  },
  {
    name: "an untolerated NoSchedule taint blocks new pods but lets a running one stay",
    ds: ds,
    node: node.clone().taint("dedicated", "gpu", "NoSchedule"),
    want: [false, true],
  },
  {
    name: "an untolerated NoExecute taint blocks and evicts",
    ds: ds,
    node: node.clone().taint("dedicated", "gpu", "NoExecute"),
    want: [false, false],
  },
  {
    name: "a toleration in the template lets the pod onto a tainted node",
    ds: ds.clone().toleration({ key: "dedicated", operator: "Exists" }),
    node: node.clone().taint("dedicated", "gpu", "NoSchedule"),
    want: [true, true],
  },
  {
    name: "daemon pods tolerate the unreachable NoExecute taint",
    ds: ds,
    node: node.clone().taint("node.kubernetes.io/unreachable", "", "NoExecute"),
    want: [true, true],
  },
  {
    name: "daemon pods tolerate a cordoned node",
    ds: ds,
    node: node.clone().unschedulable().taint("node.kubernetes.io/unschedulable", "", "NoSchedule"),
    want: [true, true],
  },
  {
    name: "network-unavailable blocks pods without hostNetwork",
    ds: ds,
    node: node.clone().taint("node.kubernetes.io/network-unavailable", "", "NoSchedule"),
    want: [false, true],
  },
  {
    name: "network-unavailable is tolerated by hostNetwork pods",
    ds: ds.clone().hostNetwork(),
    node: node.clone().taint("node.kubernetes.io/network-unavailable", "", "NoSchedule"),
    want: [true, true],
  },
  {
    name: "PreferNoSchedule never blocks",
    ds: ds,
    node: node.clone().taint("spot", "", "PreferNoSchedule"),
    want: [true, true],
  },
] as const;

for (const c of cases) {
  test(`nodeShouldRunDaemonPod: ${c.name}`, () => {
    const verdict = nodeShouldRunDaemonPod(c.node.obj(), c.ds.obj());
    assert.deepEqual([verdict.shouldRun, verdict.shouldContinueRunning], c.want);
  });
}

test("nodeShouldRunDaemonPod: a template nodeName names the only node", () => {
  const pinned = ds.obj();
  pinned.spec.template.spec = { ...pinned.spec.template.spec, nodeName: "n2", containers: [] };
  assert.deepEqual(nodeShouldRunDaemonPod(node.obj(), pinned), {
    shouldRun: false,
    shouldContinueRunning: false,
  });
});

test("addDaemonPodTolerations: appends upstream's automatic tolerations once, keeping the pod's own", () => {
  const spec = { containers: [], tolerations: [{ key: "a", operator: "Exists" as const }] };
  addDaemonPodTolerations(spec);
  addDaemonPodTolerations(spec);
  assert.deepEqual(spec.tolerations, [
    { key: "a", operator: "Exists" },
    { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute" },
    { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" },
    { key: "node.kubernetes.io/disk-pressure", operator: "Exists", effect: "NoSchedule" },
    { key: "node.kubernetes.io/memory-pressure", operator: "Exists", effect: "NoSchedule" },
    { key: "node.kubernetes.io/pid-pressure", operator: "Exists", effect: "NoSchedule" },
    { key: "node.kubernetes.io/unschedulable", operator: "Exists", effect: "NoSchedule" },
  ]);
});

test("pinToNode: replaces the required terms, keeps preferred terms, and targetNodeName reads it back", () => {
  const preferred = [
    { weight: 1, preference: { matchExpressions: [{ key: "a", operator: "Exists" as const }] } },
  ];
  const affinity = pinToNode(
    {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: "disk", operator: "Exists" }] }],
        },
        preferredDuringSchedulingIgnoredDuringExecution: preferred,
      },
    },
    "n7",
  );
  const pod = makePod("p").obj();
  pod.spec.affinity = affinity;
  assert.deepEqual(
    { affinity, target: targetNodeName(pod) },
    {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: "metadata.name", operator: "In", values: ["n7"] }] },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: preferred,
        },
      },
      target: "n7",
    },
  );
});

test("targetNodeName: spec.nodeName wins; nothing for a pod without either", () => {
  assert.deepEqual(
    [targetNodeName(makePod("p").nodeName("n3").obj()), targetNodeName(makePod("p").obj())],
    ["n3", undefined],
  );
});
