import assert from "node:assert/strict";
import { test } from "node:test";
import {
  fieldsV1ToJson,
  intOrStringToJson,
  quantityFormatMessage,
  quantityToJson,
  timeToJson,
} from "./special.ts";
import { bytes, cat, int, str } from "./testdata/encoder.ts";

const empty = new Uint8Array(0);

const timeCases = [
  { name: "an empty message is the zero time, printed as null", input: empty, want: null },
  {
    name: "seconds print as RFC 3339 in UTC",
    input: int(1, 1714979289),
    want: "2024-05-06T07:08:09Z",
  },
  {
    name: "nanos are dropped like upstream's Unmarshal",
    input: cat(int(1, 1714979289), int(2, 999999999)),
    want: "2024-05-06T07:08:09Z",
  },
  {
    name: "explicit zero seconds is the Unix epoch",
    input: int(1, 0),
    want: "1970-01-01T00:00:00Z",
  },
  { name: "Go's zero time prints as null", input: int(1, -62135596800), want: null },
  {
    name: "unknown fields are skipped",
    input: cat(str(9, "x"), int(1, 60)),
    want: "1970-01-01T00:01:00Z",
  },
];

for (const c of timeCases) {
  test(`timeToJson: ${c.name}`, () => {
    assert.equal(timeToJson(c.input), c.want);
  });
}

test("timeToJson: rejects a year Go's JSON encoder cannot print", () => {
  assert.throws(() => timeToJson(int(1, 253402300800)), /year outside of range/);
});

const quantityCases = [
  { name: "an empty message is zero", input: empty, want: "0" },
  { name: "millicores", input: str(1, "250m"), want: "250m" },
  { name: "binary suffixes", input: str(1, "1Gi"), want: "1Gi" },
  { name: "decimal exponents", input: str(1, "1e3"), want: "1e3" },
  { name: "signed decimals", input: str(1, "-1.5"), want: "-1.5" },
];

for (const c of quantityCases) {
  test(`quantityToJson: keeps ${c.name}`, () => {
    assert.equal(quantityToJson(c.input), c.want);
  });
}

for (const bad of ["", "abc", "1.2.3", "5Qi", "1 m"]) {
  test(`quantityToJson: rejects ${JSON.stringify(bad)} with upstream's message`, () => {
    assert.throws(() => quantityToJson(str(1, bad)), { message: quantityFormatMessage });
  });
}

const intOrStringCases = [
  { name: "an empty message is the integer 0", input: empty, want: 0 },
  { name: "type 0 prints intVal", input: cat(int(1, 0), int(2, 8080)), want: 8080 },
  { name: "a negative intVal", input: int(2, -1), want: -1 },
  { name: "type 1 prints strVal", input: cat(int(1, 1), str(3, "50%")), want: "50%" },
  { name: "type 1 with no strVal prints an empty string", input: int(1, 1), want: "" },
];

for (const c of intOrStringCases) {
  test(`intOrStringToJson: ${c.name}`, () => {
    assert.equal(intOrStringToJson(c.input), c.want);
  });
}

test("intOrStringToJson: rejects a type other than 0 or 1", () => {
  assert.throws(() => intOrStringToJson(int(1, 2)), /impossible IntOrString.Type/);
});

test("intOrStringToJson: rejects a wrong wire type with the Go field name", () => {
  assert.throws(() => intOrStringToJson(str(2, "x")), {
    message: "proto: wrong wireType = 2 for field IntVal",
  });
});

const fieldsCases = [
  {
    name: "the raw JSON document is embedded",
    input: bytes(1, new TextEncoder().encode('{"f:data":{".":{}}}')),
    want: { "f:data": { ".": {} } },
  },
  { name: "no raw bytes print null", input: empty, want: null },
];

for (const c of fieldsCases) {
  test(`fieldsV1ToJson: ${c.name}`, () => {
    assert.deepEqual(fieldsV1ToJson(c.input), c.want);
  });
}

test("fieldsV1ToJson: rejects raw bytes that are not JSON", () => {
  assert.throws(() => fieldsV1ToJson(bytes(1, Uint8Array.from([0x7b]))), /invalid JSON/);
});
