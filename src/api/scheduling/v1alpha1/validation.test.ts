import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { podGroupKind, workloadKind } from "./kinds.ts";
import type { PodGroup } from "./pod-group.ts";
import {
  validatePodGroup,
  validatePodGroupUpdate,
  validateWorkload,
  validateWorkloadUpdate,
} from "./validation.ts";
import type { Workload, WorkloadSpec } from "./workload.ts";

function makeWorkload(spec: WorkloadSpec): Workload {
  return { metadata: { name: "job-1", namespace: "ns", resourceVersion: "1" }, spec };
}

const gang = (name: string, minCount = 2) => ({ name, policy: { gang: { minCount } } });

const cases: { name: string; spec: WorkloadSpec; want: string[] }[] = [
  {
    name: "gang and basic groups with a controller",
    spec: {
      controllerRef: { apiGroup: "batch", kind: "Job", name: "job-1" },
      podGroups: [gang("workers"), { name: "driver", policy: { basic: {} }, replicas: 1 }],
    },
    want: [],
  },
  { name: "templates only", spec: { podGroupTemplates: [gang("worker", 4)] }, want: [] },
  {
    name: "neither list",
    spec: {},
    want: [
      "spec.podGroups: Required value: must have at least one item in podGroups or podGroupTemplates",
    ],
  },
  {
    name: "nine groups",
    spec: { podGroups: Array.from({ length: 9 }, (_, i) => gang(`g${i}`)) },
    want: ["spec.podGroups: Too many: 9: must have at most 8 items"],
  },
  {
    name: "nine templates",
    spec: { podGroupTemplates: Array.from({ length: 9 }, (_, i) => gang(`t${i}`)) },
    want: ["spec.podGroupTemplates: Too many: 9: must have at most 8 items"],
  },
  {
    name: "a duplicate name and a name that is not a DNS label",
    spec: { podGroups: [gang("a"), gang("a"), gang("Bad_Name")] },
    want: [
      'spec.podGroups[1].name: Duplicate value: "a"',
      `spec.podGroups[2].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
  },
  {
    name: "a policy with neither basic nor gang",
    spec: { podGroups: [{ name: "a", policy: {} }] },
    want: ["spec.podGroups[0].policy: Required value: exactly one of `basic`, `gang` is required"],
  },
  {
    name: "a policy with both",
    spec: { podGroups: [{ name: "a", policy: { basic: {}, gang: { minCount: 1 } } }] },
    want: [
      'spec.podGroups[0].policy: Invalid value: "{`basic`, `gang`}": exactly one of `basic`, `gang` is required, but multiple fields are set',
    ],
  },
  {
    name: "minCount zero",
    spec: { podGroupTemplates: [gang("a", 0)] },
    want: [
      "spec.podGroupTemplates[0].policy.gang.minCount: Invalid value: 0: must be greater than zero",
    ],
  },
  {
    name: "negative replicas",
    spec: { podGroups: [{ ...gang("a"), replicas: -1 }] },
    want: ["spec.podGroups[0].replicas: Invalid value: -1: must be greater than or equal to 0"],
  },
  {
    name: "a controllerRef without kind",
    spec: { controllerRef: { kind: "", name: "x" }, podGroups: [gang("a")] },
    want: ["spec.controllerRef.kind: Required value"],
  },
];

for (const c of cases) {
  test(`validateWorkload: ${c.name}`, () => {
    assert.deepEqual(validateWorkload(makeWorkload(c.spec)).map(fieldErrorString), c.want);
  });
}

test("validateWorkloadUpdate: controllerRef may be set later but not changed", () => {
  const none = makeWorkload({ podGroups: [gang("a")] });
  const set = makeWorkload({ controllerRef: { kind: "Job", name: "j" }, podGroups: [gang("a")] });
  const changed = makeWorkload({
    controllerRef: { kind: "Job", name: "k" },
    podGroups: [gang("a")],
  });
  assert.deepEqual(validateWorkloadUpdate(set, none), []);
  assert.deepEqual(
    validateWorkloadUpdate(changed, set).map((e) => `${e.field}: ${e.detail}`),
    ["spec.controllerRef: field is immutable"],
  );
});

test("validateWorkloadUpdate: pod groups and templates are immutable", () => {
  const old = makeWorkload({ podGroups: [gang("a")], podGroupTemplates: [gang("t")] });
  const next = makeWorkload({
    podGroups: [gang("a", 3)],
    podGroupTemplates: [gang("t"), gang("u")],
  });
  assert.deepEqual(
    validateWorkloadUpdate(next, old).map((e) => `${e.field}: ${e.detail}`),
    ["spec.podGroups: field is immutable", "spec.podGroupTemplates: field is immutable"],
  );
});

function makePodGroup(edit: (pg: PodGroup) => void = () => {}): PodGroup {
  const pg: PodGroup = {
    metadata: { name: "job-1-worker-0", namespace: "ns", resourceVersion: "1" },
    spec: { workloadRef: { name: "job-1" }, podGroupTemplateName: "worker" },
  };
  edit(pg);
  return pg;
}

const podGroupCases: { name: string; edit: (pg: PodGroup) => void; want: string[] }[] = [
  { name: "a valid PodGroup", edit: () => {}, want: [] },
  {
    name: "missing references",
    edit: (pg) => {
      pg.spec = {} as PodGroup["spec"];
    },
    want: ["spec.workloadRef: Required value", "spec.podGroupTemplateName: Required value"],
  },
  {
    name: "a template name that is not a DNS label",
    edit: (pg) => {
      pg.spec.podGroupTemplateName = "a.b";
    },
    want: [
      `spec.podGroupTemplateName: Invalid value: "a.b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
  },
];

for (const c of podGroupCases) {
  test(`validatePodGroup: ${c.name}`, () => {
    assert.deepEqual(validatePodGroup(makePodGroup(c.edit)).map(fieldErrorString), c.want);
  });
}

test("validatePodGroupUpdate: spec is immutable, status is checked", () => {
  const old = makePodGroup();
  const next = makePodGroup((pg) => {
    pg.spec.workloadRef = { name: "other" };
    pg.status = {
      scheduledPods: -1,
      conditions: [
        {
          type: "PodGroupScheduled",
          status: "True",
          reason: "Scheduled",
          message: "",
          lastTransitionTime: "2026-01-01T00:00:00Z",
        },
      ],
    };
  });
  assert.deepEqual(validatePodGroupUpdate(next, old).map(fieldErrorString), [
    'spec.workloadRef: Invalid value: {"name":"other"}: field is immutable',
    "status.scheduledPods: Invalid value: -1: must be greater than or equal to 0",
  ]);
});

test("schedulingV1alpha1Kinds: workloads without status, podgroups with status", () => {
  assert.equal(workloadKind.resource, "workloads");
  assert.equal(workloadKind.subresources.status, false);
  assert.equal(podGroupKind.resource, "podgroups");
  assert.equal(podGroupKind.subresources.status, true);
  assert.deepEqual(podGroupKind.schema.schema["x-kubernetes-group-version-kind"], [
    { group: "scheduling.k8s.io", version: "v1alpha1", kind: "PodGroup" },
  ]);
});
