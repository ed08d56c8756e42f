import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "yaml";
import type { Pod } from "../../api/index.ts";
import {
  eventually,
  type KubectlResult,
  kubectl,
  makeQueuedPod,
  kubectlOk as ok,
  requestGantry,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

const kueue = "kueue.x-k8s.io/v1beta1";
// Kueue's manifests: one ClusterQueue of two CPUs that preempts lower priorities.
const setup = [
  { apiVersion: kueue, kind: "ResourceFlavor", metadata: { name: "default-flavor" } },
  { apiVersion: kueue, kind: "WorkloadPriorityClass", metadata: { name: "low" }, value: 100 },
  { apiVersion: kueue, kind: "WorkloadPriorityClass", metadata: { name: "high" }, value: 1000 },
  {
    apiVersion: kueue,
    kind: "ClusterQueue",
    metadata: { name: "cq" },
    spec: {
      namespaceSelector: {},
      preemption: { withinClusterQueue: "LowerPriority" },
      resourceGroups: [
        {
          coveredResources: ["cpu"],
          flavors: [{ name: "default-flavor", resources: [{ name: "cpu", nominalQuota: 2 }] }],
        },
      ],
    },
  },
  {
    apiVersion: kueue,
    kind: "LocalQueue",
    metadata: { namespace: "default", name: "lq" },
    spec: { clusterQueue: "cq" },
  },
];

/** A pod of one CPU in queue `lq`, in group `group` of two when given. */
const pod = (name: string, priority: string, group?: string): Pod =>
  makeQueuedPod(name, {
    queue: "lq",
    priorityClass: priority,
    runFor: "300s",
    ...(group === undefined ? {} : { group, total: 2 }),
  });

interface WatchedPod {
  readonly type: string;
  readonly name: string;
  readonly deleting: boolean;
  readonly terminationTarget?: string;
}

test("queueing: a low-priority group is preempted as a whole by a high-priority pod (TerminationTarget, then delete), re-queued, and resumes with recreated pods once quota frees", async () => {
  await using gantry = await startGantry({ storage: "memory", extraArgs: ["--nodes", "1"] });
  const run = (args: string[], input?: string): Promise<KubectlResult> =>
    kubectl(gantry, "", args, input === undefined ? {} : { input });
  const get = async (args: string[]): Promise<string> =>
    ok(await run(["get", ...args]), `get ${args.join(" ")}`);
  const create = async (objects: readonly object[]): Promise<void> => {
    ok(await run(["create", "-f", "-"], objects.map((o) => stringify(o)).join("---\n")), "create");
  };
  const condition = (type: string, field: string): string =>
    `{.status.conditions[?(@.type=='${type}')].${field}}`;
  const workload = (path: string): Promise<string> =>
    get(["workloads.kueue.x-k8s.io", "grp", "-o", `jsonpath=${path}`]);
  const gates = (name: string): Promise<string> =>
    get(["pod", name, "-o", "jsonpath={.spec.schedulingGates[*].name}"]);

  await eventually(async () => get(["clusterqueues"]), 20_000);
  ok(await run(["apply", "-f", "-"], setup.map((o) => stringify(o)).join("---\n")), "apply setup");

  // The group of two takes the whole ClusterQueue.
  await create([pod("g-1", "low", "grp"), pod("g-2", "low", "grp")]);
  await eventually(async () => {
    assert.equal(await gates("g-1"), "", "g-1 is ungated");
    assert.equal(await gates("g-2"), "", "g-2 is ungated");
  }, 30_000);

  // Watch the group's pods while the high-priority pod preempts it.
  const watched = requestGantry(
    `${gantry.url}/api/v1/namespaces/default/pods?watch=1&labelSelector=kueue.x-k8s.io%2Fpod-group-name%3Dgrp&timeoutSeconds=15`,
    { token: gantry.token, timeoutMs: 25_000 },
  );
  await create([pod("hi", "high")]);
  const hiWorkload = await eventually(async () => {
    const out = await get([
      "workloads.kueue.x-k8s.io",
      "-o",
      "jsonpath={range .items[?(@.metadata.ownerReferences[0].name=='hi')]}{.metadata.uid}{end}",
    ]);
    assert.notEqual(out, "", "hi has a Workload");
    return out;
  }, 20_000);
  const hiUid = await get(["pod", "hi", "-o", "jsonpath={.metadata.uid}"]);
  const preemptedMessage = `Preempted to accommodate a workload (UID: ${hiWorkload}, JobUID: ${hiUid}) due to prioritization in the ClusterQueue`;
  await eventually(async () => {
    assert.equal(await workload(condition("Evicted", "reason")), "Preempted", "grp evicted");
    assert.equal(await workload(condition("Preempted", "reason")), "InClusterQueue");
    assert.equal(await workload(condition("Preempted", "message")), preemptedMessage);
  }, 30_000);

  // Every pod of the group is stopped: TerminationTarget first, then DELETE (the managed
  // finalizer keeps them, terminated, until replacements come); then grp's quota goes back, it
  // is re-queued, and hi runs.
  await eventually(async () => {
    const out = await get([
      "pods",
      "-l",
      "kueue.x-k8s.io/pod-group-name=grp",
      "-o",
      "jsonpath={range .items[*]}{.metadata.name}:{.status.phase}:{.metadata.deletionTimestamp} {end}",
    ]);
    const pods = out.trim().split(" ");
    assert.equal(pods.length, 2, `two pods: ${out}`);
    for (const p of pods) {
      const [, phase = "", deleted = ""] = p.split(":");
      assert.notEqual(deleted, "", `deleted: ${out}`);
      assert.notEqual(phase, "Running", `no longer running: ${out}`);
    }
  }, 30_000);
  await eventually(async () => {
    assert.equal(await gates("hi"), "", "hi is ungated");
    assert.equal(await workload(condition("QuotaReserved", "status")), "False");
    assert.equal(await workload(condition("Requeued", "status")), "True");
    assert.equal(await workload(condition("Requeued", "reason")), "Preempted");
  }, 30_000);
  const response = await watched;
  const events: WatchedPod[] = response.body
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const e = JSON.parse(l) as {
        type: string;
        object: {
          metadata: { name: string; deletionTimestamp?: string };
          status?: { conditions?: { type: string; reason?: string }[] };
        };
      };
      const target = e.object.status?.conditions?.find((c) => c.type === "TerminationTarget");
      return {
        type: e.type,
        name: e.object.metadata.name,
        deleting: e.object.metadata.deletionTimestamp !== undefined,
        ...(target === undefined ? {} : { terminationTarget: target.reason ?? "" }),
      };
    });
  for (const name of ["g-1", "g-2"]) {
    const mine = events.filter((e) => e.name === name);
    const marked = mine.findIndex((e) => e.terminationTarget !== undefined && !e.deleting);
    const deleting = mine.findIndex((e) => e.deleting);
    assert.ok(
      marked !== -1,
      `${name} got TerminationTarget before deletion: ${JSON.stringify(mine)}`,
    );
    assert.equal(mine[marked]?.terminationTarget, "WorkloadEvictedDueToPreempted");
    assert.ok(deleting > marked, `${name} deleted after it was marked: ${JSON.stringify(mine)}`);
  }
  const stopped = await get([
    "events",
    "--field-selector",
    "involvedObject.name=g-1,reason=Stopped",
    "-o",
    "jsonpath={.items[*].message}",
  ]);
  assert.equal(stopped, preemptedMessage);

  // The user's controller creates replacements: the stopped pods they replace are finalized
  // and go; the group waits, gated, while hi holds the quota.
  await create([pod("g-3", "low", "grp"), pod("g-4", "low", "grp")]);
  await eventually(async () => {
    const left = await get(["pods", "-l", "kueue.x-k8s.io/pod-group-name=grp", "-o", "name"]);
    assert.deepEqual(left.trim().split("\n"), ["pod/g-3", "pod/g-4"], "the stopped pods are gone");
    assert.equal(await workload(condition("QuotaReserved", "reason")), "Pending");
    assert.equal(await gates("g-3"), "kueue.x-k8s.io/admission", "g-3 waits gated");
  }, 30_000);

  // Quota frees: the group resumes, its Workload admitted again with the eviction reset.
  ok(await run(["delete", "pod", "hi", "--wait=false"]), "delete hi");
  await eventually(async () => {
    assert.equal(await gates("g-3"), "", "g-3 is ungated");
    assert.equal(await gates("g-4"), "", "g-4 is ungated");
  }, 40_000);
  assert.equal(await workload(condition("QuotaReserved", "status")), "True");
  assert.equal(await workload(condition("Evicted", "status")), "False");
  assert.equal(await workload(condition("Evicted", "message")), `Previously: ${preemptedMessage}`);
});
