import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeMessage } from "./message.ts";
import { inline, keep, list, type MessageTable, map, ptr, val } from "./schema.ts";
import { bytes, cat, int, key, msg, str, varint } from "./testdata/encoder.ts";

// A small schema covering every field shape and JSON rule.
const table: MessageTable = {
  Thing: [
    val(1, "name", "string"),
    val(2, "required", "string", keep),
    val(3, "count", "int32"),
    val(4, "port", "int32", keep),
    val(5, "flag", "bool"),
    ptr(6, "replicas", "int32"),
    ptr(7, "nullable", "int64", keep),
    ptr(8, "enabled", "bool"),
    list(9, "args", "string"),
    list(10, "items", "Item", keep),
    list(11, "groups", "int64"),
    map(12, "labels", "string"),
    map(13, "data", "bytes"),
    map(14, "limits", "Quantity"),
    val(15, "child", "Item"),
    ptr(16, "extra", "Item"),
    val(17, "created", "Time"),
    inline(18, "Ref"),
    val(19, "blob", "bytes"),
    val(20, "target", "IntOrString"),
  ],
  Item: [val(1, "key", "string", keep), val(2, "value", "string")],
  Ref: [val(1, "ref", "string")],
};

const lookup = (name: string) => table[name];

/** What an empty Thing prints: only the fields Go never omits. */
const emptyThing = {
  required: "",
  port: 0,
  nullable: null,
  items: null,
  child: { key: "" },
  created: null,
  target: 0,
};

const cases = [
  { name: "an empty message prints only never-omitted fields", input: new Uint8Array(0), want: {} },
  {
    name: "omitempty scalars sent as zero are left out",
    input: cat(str(1, ""), int(3, 0), int(5, false), bytes(19, new Uint8Array(0))),
    want: {},
  },
  {
    name: "set scalars print",
    input: cat(str(1, "a"), int(3, -3), int(5, true), bytes(19, Uint8Array.from([1, 2, 3]))),
    want: { name: "a", count: -3, flag: true, blob: "AQID" },
  },
  {
    name: "pointers print when present, even when zero",
    input: cat(int(6, 0), int(7, 0), int(8, false), msg(16)),
    want: { replicas: 0, nullable: 0, enabled: false, extra: { key: "" } },
  },
  {
    name: "repeated strings and messages keep their order",
    input: cat(str(9, "x"), str(9, ""), msg(10, str(1, "k1")), msg(10, str(1, "k2"), str(2, "v"))),
    want: { args: ["x", ""], items: [{ key: "k1" }, { key: "k2", value: "v" }] },
  },
  {
    name: "repeated integers decode packed and unpacked",
    input: cat(bytes(11, cat(varint(1), varint(-2))), int(11, 3)),
    want: { groups: [1, -2, 3] },
  },
  {
    name: "maps print with sorted keys and typed values",
    input: cat(
      msg(12, str(1, "z"), str(2, "1")),
      msg(12, str(1, "a"), str(2, "")),
      msg(13, str(1, "bin"), bytes(2, Uint8Array.from([0xff]))),
      msg(14, str(1, "cpu"), msg(2, str(1, "500m"))),
      msg(14, str(1, "mem")),
    ),
    want: { labels: { a: "", z: "1" }, data: { bin: "/w==" }, limits: { cpu: "500m", mem: "0" } },
  },
  {
    name: "a map entry without a value gets the zero value",
    input: msg(12, str(1, "k")),
    want: { labels: { k: "" } },
  },
  {
    name: "a repeated map key keeps the last value",
    input: cat(msg(12, str(1, "k"), str(2, "1")), msg(12, str(1, "k"), str(2, "2"))),
    want: { labels: { k: "2" } },
  },
  {
    name: "a singular message seen twice is merged",
    input: cat(msg(15, str(1, "k")), msg(15, str(2, "v"))),
    want: { child: { key: "k", value: "v" } },
  },
  {
    name: "a singular scalar seen twice keeps the last value",
    input: cat(str(1, "first"), str(1, "second")),
    want: { name: "second" },
  },
  {
    name: "inline fields print in the enclosing object",
    input: msg(18, str(1, "cm1")),
    want: { ref: "cm1" },
  },
  {
    name: "special kinds convert",
    input: cat(msg(17, int(1, 0)), msg(20, int(1, 1), str(3, "http"))),
    want: { created: "1970-01-01T00:00:00Z", target: "http" },
  },
  {
    name: "unknown fields of every wire type are skipped",
    input: cat(
      int(90, 1),
      str(91, "x"),
      key(92, 1),
      new Uint8Array(8),
      key(93, 5),
      new Uint8Array(4),
      str(1, "kept"),
    ),
    want: { name: "kept" },
  },
];

for (const c of cases) {
  test(`decodeMessage: ${c.name}`, () => {
    assert.deepEqual(decodeMessage(c.input, "Thing", lookup), { ...emptyThing, ...c.want });
  });
}

test("decodeMessage: prints fields in schema order, not wire order", () => {
  const decoded = decodeMessage(cat(int(3, 1), str(1, "a")), "Thing", lookup);
  assert.deepEqual(Object.keys(decoded).slice(0, 4), ["name", "required", "count", "port"]);
});

const errorCases = [
  {
    name: "a string sent as a varint",
    input: int(1, 5),
    want: /wrong wireType = 0 for field Name/,
  },
  {
    name: "an int sent as fixed32",
    input: cat(key(3, 5), new Uint8Array(4)),
    want: /wrong wireType = 5 for field Count/,
  },
  {
    name: "a packed list for a singular int",
    input: bytes(3, varint(1)),
    want: /wrong wireType = 2 for field Count/,
  },
  {
    name: "a truncated nested message",
    input: cat(key(15, 2), varint(10), str(1, "k")),
    want: /unexpected EOF/,
  },
  {
    name: "a malformed nested message",
    input: msg(15, key(1, 2), varint(9)),
    want: /unexpected EOF/,
  },
  {
    name: "a bad quantity in a map",
    input: msg(14, str(1, "cpu"), msg(2, str(1, "lots"))),
    want: /quantities must match/,
  },
];

for (const c of errorCases) {
  test(`decodeMessage: rejects ${c.name}`, () => {
    assert.throws(() => decodeMessage(c.input, "Thing", lookup), {
      name: "WireError",
      message: c.want,
    });
  });
}

test("decodeMessage: an unknown message name is a programming error", () => {
  assert.throws(() => decodeMessage(new Uint8Array(0), "Nope", lookup), TypeError);
});
