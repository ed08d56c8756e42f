import assert from "node:assert/strict";
import { test } from "node:test";
import {
  computeHash,
  fnv32,
  fnv32a,
  goJson,
  hashControllerRevision,
  safeEncodeString,
} from "./hashing.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const dnsSafe = /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/;

test("safeEncodeString: maps digits onto upstream's alphabet", () => {
  // '0' is 48, 48 % 27 = 21 → "4"; '9' is 57, 57 % 27 = 3 → "f".
  assert.equal(safeEncodeString("09"), "4f");
});

test("fnv32, fnv32a: Go's FNV-1 and FNV-1a test vectors", () => {
  // Go's hash/fnv tests: "" → 0x811c9dc5 for both; "a" → 0x050c5d7e (FNV-1), 0xe40c292c (FNV-1a).
  assert.deepEqual(
    [fnv32(bytes("")), fnv32(bytes("a")), fnv32a(bytes("")), fnv32a(bytes("a"))],
    [0x811c9dc5, 0x050c5d7e, 0x811c9dc5, 0xe40c292c],
  );
});

const goJsonCases: readonly { name: string; value: unknown; want: string }[] = [
  {
    name: "sorts keys at every depth",
    value: { b: 1, a: { d: [2, { z: 0, y: 1 }], c: null } },
    want: '{"a":{"c":null,"d":[2,{"y":1,"z":0}]},"b":1}',
  },
  {
    name: "escapes HTML characters as Go does",
    value: { cmd: "a<b && c>d" },
    want: '{"cmd":"a\\u003cb \\u0026\\u0026 c\\u003ed"}',
  },
  { name: "leaves undefined members out", value: { a: undefined, b: "x" }, want: '{"b":"x"}' },
  { name: "writes scalars", value: [true, 1.5, "s", null], want: '[true,1.5,"s",null]' },
];

for (const c of goJsonCases) {
  test(`goJson: ${c.name}`, () => {
    assert.equal(goJson(c.value), c.want);
  });
}

test("computeHash: equal templates hash alike whatever the key order", () => {
  const a = { metadata: { labels: { a: "1", b: "2" } }, spec: { containers: [] } };
  const b = { spec: { containers: [] }, metadata: { labels: { b: "2", a: "1" } } };
  assert.equal(computeHash(a, undefined), computeHash(b, undefined));
});

test("computeHash: the template and the collision count change the hash", () => {
  const template = { spec: { containers: [{ name: "c", image: "nginx:1" }] } };
  const other = { spec: { containers: [{ name: "c", image: "nginx:2" }] } };
  const hashes = [
    computeHash(template, undefined),
    computeHash(other, undefined),
    computeHash(template, 1),
  ];
  assert.deepEqual(
    { distinct: new Set(hashes).size, safe: hashes.every((h) => dnsSafe.test(h)) },
    { distinct: 3, safe: true },
  );
});

test("hashControllerRevision: FNV-1 over the data, then the probe in decimal", () => {
  const data = '{"spec":{"template":{"$patch":"replace"}}}';
  assert.deepEqual(
    {
      probeIsDecimalSuffix:
        hashControllerRevision(data, 12) === hashControllerRevision(`${data}12`, undefined),
      safe: dnsSafe.test(hashControllerRevision(data, 0)),
      probeChangesHash: hashControllerRevision(data, 0) !== hashControllerRevision(data, undefined),
      value: hashControllerRevision("", undefined),
    },
    // "" hashes to the offset basis 2166136261, safe-encoded digit by digit.
    {
      probeIsDecimalSuffix: true,
      safe: true,
      probeChangesHash: true,
      value: safeEncodeString("2166136261"),
    },
  );
});
