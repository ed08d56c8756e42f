import assert from "node:assert/strict";
import { test } from "node:test";
import { ProtoReader, ProtoWriter, varintSize } from "./protobuf.ts";

const hex = (b: Buffer): string => b.toString("hex");

test("ProtoWriter.varint: the protobuf encoding of small, 32-bit and 53-bit values", () => {
  const cases: [number, string][] = [
    [0, "00"],
    [1, "01"],
    [127, "7f"],
    [128, "8001"],
    [300, "ac02"],
    [2 ** 32 - 1, "ffffffff0f"],
    [2 ** 32, "8080808010"],
    [Number.MAX_SAFE_INTEGER, "ffffffffffffff0f"],
  ];
  for (const [value, bytes] of cases) {
    const w = new ProtoWriter();
    w.varint(value);
    assert.equal(hex(w.finish()), bytes, `varint ${value}`);
    assert.equal(varintSize(value), bytes.length / 2, `varintSize ${value}`);
    const r = new ProtoReader(w.finish());
    assert.equal(r.varint(), value, `read back ${value}`);
  }
});

test("ProtoWriter.varint: refuses negative, fractional and unsafe integers", () => {
  for (const value of [-1, 1.5, 2 ** 53]) {
    assert.throws(() => new ProtoWriter().varint(value), RangeError, `varint ${value}`);
  }
});

test("ProtoWriter: proto3 defaults are not written; oneof members are", () => {
  const w = new ProtoWriter();
  w.int(1, 0);
  w.bool(2, false);
  w.bytes(3, Buffer.alloc(0));
  w.string(4, "");
  assert.equal(w.finish().length, 0, "defaults take no bytes");
  w.intAlways(5, 0);
  w.bytesAlways(7, Buffer.alloc(0));
  assert.equal(hex(w.finish()), "28003a00");
});

test("ProtoWriter.message: nested messages of every length-prefix size round-trip", () => {
  for (const size of [0, 1, 127, 128, 16_383, 16_384, 70_000]) {
    const payload = Buffer.alloc(size, 0x61);
    const w = new ProtoWriter(5, 16);
    w.int(1, 42);
    w.message(2, (m) => {
      m.bytesAlways(1, payload);
      m.message(2, (n) => n.string(1, "inner"));
    });
    w.bool(3, true);
    const r = new ProtoReader(w.finish(), 5);
    const seen: string[] = [];
    for (let field = r.next(); field !== 0; field = r.next()) {
      if (field === 1) seen.push(`1=${r.int()}`);
      else if (field === 2) {
        const m = r.message();
        for (let f = m.next(); f !== 0; f = m.next()) {
          if (f === 1) seen.push(`bytes=${m.bytes().equals(payload)}`);
          else {
            const n = m.message();
            n.next();
            seen.push(`inner=${n.string()}`);
          }
        }
      } else if (field === 3) seen.push(`3=${r.bool()}`);
    }
    assert.deepEqual(seen, ["1=42", "bytes=true", "inner=inner", "3=true"], `size ${size}`);
  }
});

test("ProtoReader.skip: unknown fields of every wire type are skipped", () => {
  // field 1 varint 150, field 2 fixed64, field 3 bytes "abc", field 4 fixed32, field 5 varint 7
  const bytes = Buffer.from(
    "089601" + "110102030405060708" + "1a03616263" + "2501020304" + "2807",
    "hex",
  );
  const r = new ProtoReader(bytes);
  const fields: number[] = [];
  let last = 0;
  for (let field = r.next(); field !== 0; field = r.next()) {
    fields.push(field);
    if (field === 5) last = r.int();
    else r.skip();
  }
  assert.deepEqual(fields, [1, 2, 3, 4, 5]);
  assert.equal(last, 7);
});

test("ProtoReader: truncated input and wrong wire types are TypeErrors, not garbage", () => {
  const truncated = new ProtoReader(Buffer.from("0a05616263", "hex"));
  truncated.next();
  assert.throws(() => truncated.bytes(), /truncated field/);
  const varint = new ProtoReader(Buffer.from("08ff", "hex"));
  varint.next();
  assert.throws(() => varint.int(), /truncated varint/);
  const wrong = new ProtoReader(Buffer.from("0801", "hex"));
  wrong.next();
  assert.throws(() => wrong.bytes(), /wire type 0 where 2 belongs/);
  assert.throws(() => new ProtoReader(Buffer.from("00", "hex")).next(), /field number 0/);
});

test("ProtoWriter.double: little-endian IEEE 754 under wire type 1, zero left out", () => {
  const w = new ProtoWriter();
  w.double(7, 0.5);
  w.double(8, 0);
  w.double(9, -1e300);
  const bytes = w.finish();
  // Field 7, wire type 1 (0x39), then 0.5 = 0x3FE0000000000000 little-endian.
  assert.equal(hex(bytes.subarray(0, 9)), "39000000000000e03f");
  const r = new ProtoReader(bytes);
  assert.equal(r.next(), 7, "field 7 first");
  assert.equal(r.double(), 0.5);
  assert.equal(r.next(), 9, "the zero of field 8 is not written");
  assert.equal(r.double(), -1e300);
  assert.equal(r.next(), 0, "nothing else");
});
