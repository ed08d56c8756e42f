import assert from "node:assert/strict";
import { test } from "node:test";
import type { KubeObject, KueueWorkload, Pod } from "../../api/index.ts";
import type { Client, EventRecorder } from "../../client/index.ts";
import { FakeClock, makeKueueWorkload, makePod } from "../../testing/index.ts";
import {
  clearReservation,
  removePodFinalizer,
  removeWorkloadFinalizer,
  setReclaimablePods,
  setWorkloadFinished,
  stopPod,
  type WriteDeps,
} from "./writes.ts";

/** Deps whose client records `verb name` per request and whose recorder records reasons. */
function recording(): { deps: WriteDeps; calls: string[]; events: string[] } {
  const calls: string[] = [];
  const events: string[] = [];
  const write =
    (verb: string) =>
    async (_resource: unknown, object: KubeObject): Promise<KubeObject> => {
      calls.push(`${verb} ${object.metadata.name ?? ""}`);
      return object;
    };
  const client = {
    update: write("update"),
    updateStatus: write("updateStatus"),
    async delete(_resource: unknown, _namespace: string, name: string) {
      calls.push(`delete ${name}`);
      return undefined;
    },
  } as unknown as Client;
  const recorder: EventRecorder = {
    event: (_ref, _type, reason) => {
      events.push(reason);
    },
  };
  return {
    deps: { client, clock: new FakeClock(new Date("2026-01-01T01:00:00Z")), events: recorder },
    calls,
    events,
  };
}

const preempted = "Preempted to accommodate a workload (UID: u, JobUID: j) due to x";

function pod(finalizer: boolean, extra: (p: Pod) => void = () => undefined): Pod {
  const p = makePod("p").uid("uid-p").obj();
  if (finalizer) p.metadata.finalizers = ["kueue.x-k8s.io/managed"];
  extra(p);
  return p;
}

function workload(build: (b: ReturnType<typeof makeKueueWorkload>) => void): KueueWorkload {
  const b = makeKueueWorkload("w").queue("q").podSet("main", 1, { cpu: "1" });
  build(b);
  const w = b.obj();
  w.metadata.finalizers = ["kueue.x-k8s.io/resource-in-use"];
  return w;
}

test("writes: no request for a change that changes nothing, one request per transition", async () => {
  const cases: {
    name: string;
    run: (deps: WriteDeps) => Promise<unknown>;
    calls: string[];
    events?: string[];
  }[] = [
    {
      name: "removePodFinalizer: the finalizer is removed with one update",
      run: (d) => removePodFinalizer(d, pod(true)),
      calls: ["update p"],
    },
    {
      name: "removePodFinalizer: nothing without the finalizer",
      run: (d) => removePodFinalizer(d, pod(false)),
      calls: [],
    },
    {
      name: "removeWorkloadFinalizer: the finalizer is removed with one update",
      run: (d) =>
        removeWorkloadFinalizer(
          d,
          workload(() => undefined),
        ),
      calls: ["update w"],
    },
    {
      name: "removeWorkloadFinalizer: nothing without the finalizer",
      run: (d) => {
        const w = workload(() => undefined);
        delete w.metadata.finalizers;
        return removeWorkloadFinalizer(d, w);
      },
      calls: [],
    },
    {
      name: "stopPod: TerminationTarget, then DELETE, then Stopped",
      run: (d) => stopPod(d, pod(true), "WorkloadEvictedDueToPreempted", preempted),
      calls: ["updateStatus p", "delete p"],
      events: ["Stopped"],
    },
    {
      name: "stopPod: a pod marked already is only deleted",
      run: (d) =>
        stopPod(
          d,
          pod(true, (p) => {
            p.status = {
              ...p.status,
              conditions: [
                {
                  type: "TerminationTarget",
                  status: "True",
                  reason: "WorkloadEvictedDueToPreempted",
                  message: preempted,
                } as never,
              ],
            };
          }),
          "WorkloadEvictedDueToPreempted",
          preempted,
        ),
      calls: ["delete p"],
      events: ["Stopped"],
    },
    {
      name: "stopPod: a pod being deleted is left alone",
      run: (d) =>
        stopPod(
          d,
          pod(true, (p) => {
            p.metadata.deletionTimestamp = "2026-01-01T00:59:00Z";
          }),
          "NotAdmitted",
          "Not admitted by cluster queue",
        ),
      calls: [],
      events: [],
    },
    {
      name: "setWorkloadFinished: one status write",
      run: (d) =>
        setWorkloadFinished(
          d,
          workload(() => undefined),
          "Succeeded",
          "done",
        ),
      calls: ["updateStatus w"],
    },
    {
      name: "setWorkloadFinished: nothing when already finished so",
      run: (d) =>
        setWorkloadFinished(
          d,
          workload((b) => b.condition("Finished", "True", "Succeeded", "done")),
          "Succeeded",
          "done",
        ),
      calls: [],
    },
    {
      name: "clearReservation: QuotaReserved, Admitted and Requeued in one status write",
      run: (d) =>
        clearReservation(
          d,
          workload((b) => b.admitted("cq").condition("Evicted", "True", "Preempted", preempted)),
          {
            type: "Evicted",
            status: "True",
            reason: "Preempted",
            message: preempted,
            lastTransitionTime: "2026-01-01T00:30:00Z",
          },
        ),
      calls: ["updateStatus w"],
    },
    {
      name: "setReclaimablePods: nothing when unchanged",
      run: (d) =>
        setReclaimablePods(
          d,
          workload(() => undefined),
          [],
        ),
      calls: [],
    },
  ];
  for (const c of cases) {
    const { deps, calls, events } = recording();
    await c.run(deps);
    assert.deepEqual(calls, c.calls, c.name);
    if (c.events !== undefined) assert.deepEqual(events, c.events, `${c.name}: events`);
  }
});
