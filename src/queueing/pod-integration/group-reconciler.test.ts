import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type KubeObject,
  type KueueWorkload,
  type LabelSelectorExpr,
  matchesLabels,
  type Pod,
} from "../../api/index.ts";
import type { Client, EventRecorder, Lister } from "../../client/index.ts";
import { FakeClock, makeGroupPod, makeKueueWorkload } from "../../testing/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { defaultQueueingConfig } from "../config.ts";
import { newUidExpectations } from "./expectations.ts";
import {
  type GroupReconcilerDeps,
  reconcileGroup,
  waitingForReplacement,
} from "./group-reconciler.ts";
import { podIndexesOf } from "./indexes.ts";

interface Recorded {
  readonly calls: string[];
  readonly objects: KubeObject[];
  readonly events: string[];
}

function lister<T extends KubeObject>(items: readonly T[]): Lister<T> {
  return {
    get: (namespace, name) =>
      items.find(
        (i) =>
          i.metadata.name === name &&
          (namespace === undefined || i.metadata.namespace === namespace),
      ) as DeepReadonly<T> | undefined,
    list: (namespace?: string, selector?: LabelSelectorExpr) =>
      items.filter(
        (i) =>
          (namespace === undefined || i.metadata.namespace === namespace) &&
          (selector === undefined || matchesLabels(selector, i.metadata.labels ?? {})),
      ) as DeepReadonly<T>[],
  };
}

function setup(
  pods: Pod[],
  workloads: KueueWorkload[],
): { deps: GroupReconcilerDeps; rec: Recorded } {
  const rec: Recorded = { calls: [], objects: [], events: [] };
  const write =
    (verb: string) =>
    async (_resource: unknown, object: KubeObject): Promise<KubeObject> => {
      rec.calls.push(`${verb} ${object.kind ?? "Pod"} ${object.metadata.name ?? ""}`);
      rec.objects.push(object);
      return object;
    };
  const client = {
    create: write("create"),
    update: write("update"),
    updateStatus: write("updateStatus"),
    async delete(_resource: unknown, _ns: string, name: string) {
      rec.calls.push(`delete ${name}`);
      return undefined;
    },
  } as unknown as Client;
  const events: EventRecorder = {
    event(ref, type, reason, message) {
      rec.events.push(`${ref.name ?? ""} ${type} ${reason} ${message}`);
    },
  } as EventRecorder;
  const deps: GroupReconcilerDeps = {
    client,
    clock: new FakeClock(new Date("2026-01-01T01:00:00Z")),
    config: defaultQueueingConfig,
    pods: lister(pods),
    workloads: lister(workloads),
    flavors: lister([]),
    workloadPriorityClasses: lister([]),
    priorityClasses: lister([]),
    events,
    expectations: newUidExpectations(),
    indexes: podIndexesOf(pods, workloads),
  };
  return { deps, rec };
}

function admitted(name: string, roles: [string, number][], extra: object[] = []): KueueWorkload {
  const builder = makeKueueWorkload(name).queue("user-queue");
  for (const [role, count] of roles) builder.podSet(role, count, { cpu: "1" });
  const wl = builder.obj();
  wl.metadata.annotations = { "kueue.x-k8s.io/is-group-workload": "true" };
  wl.metadata.finalizers = ["kueue.x-k8s.io/resource-in-use"];
  wl.metadata.ownerReferences = [];
  const at = "2026-01-01T00:00:00Z";
  wl.status = {
    admission: {
      clusterQueue: "cq",
      podSetAssignments: roles.map(([role, count]) => ({
        name: role,
        count,
        flavors: { cpu: "f" },
      })),
    },
    conditions: [
      {
        type: "QuotaReserved",
        status: "True",
        reason: "QuotaReserved",
        message: "",
        lastTransitionTime: at,
      },
      { type: "Admitted", status: "True", reason: "Admitted", message: "", lastTransitionTime: at },
      ...(extra as never[]),
    ],
  };
  return wl;
}

const evicted = {
  type: "Evicted",
  status: "True",
  reason: "Preempted",
  message:
    "Preempted to accommodate a workload (UID: u, JobUID: UNKNOWN) due to prioritization in the ClusterQueue",
  lastTransitionTime: "2026-01-01T00:30:00Z",
};

test("reconcileGroup: an evicted Workload stops its running pods (TerminationTarget, then DELETE) and keeps its quota while one runs", async () => {
  const pods = [
    makeGroupPod("a", "g", { total: 2, role: "r", phase: "Running", gated: false }),
    makeGroupPod("b", "g", { total: 2, role: "r", phase: "Running", gated: false }),
  ];
  for (const p of pods) p.metadata.namespace = "default";
  const wl = admitted("g", [["r", 2]], [evicted]);
  wl.metadata.ownerReferences = pods.map((p) => ({
    apiVersion: "v1",
    kind: "Pod",
    name: p.metadata.name ?? "",
    uid: p.metadata.uid ?? "",
  }));
  const { deps, rec } = setup(pods, [wl]);
  await reconcileGroup(deps, "default", "g");
  assert.deepEqual(rec.calls, ["updateStatus Pod a", "delete a", "updateStatus Pod b", "delete b"]);
  const condition = (rec.objects[0] as Pod).status?.conditions?.find(
    (c) => c.type === "TerminationTarget",
  );
  assert.equal(condition?.reason, "WorkloadEvictedDueToPreempted");
  assert.equal(rec.events[0], `a Normal Stopped ${evicted.message}`);
});

