import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { fieldPath } from "../../meta/field-path.ts";
import type { Condition } from "../../meta/types.ts";
import { validateConditions } from "./conditions-validation.ts";

const good: Condition = {
  type: "DisruptionAllowed",
  status: "True",
  lastTransitionTime: "2026-01-01T00:00:00Z",
  reason: "SufficientPods",
  message: "",
};

const cases: { name: string; conditions: Condition[]; want: string[] }[] = [
  { name: "a well-formed condition", conditions: [good], want: [] },
  {
    name: "a duplicate type",
    conditions: [good, good],
    want: ['status.conditions[1].type: Duplicate value: "DisruptionAllowed"'],
  },
  {
    name: "missing reason and time, bad status",
    conditions: [{ ...good, status: "Maybe" as "True", reason: "", lastTransitionTime: "" }],
    want: [
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      "status.conditions[0].lastTransitionTime: Required value: must be set",
      "status.conditions[0].reason: Required value: must be set",
    ],
  },
  {
    name: "a reason with spaces",
    conditions: [{ ...good, reason: "Not OK" }],
    want: [
      `status.conditions[0].reason: Invalid value: "Not OK": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')`,
    ],
  },
];

for (const c of cases) {
  test(`validateConditions: ${c.name}`, () => {
    assert.deepEqual(
      validateConditions(c.conditions, fieldPath("status", "conditions")).map(fieldErrorString),
      c.want,
    );
  });
}
