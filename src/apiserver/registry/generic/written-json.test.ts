import assert from "node:assert/strict";
import { test } from "node:test";
import { rememberWrittenJson, writtenJsonOf } from "./written-json.ts";

test("written texts are remembered per object, and only when there is one", () => {
  const a = {};
  const b = {};
  rememberWrittenJson(a, '{"a":1}');
  rememberWrittenJson(b, undefined);
  assert.equal(writtenJsonOf(a), '{"a":1}', "remembered");
  assert.equal(writtenJsonOf(b), undefined, "nothing to remember");
  assert.equal(writtenJsonOf({}), undefined, "another object");
});
