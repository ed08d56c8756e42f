import assert from "node:assert/strict";
import { test } from "node:test";
import type { ApiError } from "../../api/index.ts";
import {
  parseInt64,
  parseLimit,
  parseResourceVersion,
  validateListOptions,
} from "./list-options.ts";

/** `code message` of the ApiError `run` throws, or "ok". */
function outcome(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (error: unknown) {
    const apiError = error as ApiError;
    return `${apiError.code} ${apiError.message}`;
  }
}

const parses = [
  { name: "parseInt64 accepts a signed integer", run: () => parseInt64("-12"), want: "ok" },
  {
    name: "parseInt64 rejects a fraction as strconv does",
    run: () => parseInt64("1.5"),
    want: '400 strconv.ParseInt: parsing "1.5": invalid syntax',
  },
  {
    name: "parseInt64 rejects an empty value",
    run: () => parseInt64(""),
    want: '400 strconv.ParseInt: parsing "": invalid syntax',
  },
  {
    name: "parseInt64 rejects values past int64",
    run: () => parseInt64("9223372036854775808"),
    want: '400 strconv.ParseInt: parsing "9223372036854775808": value out of range',
  },
  {
    name: "parseResourceVersion rejects a non-number",
    run: () => parseResourceVersion("abc"),
    want: '400 resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
  },
  {
    name: "parseResourceVersion rejects a negative number",
    run: () => parseResourceVersion("-1"),
    want: '400 resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax',
  },
] as const;

for (const c of parses) {
  test(`ListOptions: ${c.name}`, () => assert.equal(outcome(c.run), c.want));
}

test("parseLimit: a negative limit means no limit, as upstream's storage reads it", () => {
  assert.deepEqual(
    [parseLimit("-1"), parseLimit("0"), parseLimit("500"), parseLimit(null)],
    [0, 0, 500, 0],
  );
});

test("parseResourceVersion: unset and empty are undefined, digits a revision", () => {
  assert.deepEqual(
    [parseResourceVersion(null), parseResourceVersion(""), parseResourceVersion("42")],
    [undefined, undefined, 42],
  );
});

const lists = [
  {
    name: "a list may name resourceVersionMatch with a resourceVersion",
    query: "resourceVersion=5&resourceVersionMatch=NotOlderThan",
    watch: false,
    want: "ok",
  },
  {
    name: "a list needs a resourceVersion for resourceVersionMatch",
    query: "resourceVersionMatch=Exact",
    watch: false,
    want: '422 ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
  },
  {
    name: "an unknown match lists the supported ones",
    query: "resourceVersion=5&resourceVersionMatch=Latest",
    watch: false,
    want: '422 ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Latest": supported values: "Exact", "NotOlderThan", ""',
  },
  {
    name: "Exact at 0 is forbidden",
    query: "resourceVersion=0&resourceVersionMatch=Exact",
    watch: false,
    want: '422 ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
  },
  {
    name: "sendInitialEvents is for watches",
    query: "sendInitialEvents=true",
    watch: false,
    want: '422 ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
  },
  {
    name: "a watch with sendInitialEvents needs NotOlderThan",
    query: "sendInitialEvents=true",
    watch: true,
    want: '422 ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
  },
  {
    name: "a watch-list request is valid",
    query: "sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
    watch: true,
    want: "ok",
  },
  {
    name: "several errors are listed together",
    query: "resourceVersionMatch=Bogus&continue=x",
    watch: false,
    want: '422 ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided, resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""]',
  },
] as const;

for (const c of lists) {
  test(`validateListOptions: ${c.name}`, () => {
    assert.equal(
      outcome(() => validateListOptions(new URLSearchParams(c.query), c.watch)),
      c.want,
    );
  });
}
