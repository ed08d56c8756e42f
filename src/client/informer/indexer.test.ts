import assert from "node:assert/strict";
import { test } from "node:test";
import { type KubeObject, parseLabelSelector } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { namespaceIndex, Store } from "./indexer.ts";
import { newLister } from "./lister.ts";

const obj = (namespace: string, name: string, labels: Record<string, string> = {}): KubeObject => ({
  metadata: { namespace, name, labels },
});
const names = (objects: readonly DeepReadonly<KubeObject>[]): string[] =>
  objects.map((o) => o.metadata.name ?? "").sort();

const byApp = {
  app: (o: DeepReadonly<KubeObject>): readonly string[] => {
    const app = o.metadata.labels?.["app"];
    return app === undefined ? [] : [app];
  },
};

test("Store.upsert: keys objects by namespace/name, or name when cluster-scoped", () => {
  const store = new Store<KubeObject>();
  store.upsert(obj("ns", "a"));
  store.upsert({ metadata: { name: "node-1" } });
  assert.deepEqual(store.listKeys().sort(), ["node-1", "ns/a"]);
  assert.equal(store.get("ns/a")?.metadata.name, "a");
});

test("Store.upsert: moves an object between index values when it changes", () => {
  const store = new Store<KubeObject>(byApp);
  store.upsert(obj("ns", "a", { app: "web" }));
  const old = store.upsert(obj("ns", "a", { app: "db" }));
  assert.equal(old?.metadata.labels?.["app"], "web");
  assert.deepEqual(store.indexKeys("app", "web"), []);
  assert.deepEqual(store.indexKeys("app", "db"), ["ns/a"]);
});

test("Store.delete: removes the object from every index and returns it", () => {
  const store = new Store<KubeObject>(byApp);
  store.upsert(obj("ns", "a", { app: "web" }));
  assert.equal(store.delete("ns/a")?.metadata.name, "a");
  assert.equal(store.delete("ns/a"), undefined);
  assert.deepEqual(
    [store.size, store.indexKeys("app", "web"), store.byIndex(namespaceIndex, "ns")],
    [0, [], []],
  );
});

test("Store.replace: the new content replaces the old, indices included", () => {
  const store = new Store<KubeObject>();
  store.upsert(obj("ns1", "a"));
  store.replace([obj("ns2", "b"), obj("ns2", "c")]);
  assert.deepEqual(store.listKeys().sort(), ["ns2/b", "ns2/c"]);
  assert.deepEqual(names(store.byIndex(namespaceIndex, "ns1")), []);
  assert.deepEqual(names(store.byIndex(namespaceIndex, "ns2")), ["b", "c"]);
});

test("Store.addIndexers: indexes what is already stored; a duplicate name is a TypeError", () => {
  const store = new Store<KubeObject>();
  store.upsert(obj("ns", "a", { app: "web" }));
  store.addIndexers(byApp);
  assert.deepEqual(store.indexKeys("app", "web"), ["ns/a"]);
  assert.throws(() => store.addIndexers(byApp), TypeError);
  assert.throws(() => store.byIndex("missing", "x"), RangeError);
});

const listCases = [
  {
    name: "every namespace without a selector",
    namespace: undefined,
    selector: undefined,
    want: ["a", "b", "c"],
  },
  { name: "one namespace", namespace: "ns1", selector: undefined, want: ["a", "b"] },
  { name: "a selector across namespaces", namespace: "", selector: "app=web", want: ["a", "c"] },
  { name: "a namespace and a selector", namespace: "ns1", selector: "app=web", want: ["a"] },
  { name: "a namespace with nothing in it", namespace: "empty", selector: undefined, want: [] },
] as const;
for (const c of listCases) {
  test(`Lister.list: ${c.name}`, () => {
    const store = new Store<KubeObject>();
    store.replace([
      obj("ns1", "a", { app: "web" }),
      obj("ns1", "b"),
      obj("ns2", "c", { app: "web" }),
    ]);
    const lister = newLister(store);
    const selector = c.selector === undefined ? undefined : parseLabelSelector(c.selector);
    assert.deepEqual(names(lister.list(c.namespace, selector)), c.want);
  });
}

test("Lister.get: by namespace and name, or by name for cluster-scoped objects", () => {
  const store = new Store<KubeObject>();
  store.replace([obj("ns1", "a"), { metadata: { name: "n1" } }]);
  const lister = newLister(store);
  assert.deepEqual(
    [
      lister.get("ns1", "a")?.metadata.name,
      lister.get(undefined, "n1")?.metadata.name,
      lister.get("ns2", "a"),
    ],
    ["a", "n1", undefined],
  );
});
