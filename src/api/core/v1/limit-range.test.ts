import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import {
  applyLimitRangeDefaults,
  type LimitRange,
  type LimitRangeItem,
  validateLimitRange,
  validateLimitRangeUpdate,
} from "./limit-range.ts";

const lr = (...limits: LimitRangeItem[]): LimitRange => ({
  metadata: { name: "limits", namespace: "ns" },
  spec: { limits },
});

const cases: { name: string; object: LimitRange; want: string[] }[] = [
  {
    name: "a container range with min ≤ defaultRequest ≤ default ≤ max is valid",
    object: lr({
      type: "Container",
      min: { cpu: "100m" },
      defaultRequest: { cpu: "200m" },
      default: { cpu: "500m" },
      max: { cpu: "1" },
      maxLimitRequestRatio: { cpu: "5" },
    }),
    want: [],
  },
  {
    name: "Pod, Container and PersistentVolumeClaim together are valid",
    object: lr(
      { type: "Pod", max: { memory: "1Gi" } },
      { type: "Container", max: { memory: "512Mi" } },
      { type: "PersistentVolumeClaim", min: { storage: "1Gi" } },
    ),
    want: [],
  },
  {
    name: "an unknown type without a domain",
    object: lr({ type: "Deployment", max: { cpu: "1" } }),
    want: [
      'spec.limits[0].type: Invalid value: "Deployment": must be a standard limit type or fully qualified',
    ],
  },
  {
    name: "a domain-qualified type is allowed",
    object: lr({ type: "example.com/Widget", max: { cpu: "1" } }),
    want: [],
  },
  {
    name: "the same type twice",
    object: lr({ type: "Container", max: { cpu: "1" } }, { type: "Container", max: { cpu: "2" } }),
    want: ['spec.limits[1].type: Duplicate value: "Container"'],
  },
  {
    name: "min greater than max",
    object: lr({ type: "Pod", min: { cpu: "2" }, max: { cpu: "1" } }),
    want: ['spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1'],
  },
  {
    name: "a default request above the default limit and the max",
    object: lr({
      type: "Container",
      default: { memory: "256Mi" },
      defaultRequest: { memory: "1Gi" },
      max: { memory: "512Mi" },
    }),
    want: [
      'spec.limits[0].defaultRequest[memory]: Invalid value: "1Gi": default request value 1Gi is greater than max value 512Mi',
      'spec.limits[0].defaultRequest[memory]: Invalid value: "1Gi": default request value 1Gi is greater than default limit value 256Mi',
    ],
  },
  {
    name: "a default below min and above max",
    object: lr({
      type: "Container",
      min: { cpu: "500m" },
      max: { cpu: "400m" },
      default: { cpu: "450m" },
      defaultRequest: { cpu: "450m" },
    }),
    want: [
      'spec.limits[0].min[cpu]: Invalid value: "500m": min value 500m is greater than max value 400m',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "450m": min value 500m is greater than default request value 450m',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "450m": default request value 450m is greater than max value 400m',
      'spec.limits[0].default[cpu]: Invalid value: "500m": min value 500m is greater than default value 450m',
      'spec.limits[0].default[cpu]: Invalid value: "400m": default value 450m is greater than max value 400m',
    ],
  },
  {
    name: "a ratio below 1",
    object: lr({ type: "Container", maxLimitRequestRatio: { cpu: "500m" } }),
    want: [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    ],
  },
  {
    name: "a ratio above max/min",
    object: lr({
      type: "Pod",
      min: { cpu: "1" },
      max: { cpu: "2" },
      maxLimitRequestRatio: { cpu: "3" },
    }),
    want: [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
    ],
  },
  {
    name: "defaults are forbidden for Pod",
    object: lr({ type: "Pod", default: { cpu: "1" }, defaultRequest: { cpu: "1" } }),
    want: [
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
      "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'",
    ],
  },
  {
    name: "a PersistentVolumeClaim range needs a storage min or max",
    object: lr({ type: "PersistentVolumeClaim", max: { memory: "1Gi" } }),
    want: [
      "spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided",
    ],
  },
  {
    name: "a container range names only container resources",
    object: lr({ type: "Container", max: { pods: "1", foo: "1" } }),
    want: [
      'spec.limits[0].max[pods]: Invalid value: "pods": must be a standard resource for containers',
      'spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
      'spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource for containers',
      // Defaulting copied max into default and defaultRequest, as upstream's does before validation.
      'spec.limits[0].default[pods]: Invalid value: "pods": must be a standard resource for containers',
      'spec.limits[0].default[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
      'spec.limits[0].default[foo]: Invalid value: "foo": must be a standard resource for containers',
      'spec.limits[0].defaultRequest[pods]: Invalid value: "pods": must be a standard resource for containers',
      'spec.limits[0].defaultRequest[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
      'spec.limits[0].defaultRequest[foo]: Invalid value: "foo": must be a standard resource for containers',
    ],
  },
  {
    name: "extended resources need equal default and default request",
    object: lr({
      type: "Container",
      default: { "example.com/gpu": "2" },
      defaultRequest: { "example.com/gpu": "1" },
    }),
    want: [
      'spec.limits[0].defaultRequest[example.com/gpu]: Invalid value: "1": default value 2 must equal to defaultRequest value 1 in example.com/gpu',
    ],
  },
  {
    name: "an unparsable quantity",
    object: lr({ type: "Pod", max: { cpu: "lots" } }),
    want: [
      "spec.limits[0].max[cpu]: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ],
  },
];

for (const c of cases) {
  test(`validateLimitRange: ${c.name}`, () => {
    const object = structuredClone(c.object);
    applyLimitRangeDefaults(object);
    assert.deepEqual(validateLimitRange(object).map(fieldErrorString), c.want);
  });
}

test("applyLimitRangeDefaults: a container default falls back to max, the default request to the default, then min", () => {
  const object = lr(
    { type: "Container", max: { cpu: "2", memory: "1Gi" }, min: { "ephemeral-storage": "1Gi" } },
    { type: "Pod", max: { cpu: "4" } },
  );
  applyLimitRangeDefaults(object);
  assert.deepEqual(object.spec?.limits, [
    {
      type: "Container",
      max: { cpu: "2", memory: "1Gi" },
      min: { "ephemeral-storage": "1Gi" },
      default: { cpu: "2", memory: "1Gi" },
      defaultRequest: { cpu: "2", memory: "1Gi", "ephemeral-storage": "1Gi" },
    },
    { type: "Pod", max: { cpu: "4" } },
  ]);
});

test("applyLimitRangeDefaults: quantities print canonically and explicit defaults stay", () => {
  const object = lr({
    type: "Container",
    default: { memory: "1024Mi" },
    defaultRequest: { cpu: "0.5" },
  });
  applyLimitRangeDefaults(object);
  assert.deepEqual(object.spec?.limits?.[0], {
    type: "Container",
    default: { memory: "1Gi" },
    defaultRequest: { cpu: "500m", memory: "1Gi" },
  });
});

test("validateLimitRangeUpdate: the new object's rules apply", () => {
  const old = lr({ type: "Container", max: { cpu: "1" } });
  const next = lr({ type: "Container", min: { cpu: "2" }, max: { cpu: "1" } });
  old.metadata.resourceVersion = "7";
  next.metadata.resourceVersion = "7";
  assert.deepEqual(validateLimitRangeUpdate(next, old).map(fieldErrorString), [
    'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
  ]);
});
