import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClusterQueue, KubeObject, KueueWorkload, LocalQueue } from "../../api/index.ts";
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
      const written = {
        ...structuredClone(object),
        metadata: { ...object.metadata, resourceVersion: String(++version) },
      };
      for (const list of [workloads, clusterQueues, localQueues] as KubeObject[][]) {
        const i = list.findIndex(
          (o) => o.kind === written.kind && o.metadata.name === written.metadata.name,
        );
        if (i !== -1) list[i] = written;
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

  assert.equal(await scheduler.cycle(), false, "no conflict");
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
  assert.deepEqual(calls, [], "nothing changed, nothing written");
  assert.deepEqual(events, []);
});
