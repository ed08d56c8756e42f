import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "../../errors.ts";
import type { LabelSelector } from "../types.ts";
import {
  everything,
  formatLabelSelector,
  isEverything,
  isNothing,
  matches,
  nothing,
  parseLabelSelector,
  requiresExactMatch,
  selectorFromLabelSelector,
  selectorFromSet,
  selectorToString,
} from "./selector.ts";

const parseCases = [
  { name: "empty string selects everything", text: "", want: "" },
  { name: "whitespace only selects everything", text: "  \t ", want: "" },
  { name: "equality", text: "app=web", want: "app=web" },
  { name: "double equals keeps its spelling", text: "app==web", want: "app==web" },
  { name: "inequality", text: "app!=web", want: "app!=web" },
  { name: "requirements sort by key", text: "z=1,a=2", want: "a=2,z=1" },
  { name: "set values sort and de-duplicate", text: "t in (c,a,b,a)", want: "t in (a,b,c)" },
  { name: "notin", text: "t notin (x)", want: "t notin (x)" },
  { name: "exists", text: "gpu", want: "gpu" },
  { name: "does not exist", text: "!gpu", want: "!gpu" },
  {
    name: "whitespace around operators",
    text: " app = web , tier in ( a , b ) ",
    want: "app=web,tier in (a,b)",
  },
  { name: "empty exact value", text: "app=", want: "app=" },
  { name: "empty set () is one empty value", text: "x in ()", want: "x in ()" },
  { name: "(,b) holds the empty value", text: "x in (,b)", want: "x in (,b)" },
  {
    name: "in and notin are identifiers as values",
    text: "x in (in,notin)",
    want: "x in (in,notin)",
  },
  { name: "prefixed key", text: "example.com/role=db", want: "example.com/role=db" },
  { name: "greater than", text: "n>3", want: "n>3" },
  { name: "less than", text: "n<3", want: "n<3" },
] as const;

for (const c of parseCases) {
  test(`parseLabelSelector: ${c.name}`, () => {
    assert.equal(selectorToString(parseLabelSelector(c.text)), c.want);
  });
}

