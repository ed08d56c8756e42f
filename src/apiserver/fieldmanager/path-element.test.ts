import assert from "node:assert/strict";
import { test } from "node:test";
import {
  comparePathElements,
  deserializePathElement,
  field,
  formatPath,
  goJson,
  goQuote,
  index,
  key,
  type PathElement,
  serializePathElement,
  value,
} from "./path-element.ts";

const serializeCases = [
  { name: "a field is f:<name>", pe: field("image"), want: "f:image" },
  {
    name: "a field name is written raw",
    pe: field("app.kubernetes.io/name"),
    want: "f:app.kubernetes.io/name",
  },
  { name: "a key is k:<json>", pe: key({ name: "nginx" }), want: 'k:{"name":"nginx"}' },
  {
    name: "key fields are sorted by name",
    pe: key({ protocol: "TCP", containerPort: 80 }),
    want: 'k:{"containerPort":80,"protocol":"TCP"}',
  },
  {
    name: "a set item is v:<json>",
    pe: value("example.com/finalizer"),
    want: 'v:"example.com/finalizer"',
  },
  { name: "a numeric set item", pe: value(8080), want: "v:8080" },
  { name: "an index is i:<n>", pe: index(3), want: "i:3" },
  {
    name: "HTML characters are escaped as Go does",
    pe: value("a<b>&c"),
    want: 'v:"a\\u003cb\\u003e\\u0026c"',
  },
] as const;

for (const c of serializeCases) {
  test(`serializePathElement: ${c.name}`, () => {
    assert.equal(serializePathElement(c.pe), c.want);
    const back = deserializePathElement(c.want);
    assert.ok(back !== undefined, "back !== undefined");
    assert.equal(comparePathElements(back, c.pe), 0);
  });
}

const deserializeErrors = [
  { name: "too short", text: "f", want: /2 characters/ },
  { name: "no colon", text: "fx", want: /missing colon/ },
  { name: "bad key JSON", text: "k:{nope", want: SyntaxError },
  { name: "bad index", text: "i:x", want: /invalid syntax/ },
] as const;

for (const c of deserializeErrors) {
  test(`deserializePathElement: rejects ${c.name}`, () => {
    assert.throws(() => deserializePathElement(c.text), c.want);
  });
}

test("deserializePathElement: an unknown element type is skipped, not an error", () => {
  assert.equal(deserializePathElement("z:whatever"), undefined);
});

const formatCases = [
  {
    name: "fields and keys as upstream prints them",
    path: [field("spec"), field("containers"), key({ name: "nginx" }), field("image")],
    want: '.spec.containers[name="nginx"].image',
  },
  {
    name: "several key fields joined by commas",
    path: [field("ports"), key({ containerPort: 80, protocol: "TCP" })],
    want: '.ports[containerPort=80,protocol="TCP"]',
  },
  {
    name: "set values",
    path: [field("metadata"), field("finalizers"), value("a")],
    want: '.metadata.finalizers[="a"]',
  },
  { name: "indexes", path: [field("args"), index(0)], want: ".args[0]" },
] satisfies readonly { name: string; path: PathElement[]; want: string }[];

for (const c of formatCases) {
  test(`formatPath: ${c.name}`, () => {
    assert.equal(formatPath(c.path), c.want);
  });
}

const orderCases = [
  { name: "fields sort before keys", a: field("z"), b: key({ a: "a" }), want: -1 },
  { name: "keys sort before values", a: key({ a: "a" }), b: value("a"), want: -1 },
  { name: "values sort before indexes", a: value(1), b: index(0), want: -1 },
  { name: "field names sort bytewise", a: field("B"), b: field("a"), want: -1 },
  { name: "numbers sort before strings", a: value(10), b: value("1"), want: -1 },
  { name: "strings sort before booleans", a: value("z"), b: value(false), want: -1 },
  { name: "equal keys compare equal", a: key({ name: "x" }), b: key({ name: "x" }), want: 0 },
] as const;

for (const c of orderCases) {
  test(`comparePathElements: ${c.name}`, () => {
    assert.equal(Math.sign(comparePathElements(c.a, c.b)), c.want);
    assert.equal(Math.sign(comparePathElements(c.b, c.a)) + c.want, 0);
  });
}

const quoteCases = [
  { name: "plain text", s: "nginx", want: '"nginx"' },
  { name: "quotes and backslashes", s: 'a"b\\c', want: '"a\\"b\\\\c"' },
  { name: "newline and control characters", s: "a\nb\u0001", want: '"a\\nb\\x01"' },
  { name: "printable unicode kept", s: "café", want: '"café"' },
] as const;

for (const c of quoteCases) {
  test(`goQuote: ${c.name}`, () => {
    assert.equal(goQuote(c.s), c.want);
  });
}

test("goJson: sorts object keys as Go's encoder does", () => {
  assert.equal(goJson({ b: 1, a: [true, null] }), '{"a":[true,null],"b":1}');
});
