import assert from "node:assert/strict";
import { test } from "node:test";
import type { KubeObject, KueueWorkload, Pod } from "../../api/index.ts";
import type { Indexer, Indexers } from "../../client/index.ts";
import { makeGroupPod, makeKueueWorkload, makePod } from "../../testing/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { newPodIndexes, podIndexers, podIndexesOf, workloadIndexers } from "./indexes.ts";

/** An indexer kept current by upserts and deletes, as an informer's store is from its events. */
function liveIndexer<T extends KubeObject>(
  indexers: Indexers<T>,
): Indexer<T> & { upsert(o: T): void; remove(name: string): void } {
  const items = new Map<string, DeepReadonly<T>>();
  const keyOf = (o: DeepReadonly<T>): string =>
    `${o.metadata.namespace ?? ""}/${o.metadata.name ?? ""}`;
  const byIndex = (index: string, value: string): DeepReadonly<T>[] => {
    const fn = indexers[index];
    if (fn === undefined) throw new RangeError(`no index ${index}`);
    return [...items.values()].filter((o) => fn(o).includes(value));
  };
  return {
    get: (key) => items.get(key),
    list: () => [...items.values()],
    listKeys: () => [...items.keys()],
    byIndex,
    indexKeys: (index, value) => byIndex(index, value).map(keyOf),
    get size() {
      return items.size;
    },
    upsert(o) {
      items.set(keyOf(o as DeepReadonly<T>), o as DeepReadonly<T>);
    },
    remove(name) {
      for (const key of items.keys()) if (key.endsWith(`/${name}`)) items.delete(key);
    },
  };
}

function workloadOf(name: string, pod: Pod, controller = true): KueueWorkload {
  const w = makeKueueWorkload(name).queue("user-queue").podSet("main", 1, { cpu: "1" }).obj();
  w.metadata.ownerReferences = [
    {
      apiVersion: "v1",
      kind: "Pod",
      name: pod.metadata.name ?? "",
      uid: pod.metadata.uid ?? "",
      ...(controller ? { controller: true } : {}),
    },
  ];
  return w;
}

const single = makePod("single").uid("uid-single").obj();
const other = makePod("other").uid("uid-other").obj();
const g1 = makeGroupPod("g-a", "group-a");
const g2 = makeGroupPod("g-b", "group-a");
const g3 = makeGroupPod("h-a", "group-b");

test("podIndexesOf.workloadOfPod: the Workload the pod controls, by UID only", () => {
  const cases: { name: string; workloads: KueueWorkload[]; uid: string; want?: string }[] = [
    { name: "controlled", workloads: [workloadOf("w1", single)], uid: "uid-single", want: "w1" },
    { name: "another pod's", workloads: [workloadOf("w1", other)], uid: "uid-single" },
    {
      name: "owned, not controlled",
      workloads: [workloadOf("w1", single, false)],
      uid: "uid-single",
    },
    { name: "empty UID", workloads: [workloadOf("w1", makePod("x").obj())], uid: "" },
  ];
  for (const c of cases) {
    const indexes = podIndexesOf([], c.workloads);
    assert.equal(indexes.workloadOfPod(c.uid)?.metadata.name, c.want, c.name);
  }
});

test("podIndexesOf.workloadsControlledBy: every Workload a pod name controlled, any UID", () => {
  const recreated = makePod("single").uid("uid-single-2").obj();
  const indexes = podIndexesOf(
    [],
    [workloadOf("w1", single), workloadOf("w2", recreated), workloadOf("w3", other)],
  );
  assert.deepEqual(
    indexes
      .workloadsControlledBy("default", "single")
      .map((w) => w.metadata.name)
      .sort(),
    ["w1", "w2"],
  );
  assert.deepEqual(indexes.workloadsControlledBy("elsewhere", "single"), []);
});

test("podIndexesOf.podsOfGroup: the pods labelled with the group in its namespace", () => {
  const indexes = podIndexesOf([g1, g2, g3, single], []);
  assert.deepEqual(
    indexes
      .podsOfGroup("default", "group-a")
      .map((p) => p.metadata.name)
      .sort(),
    ["g-a", "g-b"],
  );
  assert.deepEqual(
    indexes.podsOfGroup("default", "group-b").map((p) => p.metadata.name),
    ["h-a"],
  );
  assert.deepEqual(indexes.podsOfGroup("other", "group-a"), []);
});

test("newPodIndexes: lookups follow the store as objects are added, changed and deleted", () => {
  const pods = liveIndexer<Pod>(podIndexers);
  const workloads = liveIndexer<KueueWorkload>(workloadIndexers);
  const indexes = newPodIndexes(pods, workloads);
  assert.equal(indexes.workloadOfPod("uid-single"), undefined, "nothing cached yet");

  workloads.upsert(workloadOf("w1", single));
  assert.equal(indexes.workloadOfPod("uid-single")?.metadata.name, "w1");

  workloads.upsert(workloadOf("w1", other));
  assert.equal(indexes.workloadOfPod("uid-single"), undefined, "owner changed");
  assert.equal(indexes.workloadOfPod("uid-other")?.metadata.name, "w1");

  workloads.remove("w1");
  assert.equal(indexes.workloadOfPod("uid-other"), undefined, "deleted");

  pods.upsert(g1);
  pods.upsert(g3);
  assert.deepEqual(
    indexes.podsOfGroup("default", "group-a").map((p) => p.metadata.name),
    ["g-a"],
  );
  const moved = structuredClone(g1);
  moved.metadata.labels = { ...moved.metadata.labels, "kueue.x-k8s.io/pod-group-name": "group-b" };
  pods.upsert(moved);
  assert.deepEqual(indexes.podsOfGroup("default", "group-a"), []);
  assert.equal(indexes.podsOfGroup("default", "group-b").length, 2);
});
