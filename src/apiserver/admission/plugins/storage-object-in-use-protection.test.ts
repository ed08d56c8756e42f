import assert from "node:assert/strict";
import { test } from "node:test";
import type { KubeObject } from "../../../api/index.ts";
import type { AdmissionAttributes } from "../admission.ts";
import { newStorageObjectInUseProtection } from "./storage-object-in-use-protection.ts";

const attributes = (
  resource: string,
  object: KubeObject,
  overrides: Partial<AdmissionAttributes> = {},
) =>
  ({
    operation: "CREATE",
    group: "",
    version: "v1",
    kind: resource === "persistentvolumes" ? "PersistentVolume" : "PersistentVolumeClaim",
    resource,
    subresource: "",
    namespace: resource === "persistentvolumes" ? "" : "default",
    name: "x",
    object,
    oldObject: undefined,
    dryRun: false,
    userInfo: { username: "u", groups: [] },
    ...overrides,
  }) satisfies AdmissionAttributes;

const cases: { name: string; resource: string; finalizers?: string[]; want: string[] }[] = [
  {
    name: "a new claim gets the pvc-protection finalizer",
    resource: "persistentvolumeclaims",
    want: ["kubernetes.io/pvc-protection"],
  },
  {
    name: "a new volume gets the pv-protection finalizer after its own",
    resource: "persistentvolumes",
    finalizers: ["example.com/keep"],
    want: ["example.com/keep", "kubernetes.io/pv-protection"],
  },
  {
    name: "a finalizer already there is not added twice",
    resource: "persistentvolumeclaims",
    finalizers: ["kubernetes.io/pvc-protection"],
    want: ["kubernetes.io/pvc-protection"],
  },
];

for (const c of cases) {
  test(`StorageObjectInUseProtection.mutate: ${c.name}`, async () => {
    const plugin = newStorageObjectInUseProtection();
    const object: KubeObject = {
      metadata: { name: "x", ...(c.finalizers === undefined ? {} : { finalizers: c.finalizers }) },
    };
    const a = attributes(c.resource, object);
    assert.equal(plugin.handles(a), true, "the create is handled");
    assert.deepEqual(await plugin.mutate?.(a), { allowed: true });
    assert.deepEqual(object.metadata.finalizers, c.want);
  });
}

test("StorageObjectInUseProtection.handles: creates of claims and volumes only", () => {
  const plugin = newStorageObjectInUseProtection();
  const a = attributes("persistentvolumeclaims", { metadata: { name: "x" } });
  assert.equal(plugin.handles({ ...a, operation: "UPDATE" }), false, "updates");
  assert.equal(plugin.handles({ ...a, subresource: "status" }), false, "status writes");
  assert.equal(plugin.handles({ ...a, resource: "pods", kind: "Pod" }), false, "other resources");
});
