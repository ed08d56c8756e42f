import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "../../errors.ts";
import {
  checkSelectableFields,
  defaultSelectableFields,
  escapeFieldValue,
  fieldRequiresExactMatch,
  fieldSelectorToString,
  matchesFields,
  parseFieldSelector,
} from "./selector.ts";

const parseCases = [
  { name: "empty selector", text: "", want: [] },
  {
    name: "single equality",
    text: "metadata.name=web",
    want: [{ field: "metadata.name", operator: "=", value: "web" }],
  },
  {
    name: "double equals is equality",
    text: "spec.nodeName==n1",
    want: [{ field: "spec.nodeName", operator: "=", value: "n1" }],
  },
  {
    name: "inequality",
    text: "status.phase!=Running",
    want: [{ field: "status.phase", operator: "!=", value: "Running" }],
  },
  {
    name: "terms sort as raw text",
    text: "z=1,a=2",
    want: [
      { field: "a", operator: "=", value: "2" },
      { field: "z", operator: "=", value: "1" },
    ],
  },
  {
    name: "escaped comma and equals stay in the value",
    text: "metadata.name=a\\,b\\=c\\\\d",
    want: [{ field: "metadata.name", operator: "=", value: "a,b=c\\d" }],
  },
  {
    name: "empty terms are skipped",
    text: ",a=1,",
    want: [{ field: "a", operator: "=", value: "1" }],
  },
  {
    name: "empty value",
    text: "spec.nodeName=",
    want: [{ field: "spec.nodeName", operator: "=", value: "" }],
  },
] as const;

for (const c of parseCases) {
  test(`parseFieldSelector: ${c.name}`, () => {
    assert.deepEqual(parseFieldSelector(c.text), c.want);
  });
}

const errorCases = [
  {
    name: "term without operator",
    text: "metadata.name",
    want: "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
  },
  {
    name: "unknown escape",
    text: "a=b\\x",
    want: "invalid field selector: invalid escape sequence: \\x",
  },
  {
    name: "trailing backslash",
    text: "a=b\\",
    want: "invalid field selector: invalid escape sequence: \\",
  },
  {
    name: "bare equals in value",
    text: "a=b=c",
    want: "invalid field selector: unescapedRune character in value: 61",
  },
] as const;

for (const c of errorCases) {
  test(`parseFieldSelector: rejects ${c.name}`, () => {
    assert.throws(
      () => parseFieldSelector(c.text),
      (error: unknown) =>
        error instanceof ApiError && error.code === 400 && error.message === c.want,
    );
  });
}

const matchCases = [
  { name: "equality holds", sel: "metadata.name=a", fields: { "metadata.name": "a" }, want: true },
  { name: "equality fails", sel: "metadata.name=a", fields: { "metadata.name": "b" }, want: false },
  { name: "absent field reads as empty", sel: "spec.nodeName=", fields: {}, want: true },
  { name: "inequality against absent field", sel: "spec.nodeName!=n1", fields: {}, want: true },
  {
    name: "all terms must hold",
    sel: "a=1,b!=2",
    fields: { a: "1", b: "2" },
    want: false,
  },
] as const;

for (const c of matchCases) {
  test(`matchesFields: ${c.name}`, () => {
    assert.equal(matchesFields(parseFieldSelector(c.sel), c.fields), c.want);
  });
}

const checkCases = [
  {
    name: "custom conversion wording",
    sel: "foo=bar",
    supported: [...defaultSelectableFields, "spec.nodeName"],
    style: "custom",
    want: "field label not supported: foo",
  },
  {
    name: "default conversion wording",
    sel: "metadata.name=x,foo=bar",
    supported: defaultSelectableFields,
    style: "default",
    want: '"foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
  },
] as const;

for (const c of checkCases) {
  test(`checkSelectableFields: ${c.name}`, () => {
    assert.throws(
      () => checkSelectableFields(parseFieldSelector(c.sel), c.supported, c.style),
      (error: unknown) =>
        error instanceof ApiError && error.code === 400 && error.message === c.want,
    );
  });
}

test("checkSelectableFields: supported fields pass", () => {
  assert.doesNotThrow(() =>
    checkSelectableFields(
      parseFieldSelector("metadata.namespace=a"),
      defaultSelectableFields,
      "default",
    ),
  );
});

test("fieldRequiresExactMatch: finds the pinned value", () => {
  const reqs = parseFieldSelector("metadata.name=x,spec.nodeName!=n");
  assert.equal(fieldRequiresExactMatch(reqs, "metadata.name"), "x");
  assert.equal(fieldRequiresExactMatch(reqs, "spec.nodeName"), undefined);
});

test("fieldSelectorToString: round-trips escapes", () => {
  const text = "a=x\\,y,b!=z";
  assert.equal(fieldSelectorToString(parseFieldSelector(text)), text);
  assert.equal(escapeFieldValue("a=b"), "a\\=b");
});
