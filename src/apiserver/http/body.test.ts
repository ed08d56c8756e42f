import assert from "node:assert/strict";
import { test } from "node:test";
import type { ApiError } from "../../api/index.ts";
import { checkObjectMediaType, maxNestingDepth, parseJson, parseYamlBody } from "./body.ts";

function outcome(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (error: unknown) {
    const apiError = error as ApiError;
    return `${apiError.code} ${apiError.message}`;
  }
}

const nested = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;

const cases = [
  {
    name: "parseJson accepts nesting up to the limit",
    run: () => parseJson(nested(maxNestingDepth)),
    want: "ok",
  },
  {
    name: "parseJson rejects nesting past the limit",
    run: () => parseJson(nested(maxNestingDepth + 1)),
    want: "400 the body of the request could not be decoded as JSON: exceeded max depth 1000",
  },
  {
    name: "parseJson rejects a million levels without exhausting the stack",
    run: () => parseJson(nested(1_000_000)),
    want: "400 the body of the request could not be decoded as JSON: exceeded max depth 1000",
  },
  {
    name: "parseYamlBody accepts deep nesting within the limit",
    run: () => parseYamlBody(`a: ${nested(600)}`),
    want: "ok",
  },
  {
    name: "checkObjectMediaType accepts JSON with parameters",
    run: () => checkObjectMediaType("application/json; charset=utf-8"),
    want: "ok",
  },
  {
    name: "checkObjectMediaType rejects text/plain with upstream's 415",
    run: () => checkObjectMediaType("text/plain"),
    want: "415 the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
  },
] as const;

for (const c of cases) {
  test(`Body: ${c.name}`, () => assert.equal(outcome(c.run), c.want));
}

test("Body: parseYamlBody answers 400 for YAML nested too deep for its parser", () => {
  assert.match(
    outcome(() => parseYamlBody(`a: ${nested(100_000)}`)),
    /^400 the body of the request could not be decoded as YAML: /,
  );
});