const qualifiedNameError =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const errorCases = [
  {
    name: "missing operator after key",
    text: "app web",
    want: "unable to parse requirement: found 'web', expected: in, notin, =, ==, !=, gt, lt",
  },
  {
    name: "trailing comma",
    text: "app=web,",
    want: "found '', expected: identifier after ','",
  },
  {
    name: "leading comma",
    text: ",app",
    want: "found ',', expected: !, identifier, or 'end of string'",
  },
  {
    name: "set without parenthesis",
    text: "app in web",
    want: "unable to parse requirement: found 'web' expected: '('",
  },
  {
    name: "unclosed set",
    text: "app in (a",
    want: "unable to parse requirement: found '', expected: ',' or ')'",
  },
  {
    name: "invalid key",
    text: "a:b=c",
    want: `unable to parse requirement: <nil>: Invalid value: "a:b": ${qualifiedNameError}`,
  },
  {
    name: "invalid value",
    text: "app=a b",
    want: "found 'b', expected: ',' or 'end of string'",
  },
  {
    name: "value with forbidden character",
    text: "app=-web",
    want: "unable to parse requirement: values[0][app]: Invalid value: \"-web\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  },
  {
    name: "non-integer gt",
    text: "n>x",
    want: "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer",
  },
  {
    name: "bang before operator",
    text: "!app=web",
    want: "found '=', expected: ',' or 'end of string'",
  },
] as const;

for (const c of errorCases) {
  test(`parseLabelSelector: rejects ${c.name} with upstream's message`, () => {
    assert.throws(
      () => parseLabelSelector(c.text),
      (error: unknown) =>
        error instanceof ApiError &&
        error.code === 400 &&
        error.reason === "BadRequest" &&
        error.message === c.want,
    );
  });
}

const matchCases = [
  { name: "equality matches", sel: "app=web", labels: { app: "web" }, want: true },
  { name: "equality misses other value", sel: "app=web", labels: { app: "db" }, want: false },
  { name: "equality misses absent key", sel: "app=web", labels: {}, want: false },
  { name: "inequality matches absent key", sel: "app!=web", labels: undefined, want: true },
  { name: "notin matches absent key", sel: "t notin (a,b)", labels: { x: "1" }, want: true },
  { name: "notin rejects listed value", sel: "t notin (a,b)", labels: { t: "b" }, want: false },
  { name: "in matches listed value", sel: "t in (a,b,c)", labels: { t: "c" }, want: true },
  { name: "exists needs the key", sel: "gpu", labels: { gpu: "" }, want: true },
  { name: "does not exist rejects key", sel: "!gpu", labels: { gpu: "" }, want: false },
  { name: "all requirements must hold", sel: "a=1,b=2", labels: { a: "1", b: "3" }, want: false },
  { name: "gt compares integers", sel: "n>3", labels: { n: "10" }, want: true },
  { name: "gt rejects non-integer label", sel: "n>3", labels: { n: "x" }, want: false },
  { name: "lt compares integers", sel: "n<3", labels: { n: "-1" }, want: true },
  { name: "inherited keys are not labels", sel: "toString", labels: {}, want: false },
] as const;

for (const c of matchCases) {
  test(`matches: ${c.name}`, () => {
    assert.equal(matches(parseLabelSelector(c.sel), c.labels), c.want);
  });
}

interface ObjectCase {
  name: string;
  sel: LabelSelector | null | undefined;
  labels: Record<string, string>;
  want: boolean;
  text: string;
}

const objectCases: ObjectCase[] = [
  { name: "null selects nothing", sel: null, labels: {}, want: false, text: "" },
  { name: "undefined selects nothing", sel: undefined, labels: { a: "b" }, want: false, text: "" },
  { name: "empty selects everything", sel: {}, labels: {}, want: true, text: "" },
  {
    name: "matchLabels and expressions combine, sorted by key",
    sel: {
      matchLabels: { tier: "web", app: "shop" },
      matchExpressions: [{ key: "env", operator: "In", values: ["prod", "dev"] }],
    },
    labels: { app: "shop", tier: "web", env: "dev" },
    want: true,
    text: "app=shop,env in (dev,prod),tier=web",
  },
  {
    name: "DoesNotExist",
    sel: { matchExpressions: [{ key: "spot", operator: "DoesNotExist" }] },
    labels: { spot: "true" },
    want: false,
    text: "!spot",
  },
];

for (const c of objectCases) {
  test(`selectorFromLabelSelector: ${c.name}`, () => {
    const expr = selectorFromLabelSelector(c.sel);
    assert.equal(matches(expr, c.labels), c.want);
    assert.equal(selectorToString(expr), c.text);
  });
}

test("selectorFromLabelSelector: unknown operator is a 400", () => {
  assert.throws(
    () =>
      selectorFromLabelSelector({
        matchExpressions: [{ key: "a", operator: "Gt" as unknown as "In", values: ["1"] }],
      }),
    (error: unknown) =>
      error instanceof ApiError && error.message === '"Gt" is not a valid label selector operator',
  );
});

test("selectorFromLabelSelector: In with no values is a 400 with upstream's field error", () => {
  assert.throws(
    () => selectorFromLabelSelector({ matchExpressions: [{ key: "a", operator: "In" }] }),
    (error: unknown) =>
      error instanceof ApiError &&
      error.message ===
        "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
  );
});

test("everything/nothing: flags and matching", () => {
  assert.equal(isEverything(everything()), true);
  assert.equal(isNothing(nothing()), true);
  assert.equal(matches(everything(), undefined), true);
  assert.equal(matches(nothing(), {}), false);
  assert.equal(isEverything(parseLabelSelector("a")), false);
});

test("selectorFromSet: exact match on every pair", () => {
  const expr = selectorFromSet({ b: "2", a: "1" });
  assert.equal(selectorToString(expr), "a=1,b=2");
  assert.equal(matches(expr, { a: "1", b: "2", c: "3" }), true);
  assert.equal(matches(expr, { a: "1" }), false);
});

test("requiresExactMatch: pinned values only", () => {
  const expr = parseLabelSelector("a=1,b in (x),c in (x,y),d!=1");
  assert.deepEqual(
    ["a", "b", "c", "d", "e"].map((k) => requiresExactMatch(expr, k)),
    ["1", "x", undefined, undefined, undefined],
  );
});

test("formatLabelSelector: <none> for empty, <error> for invalid", () => {
  assert.equal(formatLabelSelector({}), "<none>");
  assert.equal(formatLabelSelector(null), "<none>");
  assert.equal(formatLabelSelector({ matchLabels: { app: "web" } }), "app=web");
  assert.equal(formatLabelSelector({ matchLabels: { "bad key": "x" } }), "<error>");
});
