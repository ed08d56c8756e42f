import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ApiError,
  type ClusterQueue,
  type KubeObject,
  type KueueWorkload,
  type LocalQueue,
} from "../../api/index.ts";
import type { Client, Lister } from "../../client/index.ts";
import {
  FakeClock,
  makeClusterQueue,
  makeKueueWorkload,
  makeLocalQueue,
  makeResourceFlavor,
} from "../../testing/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { newAdmissionScheduler, preemptedStatus, reservedStatus } from "./scheduler.ts";

/**
 * What an API server stores for a status update of `stored` with `body`: the body's status (only
 * that, as the status subresource takes nothing else), a new resource version.
 */
function statusWritten(stored: KubeObject, body: KubeObject, version: number): KubeObject {
  const written = structuredClone(stored) as KubeObject & { status?: unknown };
  const status = (body as { status?: unknown }).status;
  if (status === undefined) delete written.status;
  else written.status = structuredClone(status);
  written.metadata.resourceVersion = String(version);
  return written;
}

const now = new Date("2026-01-01T01:00:00Z");
const message =
  "Preempted to accommodate a workload (UID: u, JobUID: UNKNOWN) due to prioritization in the ClusterQueue";

test("preemptedStatus: sets Evicted (reason Preempted) and Preempted with the preemption reason and message", () => {
  const victim = makeKueueWorkload("v").podSet("main", 1, { cpu: "1" }).admitted("cq").obj();
  const status = preemptedStatus(victim, "InClusterQueue", message, now);
  assert.deepEqual(
    status?.conditions
      ?.filter((c) => c.type === "Evicted" || c.type === "Preempted")
      .map((c) => [c.type, c.status, c.reason, c.message, c.lastTransitionTime]),
    [
      ["Evicted", "True", "Preempted", message, "2026-01-01T01:00:00Z"],
      ["Preempted", "True", "InClusterQueue", message, "2026-01-01T01:00:00Z"],
    ],
  );
  assert.equal(status?.admission?.clusterQueue, "cq", "the reservation stays until its pods stop");
});

test("reservedStatus: re-admission resets Evicted and Preempted to False with 'Previously:'", () => {
  const requeued = makeKueueWorkload("v")
    .podSet("main", 1, { cpu: "1" })
    .condition("Evicted", "True", "Preempted", message)
    .condition("Preempted", "True", "InClusterQueue", message)
    .condition("QuotaReserved", "False", "Pending", message)
    .obj();
  const status = reservedStatus(requeued, { clusterQueue: "cq", podSetAssignments: [] }, now);
  assert.deepEqual(
    status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
    [
      ["Evicted", "False", "QuotaReserved", `Previously: ${message}`],
      ["Preempted", "False", "QuotaReserved", `Previously: ${message}`],
      ["QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue cq"],
      ["Admitted", "True", "Admitted", "The workload is admitted"],
    ],
  );
});

/** A lister over `items`, which the fake client's writes replace by key. */
function store<T extends KubeObject>(items: T[]): Lister<T> {
  return {
    get: (namespace, name) =>
      items.find(
        (i) =>
          i.metadata.name === name &&
          (namespace === undefined || (i.metadata.namespace ?? "") === namespace),
      ) as DeepReadonly<T> | undefined,
    list: (namespace?: string) =>
      items.filter(
        (i) => namespace === undefined || i.metadata.namespace === namespace,
      ) as DeepReadonly<T>[],
  };
}

