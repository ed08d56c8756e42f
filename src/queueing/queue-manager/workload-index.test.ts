import assert from "node:assert/strict";
import { test } from "node:test";
import type { KueueWorkload } from "../../api/index.ts";
import { makeKueueWorkload } from "../../testing/index.ts";
import { WorkloadIndex } from "./workload-index.ts";

const running = (name: string, cq: string, cpu: string) =>
  makeKueueWorkload(name).queue("lq").podSet("main", 1, { cpu }).admitted(cq).obj();
const waiting = (name: string) =>
  makeKueueWorkload(name).queue("lq").podSet("main", 1, { cpu: "1" }).obj();

/** `obj` as a newer version: changed by `edit`, resource version bumped. */
function next(obj: KueueWorkload, edit: (w: KueueWorkload) => void): KueueWorkload {
  const copy = structuredClone(obj);
  edit(copy);
  copy.metadata.resourceVersion = String(Number(obj.metadata.resourceVersion ?? "0") + 1);
  return copy;
}

const finished = (w: KueueWorkload) =>
  next(w, (c) => {
    c.status?.conditions?.push({
      type: "Finished",
      status: "True",
      reason: "Succeeded",
      message: "",
      lastTransitionTime: "2026-01-01T00:05:00Z",
    });
  });

const keysOf = (map: ReadonlyMap<string, ReadonlyMap<string, unknown>> | undefined) =>
  [...(map?.values() ?? [])].flatMap((m) => [...m.keys()]).sort();

test("WorkloadIndex: sums reservations per ClusterQueue and counts them per LocalQueue, without counting a repeat twice", () => {
  const a = running("a", "cq", "2");
  const index = WorkloadIndex.of([a, running("b", "cq", "500m"), running("c", "other", "1")]);
  index.upsert(a);
  index.upsert(structuredClone(a));
  const usage = index.usage("cq");
  assert.deepEqual([...(usage?.reserved ?? [])], [["default/cpu", 2500]]);
  assert.deepEqual([...(usage?.admitted ?? [])], [["default/cpu", 2500]]);
  assert.equal(usage?.admittedCount, 2);
  assert.deepEqual(
    index
      .reserving("cq")
      .map((r) => r.key)
      .sort(),
    ["default/a", "default/b"],
  );
  assert.deepEqual(index.localQueueCounts("default/lq"), { reserving: 3, admitted: 3 });
});

test("WorkloadIndex: a finished or deleted reservation gives its quota back and is reported released once", () => {
  const a = running("a", "cq", "2");
  const b = running("b", "cq", "1");
  const index = WorkloadIndex.of([a, b]);
  assert.deepEqual([...index.takeReleased()], [], "nothing released while both run");
  index.upsert(finished(a));
  index.delete("default/b");
  assert.equal(index.usage("cq"), undefined, "no reservation left");
  assert.deepEqual([...index.takeReleased()], ["cq"]);
  assert.deepEqual([...index.takeReleased()], [], "taken");
  assert.deepEqual(index.localQueueCounts("default/lq"), { reserving: 0, admitted: 0 });
});

test("WorkloadIndex: fewer pods to keep (reclaimable pods) is a release; an unrelated update is not", () => {
  const a = makeKueueWorkload("a").queue("lq").podSet("main", 4, { cpu: "1" }).admitted("cq").obj();
  const index = WorkloadIndex.of([a]);
  const labelled = next(a, (c) => {
    c.metadata.labels = { team: "x" };
  });
  index.upsert(labelled);
  assert.deepEqual([...index.takeReleased()], []);
  index.upsert(
    next(labelled, (c) => {
      if (c.status !== undefined) c.status.reclaimablePods = [{ name: "main", count: 1 }];
    }),
  );
  assert.deepEqual([...index.takeReleased()], ["cq"]);
  assert.deepEqual([...(index.usage("cq")?.reserved ?? [])], [["default/cpu", 3000]]);
});

test("WorkloadIndex: a parked Workload stays parked across its own status updates, and is active again on a spec change, an eviction change, or unpark", () => {
  const w = { ...waiting("w"), metadata: { ...waiting("w").metadata, generation: 1 } };
  const index = WorkloadIndex.of([w, waiting("x")]);
  assert.deepEqual(keysOf(index.active), ["default/w", "default/x"]);
  index.park("default/lq", "default/w", "cq");
  assert.deepEqual(keysOf(index.active), ["default/x"]);
  assert.deepEqual(keysOf(index.parked), ["default/w"]);

  const pendingMessage = next(w, (c) => {
    c.status = {
      conditions: [
        {
          type: "QuotaReserved",
          status: "False",
          reason: "Pending",
          message: "no room",
          lastTransitionTime: "2026-01-01T00:01:00Z",
        },
      ],
    };
  });
  index.upsert(pendingMessage);
  assert.deepEqual(keysOf(index.parked), ["default/w"], "a Pending message keeps it parked");
  assert.equal(index.parked.get("default/lq")?.get("default/w")?.clusterQueue, "cq");

  index.upsert(
    next(pendingMessage, (c) => {
      c.metadata.generation = 2;
      c.spec.priority = 5;
    }),
  );
  assert.deepEqual(keysOf(index.parked), [], "a spec change makes it active");
  assert.deepEqual(keysOf(index.active), ["default/w", "default/x"]);

  index.park("default/lq", "default/w", "cq");
  index.park("default/lq", "default/x", "other");
  index.unpark(new Set(["other"]));
  assert.deepEqual(keysOf(index.active), ["default/x"], "only the released ClusterQueue's");
  index.unpark();
  assert.deepEqual(keysOf(index.active), ["default/w", "default/x"]);
});

test("WorkloadIndex: a Workload that is admitted, deactivated or deleted leaves the pending ones", () => {
  const w = waiting("w");
  const index = WorkloadIndex.of([w, waiting("off"), waiting("gone")]);
  const admitted = running("w", "cq", "1");
  index.upsert(
    next(w, (c) => {
      if (admitted.status !== undefined) c.status = admitted.status;
    }),
  );
  index.upsert(
    next(waiting("off"), (c) => {
      c.spec.active = false;
    }),
  );
  index.delete("default/gone");
  assert.deepEqual(keysOf(index.active), []);
  assert.equal(index.usage("cq")?.reserving.size, 1);
  assert.equal(index.get("default/gone"), undefined);
});
