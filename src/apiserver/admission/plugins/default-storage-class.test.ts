import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type KubeObject,
  type PersistentVolumeClaim,
  pickDefaultStorageClass,
  type StorageClass,
} from "../../../api/index.ts";
import type { JsonObject } from "../../../util/index.ts";
import type { AdmissionAttributes, ObjectReader } from "../admission.ts";
import { newDefaultStorageClass } from "./default-storage-class.ts";

const storageClass = (
  name: string,
  created: string,
  annotations?: Record<string, string>,
): StorageClass => ({
  metadata: {
    name,
    creationTimestamp: created,
    ...(annotations === undefined ? {} : { annotations }),
  },
  provisioner: "gantry.dev/emulated",
});
const marked = { "storageclass.kubernetes.io/is-default-class": "true" };

function reader(classes: readonly StorageClass[]): ObjectReader & { lists: string[] } {
  const lists: string[] = [];
  return {
    lists,
    get: () => undefined,
    getFresh: async () => undefined,
    list: (segment) => {
      lists.push(segment);
      return classes as unknown as JsonObject[];
    },
  };
}

const attributes = (object: PersistentVolumeClaim, overrides: Partial<AdmissionAttributes> = {}) =>
  ({
    operation: "CREATE",
    group: "",
    version: "v1",
    kind: "PersistentVolumeClaim",
    resource: "persistentvolumeclaims",
    subresource: "",
    namespace: "default",
    name: "data",
    object: object as KubeObject,
    oldObject: undefined,
    dryRun: false,
    userInfo: { username: "u", groups: [] },
    ...overrides,
  }) satisfies AdmissionAttributes;

const claim = (
  spec: PersistentVolumeClaim["spec"] = {},
  annotations?: Record<string, string>,
): PersistentVolumeClaim => ({
  metadata: {
    name: "data",
    namespace: "default",
    ...(annotations === undefined ? {} : { annotations }),
  },
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
});

const classes = [
  storageClass("plain", "2024-01-01T00:00:00Z"),
  storageClass("not-default", "2024-01-01T00:00:00Z", {
    "storageclass.kubernetes.io/is-default-class": "false",
  }),
  storageClass("standard", "2024-01-02T00:00:00Z", marked),
];

const cases: {
  name: string;
  classes: StorageClass[];
  claim: PersistentVolumeClaim;
  want: string | null | undefined;
}[] = [
  { name: "a claim without a class gets the default", classes, claim: claim(), want: "standard" },
  {
    name: "a claim naming a class keeps it",
    classes,
    claim: claim({ storageClassName: "fast" }),
    want: "fast",
  },
  {
    name: "an explicit empty class means no class and is kept",
    classes,
    claim: claim({ storageClassName: "" }),
    want: "",
  },
  {
    name: "the beta annotation counts as naming a class",
    classes,
    claim: claim({}, { "volume.beta.kubernetes.io/storage-class": "fast" }),
    want: undefined,
  },
  {
    name: "no class marked default: nothing is set",
    classes: classes.slice(0, 2),
    claim: claim(),
    want: undefined,
  },
  {
    name: "the beta default annotation marks a default too",
    classes: [
      storageClass("beta", "2024-01-01T00:00:00Z", {
        "storageclass.beta.kubernetes.io/is-default-class": "true",
      }),
    ],
    claim: claim(),
    want: "beta",
  },
  {
    name: "several defaults: the newest wins",
    classes: [...classes, storageClass("newer", "2024-02-01T00:00:00Z", marked)],
    claim: claim(),
    want: "newer",
  },
  {
    name: "several defaults created together: the first by name wins",
    classes: [
      storageClass("b", "2024-02-01T00:00:00Z", marked),
      storageClass("a", "2024-02-01T00:00:00Z", marked),
    ],
    claim: claim(),
    want: "a",
  },
];

for (const c of cases) {
  test(`DefaultStorageClass.mutate: ${c.name}`, async () => {
    const plugin = newDefaultStorageClass(reader(c.classes));
    const a = attributes(c.claim);
    assert.equal(plugin.handles(a), true, "a claim create is handled");
    const decision = await plugin.mutate?.(a);
    assert.deepEqual(decision, { allowed: true });
    assert.equal(c.claim.spec?.storageClassName, c.want);
  });
}

test("DefaultStorageClass.handles: only creates of claims themselves", () => {
  const plugin = newDefaultStorageClass(reader(classes));
  const a = attributes(claim());
  assert.equal(plugin.handles({ ...a, operation: "UPDATE" }), false, "updates keep their class");
  assert.equal(plugin.handles({ ...a, subresource: "status" }), false, "status writes");
  assert.equal(
    plugin.handles({ ...a, resource: "persistentvolumes", kind: "PersistentVolume" }),
    false,
    "other resources",
  );
});

test("DefaultStorageClass: lists the classes the cache holds, by its segment", async () => {
  const r = reader(classes);
  await newDefaultStorageClass(r).mutate?.(attributes(claim()));
  assert.deepEqual(r.lists, ["storageclasses.storage.k8s.io"]);
  assert.equal(pickDefaultStorageClass([]), undefined, "no classes, no default");
});