test("AdmissionScheduler.cycle: one status write per admitted Workload, only QuotaReserved and Admitted events; a cycle after the echo writes nothing", async () => {
  const workloads: KueueWorkload[] = [1, 2, 3].map((i) =>
    makeKueueWorkload(`w${i}`).queue("lq").podSet("main", 1, { cpu: "1" }).obj(),
  );
  const clusterQueues: KubeObject[] = [
    makeClusterQueue("cq")
      .resourceGroup({ default: { cpu: "5" } })
      .obj(),
  ];
  const localQueues: KubeObject[] = [makeLocalQueue("lq", "default", "cq")];
  const calls: string[] = [];
  const events: string[] = [];
  let version = 0;
  const client = {
    async updateStatus(_resource: unknown, object: KubeObject): Promise<KubeObject> {
      calls.push(`${object.kind} ${object.metadata.name ?? ""}`);
      let written: KubeObject = object;
      for (const list of [workloads, clusterQueues, localQueues] as KubeObject[][]) {
        const i = list.findIndex(
          (o) => o.kind === object.kind && o.metadata.name === object.metadata.name,
        );
        if (i === -1) continue;
        written = statusWritten(list[i] as KubeObject, object, ++version);
        list[i] = written;
      }
      return written;
    },
  } as unknown as Client;
  const scheduler = newAdmissionScheduler({
    client,
    clock: new FakeClock(now),
    events: { event: (ref, _type, reason) => events.push(`${ref.name} ${reason}`) },
    clusterQueues: store(clusterQueues) as Lister<ClusterQueue>,
    localQueues: store(localQueues) as Lister<LocalQueue>,
    flavors: store([makeResourceFlavor("default")]),
    workloads: store(workloads),
    namespaces: store([]),
  });

  await scheduler.cycle();
  await scheduler.flush();
  assert.deepEqual(
    [...calls].sort(),
    ["ClusterQueue cq", "LocalQueue lq", "Workload w1", "Workload w2", "Workload w3"],
    "one write per admitted Workload and per queue",
  );
  assert.deepEqual([...events].sort(), [
    "w1 Admitted",
    "w1 QuotaReserved",
    "w2 Admitted",
    "w2 QuotaReserved",
    "w3 Admitted",
    "w3 QuotaReserved",
  ]);
  // The informer delivers the writes: each is recognised as the echo of an assumed admission.
  for (const w of workloads) assert.equal(scheduler.observe(w), true, `${w.metadata.name} echo`);
  calls.length = 0;
  events.length = 0;
  await scheduler.cycle();
  await scheduler.flush();
  assert.deepEqual(calls, [], "nothing changed, nothing written");
  assert.deepEqual(events, []);
});

/** A fake client whose Workload status writes wait for `release`, or fail with `conflict`. */
function heldClient(workloads: KueueWorkload[]) {
  const calls: string[] = [];
  let version = 100;
  const held: (() => void)[] = [];
  let conflictNext = false;
  const client = {
    async updateStatus(_resource: unknown, object: KubeObject): Promise<KubeObject> {
      calls.push(`${object.kind} ${object.metadata.name ?? ""}`);
      if (object.kind === "Workload") await new Promise<void>((resolve) => held.push(resolve));
      if (object.kind === "Workload" && conflictNext) {
        conflictNext = false;
        throw new ApiError(409, "Conflict", "the object has been modified");
      }
      const i = workloads.findIndex((w) => w.metadata.name === object.metadata.name);
      const stored = object.kind === "Workload" ? workloads[i] : undefined;
      if (stored === undefined) {
        return { ...object, metadata: { ...object.metadata, resourceVersion: String(++version) } };
      }
      const written = statusWritten(stored, object, ++version) as KueueWorkload;
      workloads[i] = written;
      return written;
    },
  } as unknown as Client;
  return {
    client,
    calls,
    release: () => {
      for (const resolve of held.splice(0)) resolve();
    },
    conflictNext: () => {
      conflictNext = true;
    },
  };
}

function schedulerOver(workloads: KueueWorkload[], client: Client, wake: () => void) {
  return newAdmissionScheduler(
    {
      client,
      clock: new FakeClock(now),
      events: { event: () => undefined },
      clusterQueues: store([
        makeClusterQueue("cq")
          .resourceGroup({ default: { cpu: "1" } })
          .obj(),
      ]) as Lister<ClusterQueue>,
      localQueues: store([makeLocalQueue("lq", "default", "cq")]) as Lister<LocalQueue>,
      flavors: store([makeResourceFlavor("default")]),
      workloads: store(workloads),
      namespaces: store([]),
      wake,
    },
    { statusBatchMs: 60_000, statusBurst: 1 },
  );
}

