import assert from "node:assert/strict";
import { test } from "node:test";
import { gangSchedulingAnnotation, type Workload } from "../../api/index.ts";
import { makeJob } from "../../testing/index.ts";
import {
  canCreateSchedulingObjects,
  decideJobScheduling,
  desiredPodGroup,
  desiredWorkload,
  type JobSchedulingDecision,
  podGroupName,
  podGroupTemplateName,
  workloadName,
  workloadRefFromPods,
} from "./scheduling.ts";

const train = () => makeJob("train").indexed().completions(4).parallelism(4);

const decisionCases: {
  name: string;
  job: ReturnType<typeof train>;
  want: JobSchedulingDecision;
}[] = [
  {
    name: "a Job without spec.scheduling or the annotation is left alone",
    job: train(),
    want: { action: "skip", reason: "NotRequested" },
  },
  {
    name: "a gang without minCount takes parallelism",
    job: train().gang(),
    want: { action: "manage", policy: { gang: { minCount: 4 } } },
  },
  {
    name: "an explicit minCount wins over parallelism",
    job: train().gang(2),
    want: { action: "manage", policy: { gang: { minCount: 2 } } },
  },
  {
    name: "a basic policy still gets its objects",
    job: train().basicScheduling(),
    want: { action: "manage", policy: { basic: {} } },
  },
  {
    name: "the annotation asks for a gang of parallelism",
    job: train().annotation(gangSchedulingAnnotation, "true"),
    want: { action: "manage", policy: { gang: { minCount: 4 } } },
  },
  {
    name: "the annotation set to false asks for nothing",
    job: train().annotation(gangSchedulingAnnotation, "false"),
    want: { action: "skip", reason: "NotRequested" },
  },
  {
    name: "spec.scheduling wins over the annotation",
    job: train().basicScheduling().annotation(gangSchedulingAnnotation, "true"),
    want: { action: "manage", policy: { basic: {} } },
  },
  {
    name: "a NonIndexed Job may opt in too",
    job: makeJob("plain").completions(6).parallelism(3).gang(),
    want: { action: "manage", policy: { gang: { minCount: 3 } } },
  },
  {
    name: "a suspended Job with parallelism 0 gets minCount 1",
    job: train().parallelism(0).gang(),
    want: { action: "manage", policy: { gang: { minCount: 1 } } },
  },
  {
    name: "a pod template naming its own group is the user's",
    job: train()
      .annotation(gangSchedulingAnnotation, "true")
      .workloadRef({ name: "mine", podGroupName: "mine-0" }),
    want: { action: "skip", reason: "UserManaged" },
  },
  {
    name: "a Job another controller owns leaves the Workload to it",
    job: train().gang().ownerReference({
      apiVersion: "jobset.x-k8s.io/v1alpha2",
      kind: "JobSet",
      name: "js",
      uid: "uid-js",
      controller: true,
    }),
    want: { action: "skip", reason: "ParentManaged" },
  },
  {
    name: "a CronJob's Job is standalone",
    job: train().gang().ownerReference({
      apiVersion: "batch/v1",
      kind: "CronJob",
      name: "nightly",
      uid: "uid-cj",
      controller: true,
    }),
    want: { action: "manage", policy: { gang: { minCount: 4 } } },
  },
];

for (const c of decisionCases) {
  test(`decideJobScheduling: ${c.name}`, () => {
    assert.deepEqual(decideJobScheduling(c.job.obj()), c.want);
  });
}

const createCases = [
  { name: "a Job with no pods and no counts may create", pods: 0, status: {}, want: true },
  { name: "a Job with a pod only reuses", pods: 1, status: {}, want: false },
  { name: "a Job with succeeded pods only reuses", pods: 0, status: { succeeded: 1 }, want: false },
  { name: "a Job with failed pods only reuses", pods: 0, status: { failed: 2 }, want: false },
] as const;

for (const c of createCases) {
  test(`canCreateSchedulingObjects: ${c.name}`, () => {
    const job = train().status(c.status).obj();
    assert.equal(canCreateSchedulingObjects(job, Array.from({ length: c.pods })), c.want);
  });
}

// Expected hashes computed independently: FNV-1a 32 of "(types.UID)<uid>", in decimal, each
// digit mapped onto "bcdfghjklmnpqrstvwxz2456789" (rand.SafeEncodeString).
const namingCases = [
  { name: "the Job name and a hash of its uid", uid: "uid-train", want: "train-54d6ccd68" },
  { name: "another uid gives another name", uid: "uid-other", want: "train-cccb5b77b" },
] as const;

