import assert from "node:assert/strict";
import { test } from "node:test";
import { base64DecodedLength, utf8ByteLength, utf8ToBase64 } from "./bytes.ts";

const samples = [
  "",
  "a",
  "key-1",
  "é",
  "€uro",
  "日本語",
  "🙂 smile",
  "a\u0000b",
  "x".repeat(70_000),
];

test("utf8ByteLength counts what Node's UTF-8 encoder writes", () => {
  for (const sample of [...samples, "lone \ud800 surrogate", "\udc00 first"]) {
    assert.equal(utf8ByteLength(sample), Buffer.byteLength(sample, "utf8"), sample.slice(0, 20));
  }
});

test("base64DecodedLength agrees with Node's decoder, padded or not", () => {
  for (const sample of samples) {
    const encoded = Buffer.from(sample, "utf8").toString("base64");
    const expected = Buffer.from(encoded, "base64").length;
    assert.equal(base64DecodedLength(encoded), expected, encoded.slice(0, 20));
    assert.equal(base64DecodedLength(encoded.replace(/=+$/, "")), expected, "unpadded");
  }
  assert.equal(base64DecodedLength("aGVs\nbG8="), 5, "whitespace is skipped");
});

test("utf8ToBase64 encodes as Go's StdEncoding of the UTF-8 bytes", () => {
  for (const sample of samples) {
    assert.equal(utf8ToBase64(sample), Buffer.from(sample, "utf8").toString("base64"));
  }
});
