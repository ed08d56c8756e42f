import assert from "node:assert/strict";
import { test } from "node:test";
import { rfc3339, rfc3339Micro } from "./clock.ts";

test("rfc3339 writes whole seconds with a Z, for each second in turn", () => {
  const times = [
    "2024-05-01T10:00:00.000Z",
    "2024-05-01T10:00:00.999Z",
    "2024-05-01T10:00:01.000Z",
    "2024-05-01T09:59:59.500Z",
    "2024-05-01T10:00:01.250Z",
  ];
  const written = times.map((t) => rfc3339(new Date(t)));
  assert.deepEqual(
    written,
    [
      "2024-05-01T10:00:00Z",
      "2024-05-01T10:00:00Z",
      "2024-05-01T10:00:01Z",
      "2024-05-01T09:59:59Z",
      "2024-05-01T10:00:01Z",
    ],
    "each time's own second, also when the second goes back",
  );
});

test("rfc3339 rejects an invalid date as Date#toISOString does", () => {
  assert.throws(() => rfc3339(new Date(Number.NaN)), RangeError, "no stale second for NaN");
});

test("rfc3339Micro pads milliseconds to microseconds", () => {
  assert.equal(rfc3339Micro(new Date("2024-05-01T10:00:00.123Z")), "2024-05-01T10:00:00.123000Z");
});
