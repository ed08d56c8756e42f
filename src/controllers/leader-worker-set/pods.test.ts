import assert from "node:assert/strict";
import { test } from "node:test";
import {
  defaultLeaderWorkerSet,
  type OwnerReference,
  type Pod,
  type PodTemplateSpec,
} from "../../api/index.ts";
import { makeLeaderWorkerSet } from "../../testing/index.ts";
import { groupKey } from "./hash.ts";
import { newGroupPod, newGroupPods } from "./pods.ts";

const ref: OwnerReference = {
  apiVersion: "leaderworkerset.x-k8s.io/v1",
  kind: "LeaderWorkerSet",
  name: "lws",
  uid: "uid-lws",
  controller: true,
  blockOwnerDeletion: true,
};

/** The `LWS_*` variables, as the pod webhook puts them first in every container. */
function lwsEnv(address: string, size: number, worker: number) {
  return [
    { name: "LWS_LEADER_ADDRESS", value: address },
    { name: "LWS_GROUP_SIZE", value: String(size) },
    { name: "LWS_WORKER_INDEX", value: String(worker) },
  ];
}

const leaderTemplate: PodTemplateSpec = {
  metadata: { labels: { role: "leader" }, annotations: { note: "lead" } },
  spec: {
    containers: [
      {
        name: "l",
        image: "leader:1",
        env: [
          { name: "A", value: "a" },
          { name: "LWS_GROUP_SIZE", value: "9" },
        ],
      },
    ],
    initContainers: [{ name: "init", image: "busybox" }],
  },
};

test("groupKey: SHA-1 of <namespace>/<leader>, as upstream's genGroupUniqueKey", () => {
  assert.deepEqual(
    [groupKey("default", "lws-0"), groupKey("default", "lws-1")],
    ["9f7c49a9534189e737848b962d712086e1d5dfd8", "e3b77691ceaf9c99ab858e9bdc360b8be0489795"],
  );
});

test("newGroupPod: the leader of group 1 from the leader template, with identity, env and scheduling group", () => {
  const lws = defaultLeaderWorkerSet(
    makeLeaderWorkerSet("lws").replicas(2).size(3).leaderTemplate(leaderTemplate).obj(),
  );
  const pod = newGroupPod({ lws, group: 1, revision: "rev1", controllerRef: ref }, 0);
  const want: Pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "lws-1",
      namespace: "default",
      ownerReferences: [ref],
      labels: {
        role: "leader",
        "leaderworkerset.sigs.k8s.io/name": "lws",
        "leaderworkerset.sigs.k8s.io/group-index": "1",
        "leaderworkerset.sigs.k8s.io/worker-index": "0",
        "leaderworkerset.sigs.k8s.io/group-key": "e3b77691ceaf9c99ab858e9bdc360b8be0489795",
        "leaderworkerset.sigs.k8s.io/template-revision-hash": "rev1",
      },
      annotations: { note: "lead", "leaderworkerset.sigs.k8s.io/size": "3" },
    },
    spec: {
      containers: [
        {
          name: "l",
          image: "leader:1",
          env: [...lwsEnv("lws-1.lws.default", 3, 0), { name: "A", value: "a" }],
        },
      ],
      initContainers: [{ name: "init", image: "busybox", env: lwsEnv("lws-1.lws.default", 3, 0) }],
      hostname: "lws-1",
      subdomain: "lws",
      workloadRef: { name: "lws", podGroupName: "lws-1" },
    },
  };
  assert.deepEqual(pod, want);
});

test("newGroupPod: a worker from the worker template names its leader", () => {
  const lws = defaultLeaderWorkerSet(
    makeLeaderWorkerSet("lws").replicas(2).size(3).leaderTemplate(leaderTemplate).obj(),
  );
  const pod = newGroupPod({ lws, group: 1, revision: "rev1", controllerRef: ref }, 2);
  const want: Pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "lws-1-2",
      namespace: "default",
      ownerReferences: [ref],
      labels: {
        "leaderworkerset.sigs.k8s.io/name": "lws",
        "leaderworkerset.sigs.k8s.io/group-index": "1",
        "leaderworkerset.sigs.k8s.io/worker-index": "2",
        "leaderworkerset.sigs.k8s.io/group-key": "e3b77691ceaf9c99ab858e9bdc360b8be0489795",
        "leaderworkerset.sigs.k8s.io/template-revision-hash": "rev1",
      },
      annotations: {
        "leaderworkerset.sigs.k8s.io/size": "3",
        "leaderworkerset.sigs.k8s.io/leader-name": "lws-1",
      },
    },
    spec: {
      containers: [{ name: "c", image: "nginx:1", env: lwsEnv("lws-1.lws.default", 3, 2) }],
      hostname: "lws-1-2",
      subdomain: "lws",
      workloadRef: { name: "lws", podGroupName: "lws-1" },
    },
  };
  assert.deepEqual(pod, want);
});

