import assert from "node:assert/strict";
import { test } from "node:test";
import { malformedPatch, patchDoesNotApply, patchFailed } from "./errors.ts";

const cases = [
  { make: malformedPatch, code: 400, reason: "BadRequest", details: undefined },
  { make: patchDoesNotApply, code: 422, reason: "Invalid", details: {} },
  { make: patchFailed, code: 500, reason: "InternalError", details: undefined },
] as const;

for (const c of cases) {
  test(`${c.make.name}: ${c.code} ${c.reason} carrying the message unchanged`, () => {
    const status = c.make("some text").toStatus();
    assert.equal(status.code, c.code);
    assert.equal(status.reason, c.reason);
    assert.equal(status.message, "some text");
    assert.deepEqual(status.details, c.details);
  });
}
