import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { fieldPath } from "../../meta/field-path.ts";
import {
  goLabelSelector,
  goStringMap,
  isNotMoreThan100Percent,
  selectorMatchesLabels,
  validatePositiveIntOrPercent,
} from "./validation-helpers.ts";

const p = fieldPath("spec", "x");

const intOrPercentCases = [
  { name: "a percentage is valid", value: "25%", want: [] },
  { name: "a non-negative integer is valid", value: 0, want: [] },
  {
    name: "a negative integer",
    value: -1,
    want: ["spec.x: Invalid value: -1: must be greater than or equal to 0"],
  },
  {
    name: "a string that is not a percentage",
    value: "5",
    want: [
      `spec.x: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"5"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ],
  },
] as const;

for (const c of intOrPercentCases) {
  test(`validatePositiveIntOrPercent: ${c.name}`, () => {
    assert.deepEqual(validatePositiveIntOrPercent(c.value, p).map(fieldErrorString), c.want);
  });
}

test("isNotMoreThan100Percent: rejects 101% and accepts 100% and integers above 100", () => {
  assert.deepEqual(isNotMoreThan100Percent("101%", p).map(fieldErrorString), [
    `spec.x: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%`,
  ]);
  assert.deepEqual(isNotMoreThan100Percent("100%", p), []);
  assert.deepEqual(isNotMoreThan100Percent(500, p), []);
});

const goCases = [
  { name: "nil map", got: goStringMap(undefined), want: "map[string]string(nil)" },
  {
    name: "map keys are sorted",
    got: goStringMap({ b: "2", a: "1" }),
    want: `map[string]string{"a":"1", "b":"2"}`,
  },
  {
    name: "label selector",
    got: goLabelSelector({ matchLabels: { app: "web" } }),
    want: `v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`,
  },
] as const;

for (const c of goCases) {
  test(`goValue: ${c.name}`, () => assert.equal(c.got, c.want));
}

test("selectorMatchesLabels: nil selects nothing, {} everything, invalid is undefined", () => {
  assert.equal(selectorMatchesLabels(undefined, { a: "b" }), false);
  assert.equal(selectorMatchesLabels({}, { a: "b" }), true);
  assert.equal(selectorMatchesLabels({ matchLabels: { a: "b" } }, { a: "b", c: "d" }), true);
  assert.equal(
    selectorMatchesLabels(
      { matchExpressions: [{ key: "a", operator: "NotIn", values: ["b"] }] },
      { a: "b" },
    ),
    false,
  );
  assert.equal(selectorMatchesLabels({ matchLabels: { "a b": "c" } }, {}), undefined);
});
