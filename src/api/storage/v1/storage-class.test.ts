import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { storageClassKind } from "./kinds.ts";
import {
  applyStorageClassDefaults,
  isDefaultStorageClass,
  type StorageClass,
} from "./storage-class.ts";
import { validateStorageClass, validateStorageClassUpdate } from "./validation.ts";

const storageClass = (extra: Partial<StorageClass> = {}): StorageClass => {
  const sc: StorageClass = {
    metadata: { name: "standard", resourceVersion: "1" },
    provisioner: "gantry.dev/emulated",
    ...extra,
  };
  applyStorageClassDefaults(sc);
  return sc;
};

test("StorageClass defaults: reclaimPolicy Delete, volumeBindingMode Immediate", () => {
  const sc = storageClass();
  assert.equal(sc.reclaimPolicy, "Delete");
  assert.equal(sc.volumeBindingMode, "Immediate");
  const kept = storageClass({ reclaimPolicy: "Retain", volumeBindingMode: "WaitForFirstConsumer" });
  assert.equal(kept.reclaimPolicy, "Retain", "an explicit policy stays");
  assert.equal(kept.volumeBindingMode, "WaitForFirstConsumer", "an explicit mode stays");
});

const cases: { name: string; sc: StorageClass; want: string[] }[] = [
  { name: "kind's standard class", sc: storageClass({ parameters: { type: "local" } }), want: [] },
  {
    name: "no provisioner",
    sc: storageClass({ provisioner: "" }),
    want: ["provisioner: Required value"],
  },
  {
    name: "a provisioner that is not a qualified name",
    sc: storageClass({ provisioner: "Example.com/My Provisioner" }),
    want: [
      "provisioner: Invalid value: \"example.com/my provisioner\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
  },
  {
    name: "Recycle and an unknown binding mode",
    sc: storageClass({ reclaimPolicy: "Recycle", volumeBindingMode: "Later" as never }),
    want: [
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ],
  },
  {
    name: "an empty parameter key and a topology term without expressions",
    sc: storageClass({ parameters: { "": "x" }, allowedTopologies: [{}] }),
    want: [
      'parameters: Invalid value: "": field can not be empty.',
      "allowedTopologies[0]: Required value: must have at least one label selector requirement",
    ],
  },
];

for (const c of cases) {
  test(`validateStorageClass: ${c.name}`, () => {
    assert.deepEqual(validateStorageClass(c.sc).map(fieldErrorString), c.want);
  });
}

test("validateStorageClassUpdate: provisioner, parameters, policy and mode are fixed", () => {
  const old = storageClass({ parameters: { a: "1" } });
  const labelled = storageClass({ parameters: { a: "1" } });
  labelled.metadata.labels = { tier: "gold" };
  labelled.allowVolumeExpansion = true;
  assert.deepEqual(validateStorageClassUpdate(labelled, old).map(fieldErrorString), []);
  const changed = storageClass({
    provisioner: "example.com/other",
    parameters: { a: "2" },
    reclaimPolicy: "Retain",
    volumeBindingMode: "WaitForFirstConsumer",
  });
  assert.deepEqual(validateStorageClassUpdate(changed, old).map(fieldErrorString), [
    "parameters: Forbidden: updates to parameters are forbidden.",
    "provisioner: Forbidden: updates to provisioner are forbidden.",
    "reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.",
    'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
  ]);
});

test('isDefaultStorageClass: either annotation spelling, only with "true"', () => {
  const marked = (key: string, value: string) =>
    isDefaultStorageClass({ metadata: { name: "x", annotations: { [key]: value } } });
  assert.equal(marked("storageclass.kubernetes.io/is-default-class", "true"), true);
  assert.equal(marked("storageclass.beta.kubernetes.io/is-default-class", "true"), true);
  assert.equal(marked("storageclass.kubernetes.io/is-default-class", "false"), false);
  assert.equal(isDefaultStorageClass({ metadata: { name: "x" } }), false);
});

test("storageClassKind: cluster-scoped storageclasses, short name sc", () => {
  assert.equal(storageClassKind.group, "storage.k8s.io");
  assert.equal(storageClassKind.namespaced, false);
  assert.deepEqual(storageClassKind.shortNames, ["sc"]);
});
