import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { ControllerRevision } from "./controller-revision.ts";
import {
  validateControllerRevision,
  validateControllerRevisionUpdate,
} from "./controller-revision-validation.ts";
import type { DaemonSet } from "./daemon-set.ts";
import type { Deployment } from "./deployment.ts";
import {
  appsV1Kinds,
  controllerRevisionKind,
  daemonSetKind,
  defaultDaemonSet,
  defaultDeployment,
  defaultReplicaSet,
  defaultStatefulSet,
  replicaSetKind,
} from "./kinds.ts";
import type { ReplicaSet } from "./replica-set.ts";
import type { StatefulSet } from "./stateful-set.ts";

const template = { metadata: { labels: { app: "a" } }, spec: { containers: [{ name: "c" }] } };

test("defaultDeployment: fills replicas, strategy, history limit and deadline", () => {
  const d: Deployment = { metadata: { name: "d" }, spec: { template: structuredClone(template) } };
  defaultDeployment(d);
  assert.equal(d.spec.replicas, 1);
  assert.deepEqual(d.spec.strategy, {
    type: "RollingUpdate",
    rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" },
  });
  assert.equal(d.spec.revisionHistoryLimit, 10);
  assert.equal(d.spec.progressDeadlineSeconds, 600);
  assert.equal(d.spec.template.spec?.restartPolicy, "Always");
});

test("defaultDeployment: keeps explicit values and leaves Recreate without rollingUpdate", () => {
  const d: Deployment = {
    metadata: { name: "d" },
    spec: { replicas: 0, strategy: { type: "Recreate" }, template: structuredClone(template) },
  };
  defaultDeployment(d);
  assert.equal(d.spec.replicas, 0);
  assert.deepEqual(d.spec.strategy, { type: "Recreate" });
});

test("defaultReplicaSet: replicas default to 1", () => {
  const rs: ReplicaSet = { metadata: { name: "r" }, spec: {} };
  defaultReplicaSet(rs);
  assert.equal(rs.spec.replicas, 1);
});

test("defaultStatefulSet: policy, strategy with partition 0, retention Retain/Retain", () => {
  const ss: StatefulSet = {
    metadata: { name: "s" },
    spec: { template: structuredClone(template) },
  };
  defaultStatefulSet(ss);
  assert.equal(ss.spec.replicas, 1);
  assert.equal(ss.spec.podManagementPolicy, "OrderedReady");
  assert.deepEqual(ss.spec.updateStrategy, {
    type: "RollingUpdate",
    rollingUpdate: { partition: 0 },
  });
  assert.equal(ss.spec.revisionHistoryLimit, 10);
  assert.deepEqual(ss.spec.persistentVolumeClaimRetentionPolicy, {
    whenDeleted: "Retain",
    whenScaled: "Retain",
  });
});

test("defaultStatefulSet: an explicit RollingUpdate without params stays without params", () => {
  const ss: StatefulSet = {
    metadata: { name: "s" },
    spec: { template: structuredClone(template), updateStrategy: { type: "RollingUpdate" } },
  };
  defaultStatefulSet(ss);
  assert.deepEqual(ss.spec.updateStrategy, { type: "RollingUpdate" });
});

test("defaultDaemonSet: RollingUpdate maxUnavailable 1, maxSurge 0, history 10", () => {
  const ds: DaemonSet = { metadata: { name: "d" }, spec: { template: structuredClone(template) } };
  defaultDaemonSet(ds);
  assert.deepEqual(ds.spec.updateStrategy, {
    type: "RollingUpdate",
    rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
  });
  assert.equal(ds.spec.revisionHistoryLimit, 10);
});

const naming = [
  { kind: "Deployment", resource: "deployments", short: ["deploy"], scale: true },
  { kind: "ReplicaSet", resource: "replicasets", short: ["rs"], scale: true },
  { kind: "StatefulSet", resource: "statefulsets", short: ["sts"], scale: true },
  { kind: "DaemonSet", resource: "daemonsets", short: ["ds"], scale: false },
] as const;

for (const c of naming) {
  test(`appsV1Kinds: ${c.kind} is served as ${c.resource} in category all`, () => {
    const k = appsV1Kinds.find((x) => x.kind === c.kind);
    assert.ok(k !== undefined, "k !== undefined");
    assert.equal(k.resource, c.resource);
    assert.deepEqual(k.shortNames, c.short);
    assert.deepEqual(k.categories, ["all"]);
    assert.equal(k.namespaced, true);
    assert.equal(k.subresources.status, true);
    assert.equal(k.subresources.scale !== undefined, c.scale);
    assert.deepEqual(k.schema.schema["x-kubernetes-group-version-kind"], [
      { group: "apps", version: "v1", kind: c.kind },
    ]);
  });
}

test("controllerRevisionKind: served as controllerrevisions, no status, no category", () => {
  assert.deepEqual(
    {
      resource: controllerRevisionKind.resource,
      categories: controllerRevisionKind.categories,
      status: controllerRevisionKind.subresources.status,
      served: appsV1Kinds.some((k) => k.kind === "ControllerRevision"),
    },
    { resource: "controllerrevisions", categories: [], status: false, served: true },
  );
});

const revisionCases: readonly {
  name: string;
  revision: ControllerRevision;
  old?: ControllerRevision;
  want: readonly string[];
}[] = [
  {
    name: "accepts data and a revision",
    revision: { metadata: { name: "web-1", namespace: "d" }, data: { spec: {} }, revision: 1 },
    want: [],
  },
  {
    name: "requires data",
    revision: { metadata: { name: "web-1", namespace: "d" }, revision: 1 },
    want: ["data: Required value: data is mandatory"],
  },
  {
    name: "rejects a negative revision",
    revision: { metadata: { name: "web-1", namespace: "d" }, data: {}, revision: -1 },
    want: ["revision: Invalid value: -1: must be greater than or equal to 0"],
  },
  {
    name: "data is immutable on update",
    revision: {
      metadata: { name: "web-1", namespace: "d", resourceVersion: "2" },
      data: { a: 2 },
      revision: 2,
    },
    old: {
      metadata: { name: "web-1", namespace: "d", resourceVersion: "1" },
      data: { a: 1 },
      revision: 1,
    },
    want: ['data: Invalid value: {"a":2}: field is immutable'],
  },
];

for (const c of revisionCases) {
  test(`validateControllerRevision: ${c.name}`, () => {
    const errs =
      c.old === undefined
        ? validateControllerRevision(c.revision)
        : validateControllerRevisionUpdate(c.revision, c.old);
    assert.deepEqual(errs.map(fieldErrorString), c.want);
  });
}

test("replicaSetKind.selectableFields: exposes status.replicas", () => {
  const rs: ReplicaSet = { metadata: { name: "r" }, spec: {}, status: { replicas: 3 } };
  assert.deepEqual(replicaSetKind.selectableFields?.(rs), { "status.replicas": "3" });
  assert.equal(daemonSetKind.selectableFields, undefined);
});
