import assert from "node:assert/strict";
import { test } from "node:test";
import { parseGoDuration } from "./duration.ts";

const cases = [
  { text: "15s", want: 15_000 },
  { text: "1m30s", want: 90_000 },
  { text: "500ms", want: 500 },
  { text: "1.5h", want: 5_400_000 },
  { text: "2h45m", want: 9_900_000 },
  { text: "0", want: 0 },
  { text: "-2s", want: -2000 },
  { text: "+3m", want: 180_000 },
  { text: "1500us", want: 2 },
  { text: ".5s", want: 500 },
  { text: "15", want: undefined },
  { text: "", want: undefined },
  { text: "s", want: undefined },
  { text: "10 s", want: undefined },
  { text: "1d", want: undefined },
] as const;

for (const c of cases) {
  test(`parseGoDuration: "${c.text}" is ${String(c.want)}`, () => {
    assert.equal(parseGoDuration(c.text), c.want);
  });
}
