import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString } from "../meta/field-errors.ts";
import { FieldPath } from "../meta/field-path.ts";
import type { LabelSelector, ObjectMeta } from "../meta/types.ts";
import { validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from "./meta.ts";
import { isDns1123Label } from "./names.ts";

const meta = FieldPath.of("metadata");
const strings = (errs: ReturnType<typeof validateObjectMeta>) => errs.map(fieldErrorString);

const createCases: {
  name: string;
  meta: ObjectMeta;
  namespaced: boolean;
  label?: boolean;
  want: string[];
}[] = [
  {
    name: "a valid namespaced object",
    meta: { name: "web", namespace: "default" },
    namespaced: true,
    want: [],
  },
  {
    name: "name or generateName is required",
    meta: { namespace: "default" },
    namespaced: true,
    want: ["metadata.name: Required value: name or generateName is required"],
  },
  {
    name: "generateName with a trailing dash is fine (the server names the object first)",
    meta: { generateName: "web-", name: "web-x7k2p", namespace: "d" },
    namespaced: true,
    want: [],
  },
  {
    name: "namespace is required for namespaced kinds",
    meta: { name: "web" },
    namespaced: true,
    want: ["metadata.namespace: Required value"],
  },
  {
    name: "namespace is forbidden for cluster-scoped kinds",
    meta: { name: "n1", namespace: "default" },
    namespaced: false,
    want: ["metadata.namespace: Forbidden: not allowed on this type"],
  },
  {
    name: "a custom name validator",
    meta: { name: "a.b" },
    namespaced: false,
    label: true,
    want: [
      `metadata.name: Invalid value: "a.b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
  },
  {
    name: "negative generation",
    meta: { name: "a", generation: -1 },
    namespaced: false,
    want: ["metadata.generation: Invalid value: -1: must be greater than or equal to 0"],
  },
  {
    name: "label value too long is reported at the labels map",
    meta: { name: "a", labels: { app: "x".repeat(64) } },
    namespaced: false,
    want: [
      `metadata.labels: Invalid value: "${"x".repeat(64)}": must be no more than 63 characters`,
    ],
  },
  {
    name: "annotations over 256 KiB",
    meta: { name: "a", annotations: { big: "x".repeat(262142) } },
    namespaced: false,
    want: ["metadata.annotations: Too long: may not be more than 262144 bytes"],
  },
  {
    name: "two controller owner references",
    meta: {
      name: "a",
      ownerReferences: [
        { apiVersion: "apps/v1", kind: "ReplicaSet", name: "r1", uid: "1", controller: true },
        { apiVersion: "apps/v1", kind: "ReplicaSet", name: "r2", uid: "2", controller: true },
      ],
    },
    namespaced: false,
    want: [],
  },
  {
    name: "finalizers must be qualified names",
    meta: { name: "a", finalizers: ["bad finalizer"] },
    namespaced: false,
    want: [
      `metadata.finalizers: Invalid value: "bad finalizer": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
  },
];

for (const c of createCases) {
  test(`validateObjectMeta: ${c.name}`, () => {
    const options =
      c.label === true
        ? { namespaced: c.namespaced, nameValidator: isDns1123Label }
        : { namespaced: c.namespaced };
    const got = validateObjectMeta(c.meta, options, meta);
    if (c.name === "two controller owner references") {
      assert.equal(got.length, 1);
      assert.equal(
        got[0]?.detail,
        'Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/r1 and ReplicaSet/r2',
      );
      assert.equal(got[0]?.field, "metadata.ownerReferences");
      return;
    }
    assert.deepEqual(strings(got), c.want);
  });
}

const base: ObjectMeta = {
  name: "a",
  namespace: "d",
  uid: "u1",
  resourceVersion: "5",
  creationTimestamp: "2024-01-01T00:00:00Z",
};

const updateCases: { name: string; meta: ObjectMeta; old: ObjectMeta; want: string[] }[] = [
  { name: "labels may change", meta: { ...base, labels: { a: "b" } }, old: base, want: [] },
  {
    name: "name is immutable",
    meta: { ...base, name: "b" },
    old: base,
    want: ['metadata.name: Invalid value: "b": field is immutable'],
  },
  {
    name: "uid is immutable",
    meta: { ...base, uid: "u2" },
    old: base,
    want: ['metadata.uid: Invalid value: "u2": field is immutable'],
  },
  {
    name: "resourceVersion is required",
    meta: { name: "a", namespace: "d", uid: "u1", creationTimestamp: "2024-01-01T00:00:00Z" },
    old: base,
    want: ['metadata.resourceVersion: Invalid value: "": must be specified for an update'],
  },
  {
    name: "no new finalizers while deleting",
    meta: { ...base, deletionTimestamp: "2024-01-02T00:00:00Z", finalizers: ["a/b"] },
    old: { ...base, deletionTimestamp: "2024-01-02T00:00:00Z" },
    want: [
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/b"}',
    ],
  },
];

for (const c of updateCases) {
  test(`validateObjectMetaUpdate: ${c.name}`, () => {
    assert.deepEqual(strings(validateObjectMetaUpdate(c.meta, c.old, meta)), c.want);
  });
}

const selectorCases: { name: string; selector: LabelSelector; want: string[] }[] = [
  {
    name: "matchLabels and In",
    selector: {
      matchLabels: { app: "x" },
      matchExpressions: [{ key: "tier", operator: "In", values: ["a"] }],
    },
    want: [],
  },
  {
    name: "In without values",
    selector: { matchExpressions: [{ key: "tier", operator: "In" }] },
    want: [
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
  },
  {
    name: "Exists with values",
    selector: { matchExpressions: [{ key: "tier", operator: "Exists", values: ["a"] }] },
    want: [
      "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ],
  },
  {
    name: "unknown operator",
    selector: { matchExpressions: [{ key: "tier", operator: "Is" as "In", values: ["a"] }] },
    want: [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
    ],
  },
];

for (const c of selectorCases) {
  test(`validateLabelSelector: ${c.name}`, () => {
    assert.deepEqual(
      strings(validateLabelSelector(c.selector, FieldPath.of("spec", "selector"))),
      c.want,
    );
  });
}
