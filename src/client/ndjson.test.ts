import assert from "node:assert/strict";
import { test } from "node:test";
import { splitLines } from "./ndjson.ts";

async function* chunks(
  parts: readonly (string | Uint8Array)[],
): AsyncGenerator<string | Uint8Array> {
  for (const part of parts) yield part;
}

async function lines(parts: readonly (string | Uint8Array)[]): Promise<string[]> {
  const out: string[] = [];
  for await (const line of splitLines(chunks(parts))) out.push(line);
  return out;
}

const euro = Buffer.from('{"v":"€"}\n'); // € is 3 bytes in UTF-8

const cases = [
  { name: "one line per chunk", parts: ['{"a":1}\n', '{"b":2}\n'], want: ['{"a":1}', '{"b":2}'] },
  {
    name: "several lines in one chunk",
    parts: ['{"a":1}\n{"b":2}\n'],
    want: ['{"a":1}', '{"b":2}'],
  },
  { name: "a line split over chunks", parts: ['{"a"', ":1", "}\n"], want: ['{"a":1}'] },
  {
    name: "a multi-byte character split over chunks",
    parts: [euro.subarray(0, 7), euro.subarray(7)],
    want: ['{"v":"€"}'],
  },
  { name: "blank lines and CRLF are skipped", parts: ['\r\n{"a":1}\r\n\n'], want: ['{"a":1}'] },
  {
    name: "a last line without a newline",
    parts: ['{"a":1}\n{"b"', ":2}"],
    want: ['{"a":1}', '{"b":2}'],
  },
  { name: "an empty stream", parts: [], want: [] },
] as const;

for (const c of cases) {
  test(`splitLines: ${c.name}`, async () => {
    assert.deepEqual(await lines(c.parts), c.want);
  });
}
