import { ApiError, badRequest } from "../../errors.ts";
import type { LabelSelector } from "../types.ts";
import { parseRequirements } from "./parser.ts";
import {
  compileRequirement,
  type LabelRequirement,
  type Labels,
  type LabelTest,
  newRequirement,
  requirementString,
} from "./requirement.ts";

/**
 * A parsed, compiled label selector. `kind: "nothing"` matches no object (upstream's
 * `labels.Nothing()`, what a null `LabelSelector` means); `kind: "requirements"` matches when every
 * requirement holds, so an empty list matches everything.
 */
export type LabelSelectorExpr =
  | { readonly kind: "nothing"; readonly test: LabelTest }
  | {
      readonly kind: "requirements";
      /** Sorted by key; the order `toString` prints. */
      readonly requirements: readonly LabelRequirement[];
      readonly test: LabelTest;
    };

const matchNone: LabelTest = () => false;
const matchAll: LabelTest = () => true;

/** Compiles requirements into one predicate; callers keep them sorted by key. */
function compile(requirements: readonly LabelRequirement[]): LabelSelectorExpr {
  const tests = requirements.map(compileRequirement);
  let test: LabelTest;
  if (tests.length === 0) {
    test = matchAll;
  } else if (tests.length === 1) {
    test = tests[0] ?? matchAll;
  } else {
    test = (labels) => {
      for (const t of tests) if (!t(labels)) return false;
      return true;
    };
  }
  return Object.freeze({
    kind: "requirements",
    requirements: Object.freeze([...requirements]),
    test,
  });
}

/** The selector that matches every object (an empty selector). */
export function everything(): LabelSelectorExpr {
  return compile([]);
}

/** The selector that matches no object (a null `LabelSelector`). */
export function nothing(): LabelSelectorExpr {
  return Object.freeze({ kind: "nothing", test: matchNone });
}

/** True when the selector places no restriction (`labels.Selector.Empty()`). */
export function isEverything(expr: LabelSelectorExpr): boolean {
  return expr.kind === "requirements" && expr.requirements.length === 0;
}

/** True only for the `nothing()` selector. */
export function isNothing(expr: LabelSelectorExpr): boolean {
  return expr.kind === "nothing";
}

/**
 * Parses the `labelSelector` query string (`k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`,
 * `k`, `!k`, `k>1`, `k<1`, joined by commas). Throws ApiError 400 BadRequest with upstream's
 * message, e.g. `unable to parse requirement: found '', expected: in, notin, =, ==, !=, gt, lt`.
 */
export function parseLabelSelector(text: string): LabelSelectorExpr {
  return compile(parseRequirements(text));
}

function byKey(requirements: LabelRequirement[]): LabelRequirement[] {
  return requirements
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r.key < b.r.key ? -1 : a.r.key > b.r.key ? 1 : a.i - b.i))
    .map(({ r }) => r);
}

const objectOperators: Readonly<Record<string, "in" | "notin" | "exists" | "!">> = {
  In: "in",
  NotIn: "notin",
  Exists: "exists",
  DoesNotExist: "!",
};

/**
 * Converts an object-form selector (`matchLabels` + `matchExpressions`) as
 * `metav1.LabelSelectorAsSelector` does: `null`/`undefined` selects nothing, `{}` everything.
 * Throws ApiError 400 for an unknown operator or an invalid key or value.
 */
export function selectorFromLabelSelector(
  selector: Readonly<LabelSelector> | null | undefined,
): LabelSelectorExpr {
  if (selector === null || selector === undefined) return nothing();
  const matchLabels = selector.matchLabels ?? {};
  const expressions = selector.matchExpressions ?? [];
  const requirements: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(matchLabels)) {
    const { requirement, error } = newRequirement(key, "=", [value]);
    if (error !== "") throw badRequest(error);
    requirements.push(requirement);
  }
  for (const expr of expressions) {
    const operator = objectOperators[expr.operator];
    if (operator === undefined) {
      throw badRequest(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
    }
    const { requirement, error } = newRequirement(expr.key, operator, expr.values ?? []);
    if (error !== "") throw badRequest(error);
    requirements.push(requirement);
  }
  return compile(byKey(requirements));
}

/** A selector matching exactly the given labels (`labels.SelectorFromSet`), unvalidated. */
export function selectorFromSet(
  set: Readonly<Record<string, string>> | undefined,
): LabelSelectorExpr {
  const requirements = Object.entries(set ?? {}).map(
    ([key, value]): LabelRequirement => ({ key, operator: "=", values: [value] }),
  );
  return compile(byKey(requirements));
}

/** Whether the labels satisfy the selector. */
export function matches(expr: LabelSelectorExpr, labels: Labels): boolean {
  return expr.test(labels);
}

/**
 * Upstream's canonical text: requirements sorted by key, joined with `,`, multi-values sorted
 * (`app=web,tier in (a,b)`). `nothing()` and `everything()` both print `""`. This is the
 * Scale subresource's `status.selector`.
 */
export function selectorToString(expr: LabelSelectorExpr): string {
  if (expr.kind === "nothing") return "";
  return expr.requirements.map(requirementString).join(",");
}

/** The value for a `key` the selector pins to exactly one value (`RequiresExactMatch`). */
export function requiresExactMatch(expr: LabelSelectorExpr, key: string): string | undefined {
  if (expr.kind === "nothing") return undefined;
  const r = expr.requirements.find((x) => x.key === key);
  if (r === undefined) return undefined;
  const exact = r.operator === "=" || r.operator === "==" || r.operator === "in";
  return exact && r.values.length === 1 ? r.values[0] : undefined;
}

/**
 * `metav1.FormatLabelSelector`: the canonical string, `<none>` when it is empty, `<error>` when
 * the selector cannot be converted. Used by `kubectl get -o wide` SELECTOR columns.
 */
export function formatLabelSelector(selector: Readonly<LabelSelector> | null | undefined): string {
  let text: string;
  try {
    text = selectorToString(selectorFromLabelSelector(selector));
  } catch (error: unknown) {
    if (error instanceof ApiError) return "<error>";
    throw error;
  }
  return text === "" ? "<none>" : text;
}
