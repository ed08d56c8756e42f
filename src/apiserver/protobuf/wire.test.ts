import assert from "node:assert/strict";
import { test } from "node:test";
import { bytes, cat, int, key, str, varint } from "./testdata/encoder.ts";
import { integerOverflow, invalidLength, readPacked, unexpectedEof, WireReader } from "./wire.ts";

const int32Cases = [
  { name: "a one-byte value", input: varint(5), want: 5 },
  { name: "a two-byte value", input: varint(300), want: 300 },
  { name: "the largest int32", input: varint(2147483647), want: 2147483647 },
  { name: "a negative value sent as 10 bytes", input: varint(-10), want: -10 },
  { name: "the smallest int32", input: varint(-2147483648), want: -2147483648 },
  { name: "a value truncated to its low 32 bits like Go", input: varint(2 ** 32 + 7), want: 7 },
];

for (const c of int32Cases) {
  test(`WireReader.int32: reads ${c.name}`, () => {
    const reader = new WireReader(c.input);
    assert.equal(reader.int32(), c.want);
    assert.equal(reader.done(), true);
  });
}

const int64Cases = [
  { name: "zero", input: varint(0), want: 0 },
  { name: "a value above 2^32", input: varint(8589934592), want: 8589934592 },
  { name: "the largest safe integer", input: varint(2 ** 53 - 1), want: 2 ** 53 - 1 },
  { name: "a negative value", input: varint(-1), want: -1 },
  { name: "the smallest safe integer", input: varint(-(2 ** 53 - 1)), want: -(2 ** 53 - 1) },
];

for (const c of int64Cases) {
  test(`WireReader.int64: reads ${c.name}`, () => {
    assert.equal(new WireReader(c.input).int64(), c.want);
  });
}

test("WireReader.int64: rejects a value beyond 2^53 instead of rounding it", () => {
  assert.throws(() => new WireReader(varint(2n ** 60n)).int64(), /out of the supported range/);
});

const errorCases = [
  {
    name: "a varint longer than 10 bytes",
    input: Uint8Array.from([...new Array(10).fill(0xff), 0x01]),
    read: (r: WireReader) => r.int64(),
    want: integerOverflow,
  },
  {
    name: "a varint cut short",
    input: Uint8Array.from([0x80, 0x80]),
    read: (r: WireReader) => r.int32(),
    want: unexpectedEof,
  },
  {
    name: "a length past the end",
    input: Uint8Array.from([0x05, 0x61, 0x62]),
    read: (r: WireReader) => r.bytes(),
    want: unexpectedEof,
  },
  {
    name: "a length beyond 2^31",
    input: varint(2 ** 40),
    read: (r: WireReader) => r.bytes(),
    want: invalidLength,
  },
  {
    name: "field number zero",
    input: key(0, 2),
    read: (r: WireReader) => r.tag(),
    want: "proto: illegal tag 0 (wire type 2)",
  },
  {
    name: "an end-group key",
    input: key(1, 4),
    read: (r: WireReader) => r.tag(),
    want: "proto: wiretype end group for non-group",
  },
];

for (const c of errorCases) {
  test(`WireReader: rejects ${c.name}`, () => {
    assert.throws(() => c.read(new WireReader(c.input)), { name: "WireError", message: c.want });
  });
}

test("WireReader.tag: splits the field number and wire type", () => {
  const reader = new WireReader(cat(key(1, 2), key(40, 0), key(536870911, 5)));
  assert.deepEqual(reader.tag(), { field: 1, wireType: 2 });
  assert.deepEqual(reader.tag(), { field: 40, wireType: 0 });
  assert.deepEqual(reader.tag(), { field: 536870911, wireType: 5 });
});

test("WireReader.string: decodes UTF-8 and replaces invalid bytes with U+FFFD", () => {
  const reader = new WireReader(cat(str(1, "héllo ✓"), bytes(2, Uint8Array.from([0x61, 0xff]))));
  reader.tag();
  assert.equal(reader.string(), "héllo ✓");
  reader.tag();
  assert.equal(reader.string(), "a\ufffd");
});

test("WireReader.bool: any non-zero varint is true", () => {
  const reader = new WireReader(cat(varint(0), varint(1), varint(2 ** 35)));
  assert.deepEqual([reader.bool(), reader.bool(), reader.bool()], [false, true, true]);
});

const skipCases = [
  { name: "a varint", input: cat(int(1, 300), int(2, 7)) },
  { name: "a fixed64", input: cat(key(1, 1), new Uint8Array(8), int(2, 7)) },
  { name: "a fixed32", input: cat(key(1, 5), new Uint8Array(4), int(2, 7)) },
  { name: "a length-delimited value", input: cat(str(1, "ignored"), int(2, 7)) },
];

for (const c of skipCases) {
  test(`WireReader.skip: steps over ${c.name}`, () => {
    const reader = new WireReader(c.input);
    reader.skip(reader.tag().wireType);
    assert.deepEqual(reader.tag(), { field: 2, wireType: 0 });
    assert.equal(reader.int32(), 7);
    assert.equal(reader.done(), true);
  });
}

test("WireReader.skip: rejects a start-group wire type", () => {
  assert.throws(() => new WireReader(new Uint8Array(0)).skip(3), /illegal wireType 3/);
});

test("WireReader.skip: rejects a fixed64 cut short", () => {
  assert.throws(() => new WireReader(new Uint8Array(3)).skip(1), { message: unexpectedEof });
});

test("readPacked: reads every varint of a packed field", () => {
  const packed = cat(varint(1), varint(300), varint(-2));
  assert.deepEqual(
    readPacked(packed, (r) => r.int32()),
    [1, 300, -2],
  );
});
