import assert from "node:assert/strict";
import { test } from "node:test";
import type { ApiError, KubeObject } from "../../../api/index.ts";
import type { JsonObject } from "../../../util/index.ts";
import type { AdmissionAttributes, ObjectReader } from "../admission.ts";
import { newGangAdmission } from "./gang-admission.ts";

const stored: Record<string, JsonObject> = {
  "podgroups.scheduling.k8s.io/ns/pg": { metadata: { name: "pg" } },
  "workloads.scheduling.k8s.io/ns/w": {
    metadata: { name: "w" },
    spec: { podGroupTemplates: [{ name: "worker" }] },
  },
  "workloads.scheduling.k8s.io/ns/gone": {
    metadata: { name: "gone", deletionTimestamp: "2026-01-01T00:00:00Z" },
    spec: { podGroupTemplates: [{ name: "worker" }] },
  },
};
const reader: ObjectReader = {
  get: (segment, namespace, name) => stored[`${segment}/${namespace}/${name}`],
  list: () => [],
  getFresh: async (segment, namespace, name) => stored[`${segment}/${namespace}/${name}`],
};

function attributes(resource: "pods" | "podgroups", object: object): AdmissionAttributes {
  return {
    operation: "CREATE",
    group: resource === "pods" ? "" : "scheduling.k8s.io",
    version: resource === "pods" ? "v1" : "v1alpha1",
    kind: resource === "pods" ? "Pod" : "PodGroup",
    resource,
    subresource: "",
    namespace: "ns",
    name: "x",
    object: { metadata: { name: "x", namespace: "ns" }, ...object } as KubeObject,
    oldObject: undefined,
    dryRun: false,
    userInfo: { username: "u", groups: [] },
  };
}

const cases = [
  { name: "a pod without workloadRef is admitted", resource: "pods", spec: {}, want: "allowed" },
  {
    name: "a pod naming an existing PodGroup is admitted",
    resource: "pods",
    spec: { workloadRef: { name: "w", podGroupName: "pg" } },
    want: "allowed",
  },
  {
    name: "a pod naming a missing PodGroup is forbidden",
    resource: "pods",
    spec: { workloadRef: { name: "w", podGroupName: "nope" } },
    want: '403 pods "x" is forbidden: pod group "nope" does not exist in namespace "ns": create the PodGroup before its pods',
  },
  {
    name: "a legacy pod (podGroup of the Workload) is admitted",
    resource: "pods",
    spec: { workloadRef: { name: "missing", podGroup: "workers" } },
    want: "allowed",
  },
  {
    name: "a PodGroup of an existing Workload template is admitted",
    resource: "podgroups",
    spec: { workloadRef: { name: "w" }, podGroupTemplateName: "worker" },
    want: "allowed",
  },
  {
    name: "a PodGroup of a missing Workload is forbidden",
    resource: "podgroups",
    spec: { workloadRef: { name: "nope" }, podGroupTemplateName: "worker" },
    want: '403 podgroups.scheduling.k8s.io "x" is forbidden: workload "nope" does not exist in namespace "ns"',
  },
  {
    name: "a PodGroup of a terminating Workload is forbidden",
    resource: "podgroups",
    spec: { workloadRef: { name: "gone" }, podGroupTemplateName: "worker" },
    want: '403 podgroups.scheduling.k8s.io "x" is forbidden: workload "gone" is being deleted',
  },
  {
    name: "a PodGroup naming a missing template is forbidden",
    resource: "podgroups",
    spec: { workloadRef: { name: "w" }, podGroupTemplateName: "nope" },
    want: '403 podgroups.scheduling.k8s.io "x" is forbidden: workload "w" has no pod group template "nope"',
  },
] as const;

for (const c of cases) {
  test(`GangAdmission.validate: ${c.name}`, async () => {
    const decision = await newGangAdmission(reader).validate?.(
      attributes(c.resource, { spec: c.spec }),
    );
    const got =
      decision === undefined || decision.allowed
        ? "allowed"
        : `${(decision.error as ApiError).code} ${decision.error.message}`;
    assert.equal(got, c.want);
  });
}
