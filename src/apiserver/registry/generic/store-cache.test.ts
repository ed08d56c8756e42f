/**
 * Updates and deletes start from the watch cache's object (upstream's cacher passes it to every
 * GuaranteedUpdate) and fall back to storage whenever that object turns out stale.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { builtInKinds, type KubeObject } from "../../../api/index.ts";
import { newMemoryStorage, type Storage } from "../../../storage/index.ts";
import { type JsonObject, seededRandom, systemClock } from "../../../util/index.ts";
import { AdmissionChain } from "../../admission/index.ts";
import { decodeManagedFields, type FieldSet, newFieldManager } from "../../fieldmanager/index.ts";
import { newFieldManagement } from "../field-management.ts";
import { type CachedState, Store, type WriteContext } from "./store.ts";

const configMaps = builtInKinds().find((k) => k.group === "" && k.resource === "configmaps");
if (configMaps === undefined) throw new Error("configmaps are not a built-in kind");

const context: WriteContext = {
  user: { username: "tester", groups: ["system:authenticated"] },
  dryRun: false,
  fieldManager: "tester",
  warnings: [],
  subresource: "",
};

/** A cache that always answers with the object as it was when `freeze` was called. */
function frozenCache(storage: Storage): CachedState & { freeze(key: string): Promise<void> } {
  const held = new Map<string, { object: JsonObject; revision: number }>();
  return {
    current: (key) => held.get(key),
    async freeze(key) {
      const found = await storage.get(key);
      if (found === undefined) throw new Error(`nothing at ${key}`);
      const object = structuredClone(found.value) as JsonObject & { metadata: JsonObject };
      object.metadata["resourceVersion"] = String(found.revision);
      held.set(key, { object, revision: found.revision });
    },
  };
}

function newStore(storage: Storage, cache: CachedState): Store {
  const fieldManager = newFieldManager();
  return new Store(
    { definition: configMaps as NonNullable<typeof configMaps>, strategy: {} },
    {
      storage,
      cache,
      clock: systemClock,
      random: seededRandom(1),
      admission: new AdmissionChain([]),
      fields: newFieldManagement(fieldManager),
      root: "/registry/",
    },
  );
}

async function setUp(): Promise<{
  store: Store;
  cache: ReturnType<typeof frozenCache>;
  key: string;
  stale: KubeObject;
}> {
  const storage = newMemoryStorage();
  const cache = frozenCache(storage);
  const store = newStore(storage, cache);
  const stale = await store.create(
    "default",
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm" }, data: { a: "1" } },
    context,
  );
  const key = store.key("default", "cm");
  await cache.freeze(key);
  await store.update("default", "cm", (obj) => ({ ...obj, data: { a: "2" } }), context);
  return { store, cache, key, stale };
}

test("update: a stale cached object loses the race in storage and the update is made from storage's", async () => {
  const { store } = await setUp();
  const updated = await store.update(
    "default",
    "cm",
    (obj) => ({ ...obj, data: { ...(obj["data"] as object), b: "3" } }),
    context,
  );
  assert.deepEqual(updated["data"], { a: "2", b: "3" });
  assert.deepEqual((await store.get("default", "cm"))["data"], { a: "2", b: "3" });
});

test("update: a resourceVersion precondition is checked against storage, not the stale cache", async () => {
  const { store, stale } = await setUp();
  const latest = await store.get("default", "cm");
  const updated = await store.update(
    "default",
    "cm",
    () => ({ ...latest, data: { a: "4" } }),
    context,
  );
  assert.deepEqual(updated["data"], { a: "4" });
  await assert.rejects(
    store.update("default", "cm", () => ({ ...stale, data: { a: "5" } }), context),
    (error: unknown) => (error as { code?: number }).code === 409,
    "an outdated resourceVersion is still a conflict",
  );
});

test("update: what is a no-op against the stale cache is written when storage differs", async () => {
  const { store } = await setUp();
  const updated = await store.update(
    "default",
    "cm",
    (obj) => ({ ...obj, data: { a: "1" } }),
    context,
  );
  assert.deepEqual(updated["data"], { a: "1" });
  assert.deepEqual((await store.get("default", "cm"))["data"], { a: "1" });
});