test("reconcileGroup: once no pod of an evicted group runs, the reservation is cleared and the Workload requeued", async () => {
  const pods = [makeGroupPod("a", "g", { total: 1, role: "r", phase: "Failed", gated: false })];
  for (const p of pods) p.metadata.namespace = "default";
  const wl = admitted("g", [["r", 1]], [evicted]);
  wl.metadata.ownerReferences = [{ apiVersion: "v1", kind: "Pod", name: "a", uid: "uid-a" }];
  wl.status?.conditions?.push({
    type: "WaitingForReplacementPods",
    status: "True",
    reason: "Preempted",
    message: evicted.message,
    lastTransitionTime: "2026-01-01T00:30:00Z",
  });
  const { deps, rec } = setup(pods, [wl]);
  await reconcileGroup(deps, "default", "g");
  assert.deepEqual(rec.calls, ["updateStatus Workload g"]);
  const status = (rec.objects[0] as KueueWorkload).status;
  assert.equal(status?.admission, undefined);
  const summary = status?.conditions?.map((c) => `${c.type}=${c.status}/${c.reason}`);
  assert.deepEqual(summary, [
    "QuotaReserved=False/Pending",
    "Admitted=False/NoReservation",
    "Evicted=True/Preempted",
    "WaitingForReplacementPods=True/Preempted",
    "Requeued=True/Preempted",
  ]);
});

test("reconcileGroup: pods that disagree on the total count get no Workload, and an event says why", async () => {
  const pods = [
    makeGroupPod("a", "g", { total: 2, created: "2026-01-01T00:00:00Z" }),
    makeGroupPod("b", "g", { total: 3, created: "2026-01-01T00:00:01Z" }),
    makeGroupPod("c", "g", { total: 3, created: "2026-01-01T00:00:02Z" }),
  ];
  for (const p of pods) p.metadata.namespace = "default";
  const { deps, rec } = setup(pods, []);
  await reconcileGroup(deps, "default", "g");
  assert.deepEqual(rec.calls, []);
  assert.deepEqual(rec.events, [
    "a Warning ErrWorkloadCompose pods 'a' and 'b' has different 'kueue.x-k8s.io/pod-group-total-count' values: 2!=3",
  ]);
});

test("reconcileGroup: a group of more than 8 roles cannot be built", async () => {
  const pods = Array.from({ length: 9 }, (_, i) =>
    makeGroupPod(`p${i}`, "g", { total: 9, role: `role${i}` }),
  );
  for (const p of pods) p.metadata.namespace = "default";
  const { deps, rec } = setup(pods, []);
  await reconcileGroup(deps, "default", "g");
  assert.deepEqual(rec.calls, []);
  assert.deepEqual(rec.events, [
    "p0 Warning ErrWorkloadCompose pod group can't include more than 8 roles",
  ]);
});

test("reconcileGroup: a complete group gets one Workload named after it, owned by every pod, youngest excess pod deleted first", async () => {
  const pods = ["a", "b", "c"].map((n, i) =>
    makeGroupPod(n, "g", { total: 2, role: "r", created: `2026-01-01T00:00:0${i}Z` }),
  );
  for (const p of pods) p.metadata.namespace = "default";
  const { deps, rec } = setup(pods, []);
  await reconcileGroup(deps, "default", "g");
  assert.deepEqual(rec.calls, ["update Pod c", "delete c", "create Workload g"]);
  const wl = rec.objects[1] as KueueWorkload;
  assert.deepEqual(
    wl.metadata.ownerReferences?.map((o) => o.name),
    ["a", "b"],
  );
  assert.deepEqual(
    wl.spec.podSets.map((p) => [p.name, p.count]),
    [["r", 2]],
  );
  assert.deepEqual(rec.events, [
    "c Normal ExcessPodDeleted Excess pod deleted",
    "a Normal CreatedWorkload Created Workload: default/g",
  ]);
});

test("reconcileGroup: a deleted Workload stops every pod, finished ones too, and lets them go", async () => {
  const pods = [
    makeGroupPod("a", "g", { total: 2, role: "r", phase: "Succeeded", gated: false }),
    makeGroupPod("b", "g", { total: 2, role: "r", phase: "Running", gated: false }),
  ];
  for (const p of pods) p.metadata.namespace = "default";
  const wl = admitted("g", [["r", 2]]);
  wl.metadata.deletionTimestamp = "2026-01-01T00:50:00Z";
  const { deps, rec } = setup(pods, [wl]);
  await reconcileGroup(deps, "default", "g");
  assert.deepEqual(rec.calls, [
    "updateStatus Pod a",
    "delete a",
    "updateStatus Pod b",
    "delete b",
    "update Pod a",
    "update Pod b",
    "update Workload g",
  ]);
  assert.ok(
    rec.events.every((e) => e.endsWith("Stopped Workload is deleted")),
    `every event says the Workload is deleted: ${rec.events.join("; ")}`,
  );
});

test("waitingForReplacement: True/PodsFailed when pods are missing, then False/PodsReady once replaced", () => {
  const wl = admitted("g", [["r", 2]]);
  const now = "2026-01-01T01:00:00Z";
  const missing = waitingForReplacement(wl, 1, now);
  assert.equal(
    `${missing?.status}/${missing?.reason}/${missing?.message}`,
    "True/PodsFailed/Some Failed pods need replacement",
  );
  assert.equal(
    waitingForReplacement(wl, 0, now),
    undefined,
    "no condition and nothing missing: nothing to write",
  );
  wl.status?.conditions?.push(missing as never);
  const back = waitingForReplacement(wl, 0, now);
  assert.equal(
    `${back?.status}/${back?.reason}/${back?.message}`,
    "False/PodsReady/No pods need replacement",
  );
});
