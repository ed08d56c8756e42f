/** `metav1validation.ValidateConditions`: the checks every `metav1.Condition` list gets. */
import {
  duplicate,
  type FieldErrorList,
  invalid,
  notSupported,
  required,
  tooLong,
} from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import type { Condition } from "../../meta/types.ts";
import { validateLabelName } from "../../validation/meta.ts";
import { regexError } from "../../validation/names.ts";

const reasonFmt = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?";
const reasonRe = new RegExp(`^${reasonFmt}$`);
const reasonErrMsg =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";
const maxReasonLength = 1024;
const maxMessageLength = 32 * 1024;

export function validateConditions(
  conditions: readonly Condition[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((condition, i) => {
    const p = path.index(i);
    if (seen.has(condition.type)) errs.push(duplicate(p.child("type"), condition.type));
    seen.add(condition.type);
    errs.push(...validateCondition(condition, p));
  });
  return errs;
}

export function validateCondition(condition: Condition, path: FieldPath): FieldErrorList {
  const errs = validateLabelName(condition.type ?? "", path.child("type"));
  if (!["True", "False", "Unknown"].includes(condition.status)) {
    errs.push(
      notSupported(path.child("status"), condition.status ?? "", ["False", "True", "Unknown"]),
    );
  }
  if (condition.observedGeneration !== undefined && condition.observedGeneration < 0) {
    errs.push(
      invalid(
        path.child("observedGeneration"),
        condition.observedGeneration,
        "must be greater than or equal to zero",
      ),
    );
  }
  if ((condition.lastTransitionTime ?? "") === "") {
    errs.push(required(path.child("lastTransitionTime"), "must be set"));
  }
  const reason = condition.reason ?? "";
  if (reason === "") {
    errs.push(required(path.child("reason"), "must be set"));
  } else {
    if (!reasonRe.test(reason)) {
      errs.push(
        invalid(
          path.child("reason"),
          reason,
          regexError(
            reasonErrMsg,
            reasonFmt,
            "my_name",
            "MY_NAME",
            "MyName",
            "ReasonA,ReasonB",
            "ReasonA:ReasonB",
          ),
        ),
      );
    }
    if (reason.length > maxReasonLength) errs.push(tooLong(path.child("reason"), maxReasonLength));
  }
  if ((condition.message ?? "").length > maxMessageLength) {
    errs.push(tooLong(path.child("message"), maxMessageLength));
  }
  return errs;
}
