import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addQuantities,
  canonicalQuantity,
  compareQuantities,
  isWholeCores,
  type MilliCpu,
  milliValue,
  parseBytes,
  parseCpu,
  parseQuantity,
  quantityFormatError,
  quantitySuffixError,
  value,
} from "./quantity.ts";

// Canonical forms from upstream's TestQuantityParse / TestQuantityString / TestQuantityParseEmit.
const canonical = [
  ["0", "0"],
  ["0Ki", "0"],
  ["0m", "0"],
  ["1", "1"],
  ["1Ki", "1Ki"],
  ["8Ki", "8Ki"],
  ["7Mi", "7Mi"],
  ["1024Mi", "1Gi"],
  ["300Mi", "300Mi"],
  ["307200Ki", "300Mi"],
  ["1025024Mi", "1001Gi"],
  ["1024Gi", "1Ti"],
  ["3Ei", "3Ei"],
  ["1000M", "1G"],
  ["0.001T", "1G"],
  ["1000u", "1m"],
  ["1.08", "1080m"],
  ["1080000000n", "1080m"],
  ["5000m", "5"],
  ["0.5", "500m"],
  ["50k", "50k"],
  ["40T", "40T"],
  ["100.035k", "100035"],
  ["10.035M", "10035k"],
  ["1.01E", "1010P"],
  ["12E", "12E"],
  ["1000E", "1e21"],
  ["5000E", "5e21"],
  [".001e12", "1e9"],
  ["0.001e0", "1e-3"],
  ["1000e-12", "1e-9"],
  ["1e3", "1e3"],
  ["1E6", "1e6"],
  ["1.2e3", "1200"],
  ["1.3E+6", "1300e3"],
  ["00", "0"],
  [".001Ki", "1024m"],
  [".000001Ki", "1024u"],
  [".000000001Ki", "1024n"],
  [".000000000001Ki", "2n"],
  ["3.001n", "4n"],
  ["0.9n", "1n"],
  ["0.00000012345", "124n"],
  ["1.", "1"],
  ["1.G", "1G"],
  [".", "0"],
  ["-.", "0"],
  ["0.5Mi", "512Ki"],
  ["0.5Ki", "512"],
  ["1.5Ki", "1536"],
  ["1536Mi", "1536Mi"],
  ["9Ei", "9223372036854775807"],
  ["-1Gi", "-1Gi"],
  ["-9.01", "-9010m"],
  ["+100m", "100m"],
  ["250m", "250m"],
] as const;

for (const [input, want] of canonical) {
  test(`canonicalQuantity: ${JSON.stringify(input)} prints as ${JSON.stringify(want)}`, () => {
    assert.equal(canonicalQuantity(input), want);
  });
}

const invalid = [
  ["", quantityFormatError],
  ["1.1.M", quantityFormatError],
  ["1+1.0M", quantityFormatError],
  ["aoeu", quantityFormatError],
  [" 1", quantityFormatError],
  ["1 ", quantityFormatError],
  ["-", quantityFormatError],
  ["0.1mi", quantitySuffixError],
  ["0.1am", quantityFormatError],
  [".5i", quantitySuffixError],
  ["1i", quantitySuffixError],
  ["-3.01i", quantitySuffixError],
  ["-3.01e-", quantitySuffixError],
  ["1MM", quantitySuffixError],
] as const;

for (const [input, message] of invalid) {
  test(`parseQuantity: rejects ${JSON.stringify(input)}`, () => {
    assert.throws(() => parseQuantity(input), { name: "SyntaxError", message });
  });
}

const values = [
  { input: "9.01", value: 10, milli: 9010 },
  { input: "-9.01", value: -10, milli: -9010 },
  { input: "1n", value: 1, milli: 1 },
  { input: "1Ki", value: 1024, milli: 1024000 },
  { input: "100m", value: 1, milli: 100 },
  { input: "0", value: 0, milli: 0 },
] as const;

for (const c of values) {
  test(`value/milliValue: ${c.input} rounds away from zero`, () => {
    const q = parseQuantity(c.input);
    assert.equal(value(q), c.value);
    assert.equal(milliValue(q), c.milli);
  });
}

const comparisons = [
  ["0", "0", 0],
  ["100m", "50m", 1],
  ["50m", "100m", -1],
  ["10000T", "100Gi", 1],
  ["1Gi", "1024Mi", 0],
] as const;

for (const [a, b, want] of comparisons) {
  test(`compareQuantities: ${a} vs ${b} is ${want}`, () => {
    assert.equal(compareQuantities(parseQuantity(a), parseQuantity(b)), want);
  });
}

test("addQuantities: keeps the first operand's format", () => {
  assert.equal(canonicalQuantity("1Gi"), "1Gi");
  const sum = addQuantities(parseQuantity("1Gi"), parseQuantity("512Mi"));
  assert.equal(value(sum), 1536 * 1024 * 1024);
  assert.equal(sum.format, "BinarySI");
  const zeroPlus = addQuantities(parseQuantity("100m"), parseQuantity("0"));
  assert.equal(milliValue(zeroPlus), 100);
});

test("canonicalQuantity: numbers from JSON parse like strings", () => {
  assert.equal(canonicalQuantity(2), "2");
  assert.equal(canonicalQuantity(0.5), "500m");
});

test("parseCpu/parseBytes: branded integer views", () => {
  assert.equal(parseCpu("250m"), 250);
  assert.equal(parseCpu("1.5"), 1500);
  assert.equal(parseBytes("1Mi"), 1048576);
  assert.equal(isWholeCores(parseCpu("2")), true);
  assert.equal(isWholeCores(1500 as MilliCpu), false);
  assert.equal(isWholeCores(0 as MilliCpu), false);
});
