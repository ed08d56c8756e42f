import assert from "node:assert/strict";
import { test } from "node:test";
import { makeJob, makePod } from "../../testing/index.ts";
import { newControllerRef } from "../framework/index.ts";
import { newJobPod, removeFinalizerPatch } from "./job-pods.ts";

test("newJobPod: a NonIndexed pod has the tracking finalizer and generateName <job>-", () => {
  const job = makeJob("pi").obj();
  const pod = newJobPod(
    job,
    newControllerRef(job, { apiVersion: "batch/v1", kind: "Job" }),
    undefined,
  );
  assert.deepEqual(
    {
      generateName: pod.metadata.generateName,
      finalizers: pod.metadata.finalizers,
      annotations: pod.metadata.annotations,
      hostname: pod.spec.hostname,
      env: pod.spec.containers[0]?.env,
    },
    {
      generateName: "pi-",
      finalizers: ["batch.kubernetes.io/job-tracking"],
      annotations: undefined,
      hostname: undefined,
      env: undefined,
    },
  );
});

test("newJobPod: an Indexed pod carries its index as annotation, label, hostname, name and env var", () => {
  const job = makeJob("pi").indexed().completions(4).obj();
  const pod = newJobPod(job, newControllerRef(job, { apiVersion: "batch/v1", kind: "Job" }), 2);
  assert.deepEqual(
    {
      generateName: pod.metadata.generateName,
      annotation: pod.metadata.annotations?.["batch.kubernetes.io/job-completion-index"],
      label: pod.metadata.labels?.["batch.kubernetes.io/job-completion-index"],
      hostname: pod.spec.hostname,
      env: pod.spec.containers[0]?.env?.map((e) => e.name),
    },
    {
      generateName: "pi-2-",
      annotation: "2",
      label: "2",
      hostname: "pi-2",
      env: ["JOB_COMPLETION_INDEX"],
    },
  );
});

test("removeFinalizerPatch: deletes the finalizer from the list, nothing when it is absent", () => {
  const withIt = makePod("p").obj();
  withIt.metadata.finalizers = ["batch.kubernetes.io/job-tracking"];
  assert.deepEqual(
    [removeFinalizerPatch(withIt), removeFinalizerPatch(makePod("q").obj())],
    [
      { metadata: { "$deleteFromPrimitiveList/finalizers": ["batch.kubernetes.io/job-tracking"] } },
      undefined,
    ],
  );
});

const gangRef = { name: "pi-wl", podGroupName: "pi-wl-pi-pgt-0-x" };
const workloadRefCases = [
  { name: "a gang Job's pod joins the group", job: makeJob("pi"), ref: gangRef, want: gangRef },
  { name: "a pod without a group has none", job: makeJob("pi"), ref: undefined, want: undefined },
  {
    name: "a template naming its own group keeps it",
    job: makeJob("pi").workloadRef({ name: "mine", podGroupName: "mine-0" }),
    ref: gangRef,
    want: { name: "mine", podGroupName: "mine-0" },
  },
] as const;

for (const c of workloadRefCases) {
  test(`newJobPod: ${c.name}`, () => {
    const job = c.job.obj();
    const ref = newControllerRef(job, { apiVersion: "batch/v1", kind: "Job" });
    const pod = newJobPod(job, ref, undefined, c.ref === undefined ? undefined : { ...c.ref });
    assert.deepEqual(pod.spec.workloadRef, c.want);
  });
}
