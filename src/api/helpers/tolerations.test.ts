import assert from "node:assert/strict";
import { test } from "node:test";
import type { Taint } from "../core/v1/node-types.ts";
import type { Toleration } from "../core/v1/pod-template.ts";
import {
  doNotScheduleTaints,
  findMatchingUntoleratedTaint,
  toleratesTaint,
  tolerationsTolerateTaint,
} from "./tolerations.ts";

const gpu: Taint = { key: "gpu", value: "true", effect: "NoSchedule" };

const cases: readonly { name: string; toleration: Toleration; taint: Taint; want: boolean }[] = [
  {
    name: "Equal with the same key, value and effect tolerates",
    toleration: { key: "gpu", operator: "Equal", value: "true", effect: "NoSchedule" },
    taint: gpu,
    want: true,
  },
  {
    name: "an empty operator means Equal",
    toleration: { key: "gpu", value: "true" },
    taint: gpu,
    want: true,
  },
  {
    name: "Equal with another value does not tolerate",
    toleration: { key: "gpu", operator: "Equal", value: "false" },
    taint: gpu,
    want: false,
  },
  {
    name: "Equal with no value matches a taint with no value",
    toleration: { key: "node-role.kubernetes.io/control-plane", operator: "Equal" },
    taint: { key: "node-role.kubernetes.io/control-plane", effect: "NoSchedule" },
    want: true,
  },
  {
    name: "Exists ignores the value",
    toleration: { key: "gpu", operator: "Exists" },
    taint: gpu,
    want: true,
  },
  {
    name: "Exists with an empty key tolerates every taint",
    toleration: { operator: "Exists" },
    taint: { key: "anything", value: "x", effect: "NoExecute" },
    want: true,
  },
  {
    name: "another effect does not tolerate",
    toleration: { key: "gpu", operator: "Exists", effect: "NoExecute" },
    taint: gpu,
    want: false,
  },
  {
    name: "another key does not tolerate",
    toleration: { key: "spot", operator: "Exists" },
    taint: gpu,
    want: false,
  },
  {
    name: "Lt tolerates a taint whose value is smaller",
    toleration: { key: "level", operator: "Lt", value: "10" },
    taint: { key: "level", value: "9", effect: "NoSchedule" },
    want: true,
  },
  {
    name: "Lt does not tolerate an equal value",
    toleration: { key: "level", operator: "Lt", value: "10" },
    taint: { key: "level", value: "10", effect: "NoSchedule" },
    want: false,
  },
  {
    name: "Gt tolerates a taint whose value is larger",
    toleration: { key: "level", operator: "Gt", value: "-3" },
    taint: { key: "level", value: "0", effect: "NoSchedule" },
    want: true,
  },
  {
    name: "Gt with a non-integer taint value does not tolerate",
    toleration: { key: "level", operator: "Gt", value: "1" },
    taint: { key: "level", value: "high", effect: "NoSchedule" },
    want: false,
  },
  {
    name: "Gt rejects a value with leading zeros",
    toleration: { key: "level", operator: "Gt", value: "01" },
    taint: { key: "level", value: "5", effect: "NoSchedule" },
    want: false,
  },
];

for (const c of cases) {
  test(`toleratesTaint: ${c.name}`, () => {
    assert.equal(toleratesTaint(c.toleration, c.taint), c.want);
  });
}

test("tolerationsTolerateTaint: no tolerations tolerate nothing", () => {
  assert.equal(tolerationsTolerateTaint(undefined, gpu), false);
  assert.equal(tolerationsTolerateTaint([{ key: "gpu", operator: "Exists" }], gpu), true);
});

const findCases: readonly {
  name: string;
  taints: Taint[];
  tolerations: Toleration[];
  want: Taint | undefined;
}[] = [
  {
    name: "the first untolerated NoSchedule or NoExecute taint",
    taints: [
      { key: "soft", effect: "PreferNoSchedule" },
      { key: "a", value: "1", effect: "NoSchedule" },
      { key: "b", value: "2", effect: "NoExecute" },
    ],
    tolerations: [{ key: "a", operator: "Exists" }],
    want: { key: "b", value: "2", effect: "NoExecute" },
  },
  {
    name: "PreferNoSchedule taints are left out by the filter",
    taints: [{ key: "soft", effect: "PreferNoSchedule" }],
    tolerations: [],
    want: undefined,
  },
  {
    name: "undefined when every selected taint is tolerated",
    taints: [{ key: "a", value: "1", effect: "NoSchedule" }],
    tolerations: [{ operator: "Exists" }],
    want: undefined,
  },
];

for (const c of findCases) {
  test(`findMatchingUntoleratedTaint: ${c.name}`, () => {
    assert.deepEqual(
      findMatchingUntoleratedTaint(c.taints, c.tolerations, doNotScheduleTaints),
      c.want,
    );
  });
}
