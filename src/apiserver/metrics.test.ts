import assert from "node:assert/strict";
import { test } from "node:test";
import { reportedVerb } from "./metrics.ts";

const cases: readonly [string, string, string | undefined, string][] = [
  ["create", "", "application/json", "POST"],
  ["create", "eviction", "application/json", "POST"],
  ["update", "status", "application/json", "PUT"],
  ["patch", "", "application/merge-patch+json", "PATCH"],
  ["patch", "", "application/apply-patch+yaml", "APPLY"],
  ["patch", "", "application/apply-patch+yaml; charset=utf-8", "APPLY"],
  ["get", "", undefined, "GET"],
  ["list", "", undefined, "LIST"],
  ["watch", "", undefined, "WATCH"],
  ["delete", "", undefined, "DELETE"],
  ["deletecollection", "", undefined, "DELETECOLLECTION"],
  ["get", "proxy", undefined, "CONNECT"],
  ["get", "log", undefined, "CONNECT"],
  ["create", "exec", undefined, "CONNECT"],
];

for (const [verb, subresource, contentType, want] of cases) {
  test(`reportedVerb: ${verb}${subresource === "" ? "" : ` ${subresource}`}${contentType === undefined ? "" : ` (${contentType})`} is ${want}, as upstream's CleanVerb`, () => {
    assert.equal(reportedVerb(verb, subresource, contentType), want);
  });
}