test("delete: preconditions that hold in storage succeed though the cached object is stale", async () => {
  const { store } = await setUp();
  const latest = await store.get("default", "cm");
  const result = await store.delete(
    "default",
    "cm",
    { preconditions: { resourceVersion: latest.metadata.resourceVersion ?? "" } },
    context,
  );
  assert.equal(result.deleted, true);
  await assert.rejects(store.get("default", "cm"), (error: unknown) => {
    return (error as { code?: number }).code === 404;
  });
});

test("carryDecodedSets: storage's copy of written managedFields decodes to the same sets", async () => {
  const storage = newMemoryStorage();
  const store = newStore(storage, { current: () => undefined });
  await store.create(
    "default",
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "cm", labels: { app: "x" } },
      data: { a: "1" },
    },
    context,
  );
  const found = await storage.get(store.key("default", "cm"));
  if (found === undefined) throw new Error("the config map was not stored");
  const entries = (found.value["metadata"] as { managedFields?: unknown }).managedFields;
  const first = decodeManagedFields(entries);
  const again = decodeManagedFields(entries);
  const fresh = decodeManagedFields(structuredClone(entries));
  const set = (m: typeof first): FieldSet => {
    const entry = [...m.values()][0];
    if (entry === undefined) throw new Error("the created object has no managedFields entry");
    return entry.set;
  };
  assert.equal(set(first), set(again), "the stored entries decode to the set that was encoded");
  assert.ok(set(fresh).equals(set(first)), "a fresh decode gives an equal set");
  assert.notEqual(set(fresh), set(first), "an unknown copy is decoded, not looked up");
});

test("carryDecodedSets: a write that keeps the managedFields keeps their decoded sets", async () => {
  const storage = newMemoryStorage();
  // As the watch cache holds it: storage's value itself, with the resourceVersion added.
  let held: { object: JsonObject; revision: number } | undefined;
  const store = newStore(storage, { current: () => held });
  await store.create(
    "default",
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm" }, data: { a: "1" } },
    context,
  );
  const stored = await storage.get(store.key("default", "cm"));
  if (stored === undefined) throw new Error("the config map was not stored");
  const metadata = {
    ...(stored.value["metadata"] as JsonObject),
    resourceVersion: String(stored.revision),
  };
  held = { object: { ...stored.value, metadata }, revision: stored.revision };
  const entriesOf = async (): Promise<unknown> => {
    const found = await storage.get(store.key("default", "cm"));
    if (found === undefined) throw new Error("the config map was not stored");
    return (found.value["metadata"] as { managedFields?: unknown }).managedFields;
  };
  const setOf = (entries: unknown): FieldSet => {
    const entry = [...decodeManagedFields(entries).values()][0];
    if (entry === undefined) throw new Error("the object has no managedFields entry");
    return entry.set;
  };
  const created = setOf(await entriesOf());
  // As a binding does: the object changes, its (cloned) managedFields are stored as they were.
  await store.update(
    "default",
    "cm",
    (cm) => {
      cm["data"] = { a: "2" };
      return cm;
    },
    { ...context, managedFieldsComputed: true },
  );
  const kept = await entriesOf();
  assert.equal(setOf(kept), created, "the copy decodes to the set the create encoded");
  assert.notEqual(
    setOf(structuredClone(kept)),
    created,
    "an unknown copy is decoded, not looked up",
  );
});

test("update: a current cached object is used as is, without reading storage", async () => {
  const storage = newMemoryStorage();
  let gets = 0;
  const counting: Storage = {
    ...storage,
    get: (key) => {
      gets++;
      return storage.get(key);
    },
  };
  const cache = frozenCache(storage);
  const store = newStore(counting, cache);
  await store.create(
    "default",
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm" }, data: { a: "1" } },
    context,
  );
  await cache.freeze(store.key("default", "cm"));
  gets = 0;
  const updated = await store.update(
    "default",
    "cm",
    (obj) => ({ ...obj, data: { a: "2" } }),
    context,
  );
  assert.deepEqual(updated["data"], { a: "2" });
  assert.equal(gets, 0, "storage was not read");
});
