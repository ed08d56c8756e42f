import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import {
  applyResourceQuotaDefaults,
  type ResourceQuota,
  type ResourceQuotaSpec,
  validateResourceQuota,
  validateResourceQuotaUpdate,
} from "./resource-quota.ts";

const quota = (spec: ResourceQuotaSpec, status?: ResourceQuota["status"]): ResourceQuota => ({
  metadata: { name: "q", namespace: "ns", resourceVersion: "5" },
  spec,
  ...(status === undefined ? {} : { status }),
});

const cases: { name: string; object: ResourceQuota; want: string[] }[] = [
  {
    name: "compute, object counts, extended resources and count/<resource>.<group> are valid",
    object: quota({
      hard: {
        cpu: "1",
        "requests.memory": "1Gi",
        "limits.cpu": "2",
        pods: "10",
        services: "5",
        "count/deployments.apps": "3",
        "requests.nvidia.com/gpu": "4",
        "requests.hugepages-2Mi": "1Gi",
      },
    }),
    want: [],
  },
  {
    name: "a resource name that is not a quota resource",
    object: quota({ hard: { nodes: "1", storage: "1Gi" } }),
    want: [
      'spec.hard[nodes]: Invalid value: "nodes": must be a standard resource type or fully qualified',
      'spec.hard[nodes]: Invalid value: "nodes": must be a standard resource for quota',
      'spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota',
    ],
  },
  {
    name: "negative and fractional counts",
    object: quota({ hard: { cpu: "-1", pods: "1500m" } }),
    want: [
      'spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.hard[pods]: Invalid value: "1500m": must be an integer',
    ],
  },
  {
    name: "an unsupported scope and a scope that does not apply to a resource",
    object: quota({ hard: { services: "1", pods: "2" }, scopes: ["Forever", "BestEffort"] }),
    want: [
      'spec.scopes: Invalid value: ["Forever","BestEffort"]: unsupported scope',
      'spec.scopes: Invalid value: ["Forever","BestEffort"]: unsupported scope applied to resource',
    ],
  },
  {
    name: "BestEffort quotas count pods only",
    object: quota({ hard: { cpu: "1" }, scopes: ["BestEffort"] }),
    want: ['spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource'],
  },
  {
    name: "conflicting scopes",
    object: quota({ hard: { pods: "1" }, scopes: ["Terminating", "NotTerminating"] }),
    want: ['spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes'],
  },
  {
    name: "a PriorityClass scope selector with In and values is valid",
    object: quota({
      hard: { pods: "1", "requests.cpu": "1" },
      scopeSelector: {
        matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }],
      },
    }),
    want: [],
  },
  {
    name: "scope selector rules: operators, values and unknown scopes",
    object: quota({
      hard: { pods: "1" },
      scopeSelector: {
        matchExpressions: [
          { scopeName: "BestEffort", operator: "In", values: ["x"] },
          { scopeName: "PriorityClass", operator: "NotIn" },
          { scopeName: "PriorityClass", operator: "Exists", values: ["a"] },
          { scopeName: "Nope", operator: "Gt" },
        ],
      },
    }),
    want: [
      "spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
      "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      "spec.scopeSelector.matchExpressions.values: Invalid value: [\"a\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
      'spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Nope": unsupported scope',
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "Gt": not a valid selector operator',
    ],
  },
  {
    name: "conflicting scopes in a scope selector",
    object: quota({
      hard: { pods: "1" },
      scopeSelector: {
        matchExpressions: [
          { scopeName: "BestEffort", operator: "Exists" },
          { scopeName: "NotBestEffort", operator: "Exists" },
        ],
      },
    }),
    want: ["spec.scopeSelector.matchExpressions: Invalid value: null: conflicting scopes"],
  },
  {
    name: "status values are checked too",
    object: quota({ hard: { pods: "1" } }, { hard: { pods: "1" }, used: { pods: "-1" } }),
    want: ['status.used[pods]: Invalid value: "-1": must be greater than or equal to 0'],
  },
];

for (const c of cases) {
  test(`validateResourceQuota: ${c.name}`, () => {
    assert.deepEqual(validateResourceQuota(c.object).map(fieldErrorString), c.want);
  });
}

test("validateResourceQuotaUpdate: scopes are immutable, hard limits may change", () => {
  const old = quota({ hard: { pods: "1" }, scopes: ["BestEffort"] });
  assert.deepEqual(
    validateResourceQuotaUpdate(quota({ hard: { pods: "5" }, scopes: ["BestEffort"] }), old),
    [],
  );
  assert.deepEqual(
    validateResourceQuotaUpdate(quota({ hard: { pods: "5" } }), old).map(fieldErrorString),
    ["spec.scopes: Invalid value: null: field is immutable"],
  );
});

test("applyResourceQuotaDefaults: quantities print canonically", () => {
  const object = quota(
    { hard: { memory: "1024Mi", cpu: "1000m" } },
    { hard: { memory: "1024Mi" }, used: { memory: "0.5Gi" } },
  );
  applyResourceQuotaDefaults(object);
  assert.deepEqual(object.spec?.hard, { memory: "1Gi", cpu: "1" });
  assert.deepEqual(object.status, { hard: { memory: "1Gi" }, used: { memory: "512Mi" } });
});