const cases = [
  {
    name: "UniquePerReplica puts each group under its leader's own subdomain",
    lws: makeLeaderWorkerSet("lws").size(2).subdomainPolicy("UniquePerReplica"),
    worker: 1,
    want: {
      subdomain: "lws-0",
      address: "lws-0.lws-0.default",
      annotations: {
        "leaderworkerset.sigs.k8s.io/size": "2",
        "leaderworkerset.sigs.k8s.io/leader-name": "lws-0",
      },
    },
  },
  {
    name: "UniquePerReplica marks the leader with the subdomain policy annotation",
    lws: makeLeaderWorkerSet("lws").size(2).subdomainPolicy("UniquePerReplica"),
    worker: 0,
    want: {
      subdomain: "lws-0",
      address: "lws-0.lws-0.default",
      annotations: {
        "leaderworkerset.sigs.k8s.io/size": "2",
        "leaderworkerset.sigs.k8s.io/subdomainPolicy": "UniquePerReplica",
      },
    },
  },
  {
    name: "the set's exclusive-topology annotation is copied onto its pods",
    lws: makeLeaderWorkerSet("lws")
      .size(2)
      .annotation("leaderworkerset.sigs.k8s.io/exclusive-topology", "topology.kubernetes.io/zone"),
    worker: 1,
    want: {
      subdomain: "lws",
      address: "lws-0.lws.default",
      annotations: {
        "leaderworkerset.sigs.k8s.io/size": "2",
        "leaderworkerset.sigs.k8s.io/leader-name": "lws-0",
        "leaderworkerset.sigs.k8s.io/exclusive-topology": "topology.kubernetes.io/zone",
      },
    },
  },
] as const;

for (const c of cases) {
  test(`newGroupPod: ${c.name}`, () => {
    const lws = defaultLeaderWorkerSet(c.lws.obj());
    const pod = newGroupPod({ lws, group: 0, revision: "r", controllerRef: ref }, c.worker);
    assert.deepEqual(
      {
        subdomain: pod.spec.subdomain,
        address: pod.spec.containers[0]?.env?.[0]?.value,
        annotations: pod.metadata.annotations,
      },
      c.want,
    );
  });
}

test("newGroupPod: a template that names its own scheduling group keeps it", () => {
  const lws = defaultLeaderWorkerSet(makeLeaderWorkerSet("lws").obj());
  lws.spec.leaderWorkerTemplate.workerTemplate.spec = {
    containers: [{ name: "c", image: "x" }],
    workloadRef: { name: "mine", podGroupName: "mine-0" },
  };
  const pod = newGroupPod({ lws, group: 0, revision: "r", controllerRef: ref }, 0);
  assert.deepEqual(pod.spec.workloadRef, { name: "mine", podGroupName: "mine-0" });
});

const subGroupCases = [
  {
    name: "size-1 divisible: the leader is the extra pod of subgroup 0",
    size: 5,
    sub: 2,
    want: [0, 0, 0, 1, 1],
  },
  {
    name: "size divisible: plain slices of the worker indices",
    size: 4,
    sub: 2,
    want: [0, 0, 1, 1],
  },
] as const;

for (const c of subGroupCases) {
  test(`newGroupPods: subgroups when ${c.name}`, () => {
    const lws = defaultLeaderWorkerSet(makeLeaderWorkerSet("lws").size(c.size).obj());
    lws.spec.leaderWorkerTemplate.subGroupPolicy = { subGroupSize: c.sub };
    const pods = newGroupPods({ lws, group: 0, revision: "r", controllerRef: ref });
    const indices = pods.map((p) =>
      Number(p.metadata.labels?.["leaderworkerset.sigs.k8s.io/subgroup-index"]),
    );
    assert.deepEqual(indices, [...c.want]);
  });
}

test("newGroupPods: the subgroup key is SHA-1 of <leader>/<subgroup> and the leader records the policy type", () => {
  const lws = defaultLeaderWorkerSet(makeLeaderWorkerSet("lws").size(4).obj());
  lws.spec.leaderWorkerTemplate.subGroupPolicy = {
    subGroupSize: 2,
    subGroupPolicyType: "LeaderWorker",
  };
  const [leader, , second] = newGroupPods({ lws, group: 0, revision: "r", controllerRef: ref });
  assert.deepEqual(
    {
      leaderKey: leader?.metadata.labels?.["leaderworkerset.sigs.k8s.io/subgroup-key"],
      secondKey: second?.metadata.labels?.["leaderworkerset.sigs.k8s.io/subgroup-key"],
      policy: leader?.metadata.annotations?.["leaderworkerset.sigs.k8s.io/subgroup-policy-type"],
      size: second?.metadata.annotations?.["leaderworkerset.sigs.k8s.io/subgroup-size"],
    },
    {
      leaderKey: "64d26fbc1313c4f19359835dc0314b7986243248",
      secondKey: "9a04e952f5fa14ba00dc528e168e7eca4cbfa81d",
      policy: "LeaderWorker",
      size: "2",
    },
  );
});