for (const c of namingCases) {
  test(`workloadName: ${c.name}`, () => {
    const job = train().obj();
    job.metadata.uid = c.uid;
    assert.equal(workloadName(job), c.want);
  });
}

test("workloadName: a name too long for a DNS subdomain is cut before the hash", () => {
  const job = train().obj();
  job.metadata.name = "a".repeat(260);
  const name = workloadName(job);
  assert.equal(name.length <= 253, true, `length ${name.length}`);
  assert.match(name, /^a+-[bcdfghjklmnpqrstvwxz2456789]+$/);
});

const templateCases = [
  { name: "is <job>-pgt-0", job: "train", want: "train-pgt-0" },
  {
    name: "cuts a long Job name to stay a DNS label",
    job: `${"j".repeat(60)}`,
    want: `${"j".repeat(57)}-pgt-0`,
  },
] as const;

for (const c of templateCases) {
  test(`podGroupTemplateName: ${c.name}`, () => {
    const job = train().obj();
    job.metadata.name = c.job;
    assert.equal(podGroupTemplateName(job), c.want);
  });
}

test("podGroupName: <workload>-<template>-<hash of both>", () => {
  assert.equal(
    podGroupName("train-54d6ccd68", "train-pgt-0"),
    "train-54d6ccd68-train-pgt-0-5f986bcf7d",
  );
});

const truncationCases = [
  { name: "a short workload name lends room to the template", workload: 10, template: 300 },
  { name: "a short template lends room to the workload", workload: 300, template: 10 },
  { name: "two long names split the room", workload: 300, template: 300 },
] as const;

for (const c of truncationCases) {
  test(`podGroupName: ${c.name}`, () => {
    const workload = "w".repeat(c.workload);
    const template = "t".repeat(c.template);
    const name = podGroupName(workload, template);
    const [wl = "", tpl = "", hash = ""] = name.split("-");
    assert.equal(name.length <= 253, true, `length ${name.length}`);
    const room = 253 - hash.length - 2;
    const want =
      c.workload <= room / 2
        ? [c.workload, room - c.workload]
        : c.template <= room / 2
          ? [room - c.template, c.template]
          : [room - Math.floor(room / 2), Math.floor(room / 2)];
    assert.deepEqual([wl.length, tpl.length], want);
  });
}

test("desiredWorkload: controlled by the Job, naming it, one template with the policy", () => {
  const job = train().obj();
  assert.deepEqual(desiredWorkload(job, { gang: { minCount: 4 } }), {
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "Workload",
    metadata: {
      name: workloadName(job),
      namespace: "default",
      ownerReferences: [
        {
          apiVersion: "batch/v1",
          kind: "Job",
          name: "train",
          uid: "uid-train",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      controllerRef: { apiGroup: "batch", kind: "Job", name: "train" },
      podGroupTemplates: [{ name: "train-pgt-0", policy: { gang: { minCount: 4 } } }],
    },
  });
});

test("desiredPodGroup: owned by the Job (controller) and the Workload, naming its template", () => {
  const job = train().obj();
  const workload: Workload = {
    ...desiredWorkload(job, { gang: { minCount: 4 } }),
  };
  workload.metadata.uid = "uid-wl";
  const name = workload.metadata.name ?? "";
  assert.deepEqual(desiredPodGroup(job, workload), {
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "PodGroup",
    metadata: {
      name: podGroupName(name, "train-pgt-0"),
      namespace: "default",
      ownerReferences: [
        {
          apiVersion: "batch/v1",
          kind: "Job",
          name: "train",
          uid: "uid-train",
          controller: true,
          blockOwnerDeletion: true,
        },
        { apiVersion: "scheduling.k8s.io/v1alpha1", kind: "Workload", name, uid: "uid-wl" },
      ],
    },
    spec: { workloadRef: { name }, podGroupTemplateName: "train-pgt-0" },
  });
});

test("desiredPodGroup: a Workload without exactly one template is not supported", () => {
  const job = train().obj();
  const workload = desiredWorkload(job, { basic: {} });
  workload.spec.podGroupTemplates = [];
  assert.equal(desiredPodGroup(job, workload), undefined);
});

test("workloadRefFromPods: the first pod stamped with a PodGroup names the group", () => {
  const ref = { name: "train-54d6ccd68", podGroupName: "train-54d6ccd68-train-pgt-0-5f986bcf7d" };
  const plain = { metadata: { name: "a" }, spec: { containers: [] } };
  const stamped = { metadata: { name: "b" }, spec: { containers: [], workloadRef: ref } };
  assert.deepEqual(workloadRefFromPods([plain, stamped]), ref);
  assert.equal(workloadRefFromPods([plain]), undefined);
});
