import assert from "node:assert/strict";
import { test } from "node:test";
import type { ManagedFieldsEntry } from "../../api/index.ts";
import { field } from "../fieldmanager/index.ts";
import {
  replicasPathOf,
  toParentManagedFields,
  toScaleManagedFields,
} from "./scale-managed-fields.ts";

const replicas = { "f:spec": { "f:replicas": {} } };
const replicasAndSelector = { "f:spec": { "f:replicas": {}, "f:selector": {} } };

function entry(
  manager: string,
  fieldsV1: Record<string, unknown>,
  extra: Partial<ManagedFieldsEntry> = {},
): ManagedFieldsEntry {
  return {
    manager,
    operation: "Update",
    apiVersion: "apps/v1",
    time: "2024-01-01T00:00:00Z",
    fieldsType: "FieldsV1",
    fieldsV1,
    ...extra,
  };
}

test("replicasPathOf: a replicas path is a field path without the leading dot", () => {
  assert.deepEqual(replicasPathOf(".spec.size"), [field("spec"), field("size")]);
});

test("toScaleManagedFields: only owners of the replicas field, at autoscaling/v1 with the Scale's path", () => {
  const parent = [
    entry("creator", replicasAndSelector),
    entry("labeler", { "f:metadata": { "f:labels": {} } }),
    entry("hpa", replicas, { operation: "Apply", subresource: "scale" }),
  ];
  assert.deepEqual(toScaleManagedFields(parent, replicasPathOf(".spec.replicas")), [
    {
      manager: "hpa",
      operation: "Apply",
      apiVersion: "autoscaling/v1",
      time: "2024-01-01T00:00:00Z",
      fieldsType: "FieldsV1",
      fieldsV1: replicas,
      subresource: "scale",
    },
    {
      manager: "creator",
      operation: "Update",
      apiVersion: "autoscaling/v1",
      time: "2024-01-01T00:00:00Z",
      fieldsType: "FieldsV1",
      fieldsV1: replicas,
    },
  ]);
});

const toParentCases: readonly {
  name: string;
  parent: ManagedFieldsEntry[];
  scale: ManagedFieldsEntry[];
  path: string;
  want: ManagedFieldsEntry[];
}[] = [
  {
    name: "an owner the Scale no longer lists loses the replicas field and keeps the rest",
    parent: [entry("creator", replicasAndSelector)],
    scale: [
      entry("hpa", replicas, {
        operation: "Apply",
        apiVersion: "autoscaling/v1",
        subresource: "scale",
      }),
    ],
    path: ".spec.replicas",
    want: [
      {
        manager: "hpa",
        operation: "Apply",
        apiVersion: "apps/v1",
        fieldsType: "FieldsV1",
        fieldsV1: replicas,
        subresource: "scale",
      },
      entry("creator", { "f:spec": { "f:selector": {} } }),
    ],
  },
  {
    name: "an owner the Scale still lists keeps its entry as it was; one left empty goes",
    parent: [
      entry("creator", replicasAndSelector),
      entry("scaler", replicas, { subresource: "scale" }),
    ],
    scale: [entry("creator", replicas, { apiVersion: "autoscaling/v1" })],
    path: ".spec.replicas",
    want: [entry("creator", replicasAndSelector)],
  },
  {
    name: "a custom resource's replicas path is the one its CRD names",
    parent: [
      entry(
        "creator",
        { "f:spec": { "f:size": {}, "f:color": {} } },
        { apiVersion: "example.com/v1" },
      ),
    ],
    scale: [
      entry("hpa", replicas, {
        operation: "Apply",
        apiVersion: "autoscaling/v1",
        subresource: "scale",
      }),
    ],
    path: ".spec.size",
    want: [
      {
        manager: "hpa",
        operation: "Apply",
        apiVersion: "example.com/v1",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:spec": { "f:size": {} } },
        subresource: "scale",
      },
      entry("creator", { "f:spec": { "f:color": {} } }, { apiVersion: "example.com/v1" }),
    ],
  },
];

for (const c of toParentCases) {
  test(`toParentManagedFields: ${c.name}`, () => {
    const parentApiVersion = c.parent[0]?.apiVersion ?? "apps/v1";
    assert.deepEqual(
      toParentManagedFields(c.parent, c.scale, replicasPathOf(c.path), parentApiVersion),
      c.want,
    );
  });
}
