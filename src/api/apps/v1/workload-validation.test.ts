import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { DaemonSet } from "./daemon-set.ts";
import { validateDaemonSet } from "./daemon-set-validation.ts";
import { defaultDaemonSet, defaultReplicaSet, defaultStatefulSet } from "./kinds.ts";
import type { ReplicaSet } from "./replica-set.ts";
import { validateReplicaSet } from "./replica-set-validation.ts";
import type { StatefulSet } from "./stateful-set.ts";
import { validateStatefulSet, validateStatefulSetUpdate } from "./stateful-set-validation.ts";

const meta = { name: "x", namespace: "ns", resourceVersion: "1" };
const template = () => ({
  metadata: { labels: { app: "x" } },
  spec: { containers: [{ name: "c", image: "i" }] },
});

function rs(edit: (r: ReplicaSet) => void): ReplicaSet {
  const r: ReplicaSet = {
    metadata: { ...meta },
    spec: { selector: { matchLabels: { app: "x" } }, template: template() },
  };
  defaultReplicaSet(r);
  edit(r);
  return r;
}

function sts(edit: (s: StatefulSet) => void): StatefulSet {
  const s: StatefulSet = {
    metadata: { ...meta },
    spec: { selector: { matchLabels: { app: "x" } }, template: template(), serviceName: "x" },
  };
  defaultStatefulSet(s);
  edit(s);
  return s;
}

function ds(edit: (d: DaemonSet) => void): DaemonSet {
  const d: DaemonSet = {
    metadata: { ...meta },
    spec: { selector: { matchLabels: { app: "x" } }, template: template() },
  };
  defaultDaemonSet(d);
  edit(d);
  return d;
}

const cases: { name: string; got: () => string[]; want: string[] }[] = [
  {
    name: "ReplicaSet: valid",
    got: () => validateReplicaSet(rs(() => {})).map(fieldErrorString),
    want: [],
  },
  {
    name: "ReplicaSet: empty selector uses upstream's deployment wording",
    got: () =>
      validateReplicaSet(
        rs((r) => {
          r.spec.selector = { matchLabels: {} };
        }),
      ).map(fieldErrorString),
    want: [
      "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment",
    ],
  },
  {
    name: "ReplicaSet: activeDeadlineSeconds is forbidden",
    got: () =>
      validateReplicaSet(
        rs((r) => {
          if (r.spec.template?.spec !== undefined) r.spec.template.spec.activeDeadlineSeconds = 5;
        }),
      ).map(fieldErrorString),
    want: [
      "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported",
    ],
  },
  {
    name: "StatefulSet: valid",
    got: () => validateStatefulSet(sts(() => {})).map(fieldErrorString),
    want: [],
  },
  {
    name: "StatefulSet: bad podManagementPolicy and retention policy",
    got: () =>
      validateStatefulSet(
        sts((s) => {
          (s.spec as { podManagementPolicy: string }).podManagementPolicy = "Random";
          s.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: "Retain" };
        }),
      ).map(fieldErrorString),
    want: [
      `spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`,
      `spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "": supported values: "Retain", "Delete"`,
    ],
  },
  {
    name: "StatefulSet: negative partition",
    got: () =>
      validateStatefulSet(
        sts((s) => {
          s.spec.updateStrategy = { type: "RollingUpdate", rollingUpdate: { partition: -1 } };
        }),
      ).map(fieldErrorString),
    want: [
      "spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0",
    ],
  },
  {
    name: "DaemonSet: valid",
    got: () => validateDaemonSet(ds(() => {})).map(fieldErrorString),
    want: [],
  },
  {
    name: "DaemonSet: maxSurge and maxUnavailable both non-zero",
    got: () =>
      validateDaemonSet(
        ds((d) => {
          d.spec.updateStrategy = {
            type: "RollingUpdate",
            rollingUpdate: { maxUnavailable: 1, maxSurge: 1 },
          };
        }),
      ).map(fieldErrorString),
    want: [
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
    ],
  },
  {
    name: "DaemonSet: both zero",
    got: () =>
      validateDaemonSet(
        ds((d) => {
          d.spec.updateStrategy = {
            type: "RollingUpdate",
            rollingUpdate: { maxUnavailable: 0, maxSurge: "0%" },
          };
        }),
      ).map(fieldErrorString),
    want: [
      "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
    ],
  },
];

for (const c of cases) {
  test(`appsValidation: ${c.name}`, () => assert.deepEqual(c.got(), c.want));
}

test("validateStatefulSetUpdate: only the listed spec fields may change", () => {
  const old = sts(() => {});
  const scaled = sts((s) => {
    s.spec.replicas = 4;
  });
  assert.deepEqual(validateStatefulSetUpdate(scaled, old), []);
  const renamed = sts((s) => {
    s.spec.serviceName = "other";
  });
  assert.deepEqual(validateStatefulSetUpdate(renamed, old).map(fieldErrorString), [
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  ]);
});