test("AdmissionScheduler.cycle: does not wait for its writes, and a cycle while one is out counts the assumed admission", async () => {
  const make = (name: string, minute: number) => {
    const w = makeKueueWorkload(name)
      .queue("lq")
      .created(`2026-01-01T00:0${minute}:00Z`)
      .podSet("main", 1, { cpu: "1" })
      .obj();
    w.metadata.resourceVersion = "1";
    return w;
  };
  const workloads = [make("first", 0)];
  const fake = heldClient(workloads);
  const scheduler = schedulerOver(workloads, fake.client, () => undefined);
  const workloadWrites = () => fake.calls.filter((c) => c.startsWith("Workload"));
  await scheduler.cycle();
  assert.deepEqual(workloadWrites(), ["Workload first"], "the admission is out, not settled");

  const second = make("second", 1);
  workloads.push(second);
  assert.equal(scheduler.observe(second), false, "news for the next cycle");
  await scheduler.cycle();
  assert.deepEqual(
    workloadWrites(),
    ["Workload first", "Workload second"],
    "the second only gets its Pending message: the first's assumed admission holds the quota",
  );
  fake.release();
  await new Promise((resolve) => setImmediate(resolve));
  fake.release();
  await scheduler.flush();
  const status = (name: string) =>
    workloads
      .find((w) => w.metadata.name === name)
      ?.status?.conditions?.find((c) => c.type === "QuotaReserved");
  assert.deepEqual(
    [status("first")?.status, status("second")?.status, status("second")?.message],
    [
      "True",
      "False",
      "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed",
    ],
  );
});

test("AdmissionScheduler.cycle: a conflicting admission is forgotten; the newer version the informer brings is admitted", async () => {
  const w = makeKueueWorkload("w").queue("lq").podSet("main", 1, { cpu: "1" }).obj();
  w.metadata.resourceVersion = "1";
  const workloads = [w];
  const fake = heldClient(workloads);
  let wakes = 0;
  const scheduler = schedulerOver(workloads, fake.client, () => wakes++);
  fake.conflictNext();
  await scheduler.cycle();
  fake.release();
  await scheduler.flush();
  assert.equal(wakes, 0, "no blind retry: the conflict means news is on its way");
  const newer = { ...w, metadata: { ...w.metadata, resourceVersion: "2", labels: { x: "y" } } };
  workloads[0] = newer;
  assert.equal(scheduler.observe(newer), false, "the newer version is news");
  await scheduler.cycle();
  fake.release();
  await scheduler.flush();
  assert.deepEqual(
    fake.calls.filter((c) => c.startsWith("Workload")),
    ["Workload w", "Workload w"],
  );
  assert.equal(
    workloads[0]?.status?.conditions?.find((c) => c.type === "QuotaReserved")?.status,
    "True",
  );
  assert.equal(workloads[0]?.metadata.labels?.["x"], "y", "written over the newer version");
});

test("AdmissionScheduler: queue statuses are written at once, then paced once their burst is spent", async () => {
  const workloads = [makeKueueWorkload("w").queue("lq").podSet("main", 1, { cpu: "1" }).obj()];
  const fake = heldClient(workloads);
  const scheduler = schedulerOver(workloads, fake.client, () => undefined);
  await scheduler.cycle();
  const queueWrites = () => fake.calls.filter((c) => !c.startsWith("Workload")).sort();
  assert.deepEqual(queueWrites(), ["ClusterQueue cq", "LocalQueue lq"]);
  assert.equal(scheduler.statusDueAt(), undefined, "nothing held yet");
  fake.release();
  await scheduler.flush();
  // The listers still hold the statuses from before the first write: the next differs again.
  await scheduler.cycle();
  assert.deepEqual(queueWrites(), ["ClusterQueue cq", "LocalQueue lq"], "held, not written");
  assert.equal(scheduler.statusDueAt(), now.getTime() + 60_000, "due when a token is back");
});
