import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { podDisruptionBudgetKind } from "./kinds.ts";
import { effectiveBudgetScope, type PodDisruptionBudget } from "./pod-disruption-budget.ts";
import {
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetUpdate,
} from "./pod-disruption-budget-validation.ts";

function makePdb(spec: PodDisruptionBudget["spec"]): PodDisruptionBudget {
  return { metadata: { name: "web-pdb", namespace: "default", resourceVersion: "1" }, spec };
}

const selector = { matchLabels: { app: "web" } };

const cases: { name: string; spec: PodDisruptionBudget["spec"]; want: string[] }[] = [
  { name: "minAvailable alone is valid", spec: { minAvailable: 2, selector }, want: [] },
  { name: "a null selector is allowed", spec: { maxUnavailable: "50%" }, want: [] },
  {
    name: "minAvailable and maxUnavailable together",
    spec: { minAvailable: 1, maxUnavailable: 1, selector },
    want: [
      `spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:&intstr.IntOrString{Type:0, IntVal:1, StrVal:""}, Selector:&v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}, MaxUnavailable:&intstr.IntOrString{Type:0, IntVal:1, StrVal:""}, UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set`,
    ],
  },
  {
    name: "a negative minAvailable",
    spec: { minAvailable: -1, selector },
    want: ["spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"],
  },
  {
    name: "a percentage over 100",
    spec: { maxUnavailable: "150%", selector },
    want: [
      `spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%`,
    ],
  },
  {
    name: "a string that is not a percentage",
    spec: { minAvailable: "two", selector },
    want: [
      `spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"two"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ],
  },
  {
    name: "an unknown unhealthyPodEvictionPolicy",
    spec: { minAvailable: 1, selector, unhealthyPodEvictionPolicy: "Never" as "AlwaysAllow" },
    want: [
      `spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"`,
    ],
  },
  {
    name: "usePodGroups and budgetScope agreeing",
    spec: { maxUnavailable: 1, selector, usePodGroups: true, budgetScope: "PodGroup" },
    want: [],
  },
  {
    name: "usePodGroups true but budgetScope Pod",
    spec: { maxUnavailable: 1, selector, usePodGroups: true, budgetScope: "Pod" },
    want: [
      `spec.budgetScope: Invalid value: "Pod": must be "PodGroup" when usePodGroups is true, or leave one of them unset`,
    ],
  },
  {
    name: "usePodGroups false but budgetScope PodGroup",
    spec: { maxUnavailable: 1, selector, usePodGroups: false, budgetScope: "PodGroup" },
    want: [
      `spec.budgetScope: Invalid value: "PodGroup": must be "Pod" when usePodGroups is false, or leave one of them unset`,
    ],
  },
  {
    name: "an unknown budgetScope",
    spec: { maxUnavailable: 1, selector, budgetScope: "Replica" as "Pod" },
    want: [`spec.budgetScope: Unsupported value: "Replica": supported values: "Pod", "PodGroup"`],
  },
];

for (const c of cases) {
  test(`validatePodDisruptionBudget: ${c.name}`, () => {
    assert.deepEqual(validatePodDisruptionBudget(makePdb(c.spec)).map(fieldErrorString), c.want);
  });
}

test("validatePodDisruptionBudgetUpdate: status counters must not be negative", () => {
  const old = makePdb({ minAvailable: 1, selector });
  const next = makePdb({ minAvailable: 1, selector });
  next.status = { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  assert.deepEqual(validatePodDisruptionBudgetUpdate(next, old).map(fieldErrorString), [
    "status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0",
  ]);
});

test("validatePodDisruptionBudgetUpdate: the spec is mutable in policy/v1", () => {
  const old = makePdb({ minAvailable: 1, selector });
  const next = makePdb({ maxUnavailable: "10%", selector: { matchLabels: { app: "api" } } });
  assert.deepEqual(validatePodDisruptionBudgetUpdate(next, old), []);
});

const scopeCases = [
  { spec: {}, want: "Pod" },
  { spec: { usePodGroups: true }, want: "PodGroup" },
  { spec: { usePodGroups: false }, want: "Pod" },
  { spec: { budgetScope: "PodGroup" }, want: "PodGroup" },
] as const;

for (const c of scopeCases) {
  test(`effectiveBudgetScope: ${JSON.stringify(c.spec)} counts in ${c.want}`, () => {
    assert.equal(effectiveBudgetScope(c.spec), c.want);
  });
}

test("podDisruptionBudgetKind: served as poddisruptionbudgets (pdb) with status", () => {
  assert.equal(podDisruptionBudgetKind.resource, "poddisruptionbudgets");
  assert.deepEqual(podDisruptionBudgetKind.shortNames, ["pdb"]);
  assert.equal(podDisruptionBudgetKind.subresources.status, true);
  const pdb = makePdb({ minAvailable: 1 });
  podDisruptionBudgetKind.applyDefaults(pdb);
  assert.deepEqual(pdb.spec, { minAvailable: 1 });
});
