import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { ApiError } from "../../api/index.ts";
import { decodeProtobufObject } from "./decode.ts";
import { cat, envelope, int, msg, str } from "./testdata/encoder.ts";

const testdata = new URL("./testdata/", import.meta.url);

function fixture(name: string): Uint8Array {
  return readFileSync(new URL(name, testdata));
}

function json(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, testdata), "utf8"));
}

interface FixtureEntry {
  readonly fixture: string;
  readonly kubectl: string;
  readonly args: readonly string[];
  readonly oracle: string;
}

// Bodies recorded from real kubectl by testdata/capture.ts; each oracle is the same command's
// `--dry-run=client -o json` output (or, for `create token`, hand-written).
const fixtures = json("fixtures.json") as FixtureEntry[];

test("fixtures.json: lists captures from both kubectl 1.32 and 1.33", () => {
  const versions = new Set(fixtures.map((f) => /^v1\.\d+/.exec(f.kubectl)?.[0]));
  assert.deepEqual([...versions].sort(), ["v1.32", "v1.33"]);
});

for (const f of fixtures) {
  test(`decodeProtobufObject: kubectl ${f.kubectl} ${f.args.slice(0, 3).join(" ")} (${f.fixture}) matches its JSON`, () => {
    assert.deepEqual(decodeProtobufObject(fixture(`${f.fixture}.pb`)), json(f.oracle));
  });
}

test("decodeProtobufObject: decodes the bytes the API guide shows for `create cm pb --from-literal=a=1`", () => {
  const hex =
    "6b3873000a0f0a0276311209436f6e6669674d6170121c0a120a027062120" +
    "01a0022002a00320038004200120 60a01611201311a002200";
  const body = Uint8Array.from(Buffer.from(hex.replaceAll(" ", ""), "hex"));
  assert.deepEqual(decodeProtobufObject(body), {
    kind: "ConfigMap",
    apiVersion: "v1",
    metadata: { name: "pb", creationTimestamp: null },
    data: { a: "1" },
  });
});

test("decodeProtobufObject: prints kind and apiVersion first, like Go's TypeMeta", () => {
  const body = envelope("v1", "Namespace", msg(1, str(1, "n1")));
  assert.deepEqual(Object.keys(decodeProtobufObject(body)), [
    "kind",
    "apiVersion",
    "metadata",
    "spec",
    "status",
  ]);
});

test("decodeProtobufObject: decodes a Pod, which no kubectl command sends as protobuf", () => {
  const body = envelope(
    "v1",
    "Pod",
    cat(msg(1, str(1, "p"), str(3, "ns")), msg(2, msg(2, str(1, "c"), str(2, "nginx")))),
  );
  assert.deepEqual(decodeProtobufObject(body), {
    kind: "Pod",
    apiVersion: "v1",
    metadata: { name: "p", namespace: "ns", creationTimestamp: null },
    spec: { containers: [{ name: "c", image: "nginx", resources: {} }] },
    status: {},
  });
});

const errorCases = [
  {
    name: "a JSON body",
    body: new TextEncoder().encode('{"kind":"ConfigMap"}'),
    options: {},
    code: 400,
    message:
      "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]",
  },
  {
    name: "a JSON body, worded for the endpoint's kind",
    body: new TextEncoder().encode('{"kind":"ConfigMap"}'),
    options: { expectedKind: "ConfigMap" },
    code: 400,
    message:
      "the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (7b226b696e64223a22436f6e6669674d6170227d)",
  },
  {
    name: "an empty body",
    body: new Uint8Array(0),
    options: { expectedKind: "Secret" },
    code: 400,
    message:
      "the object provided is unrecognized (must be of type Secret): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (<empty>)",
  },
  {
    name: "a truncated envelope",
    body: Uint8Array.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x0f, 0x0a]),
    options: {},
    code: 400,
    message: "unexpected EOF",
  },
  {
    name: "an envelope without a kind",
    body: envelope("v1", "", new Uint8Array(0)),
    options: {},
    code: 400,
    message: `Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"v1", Kind:""}'`,
  },
  {
    name: "an envelope without an apiVersion",
    body: envelope("", "ConfigMap", new Uint8Array(0)),
    options: {},
    code: 400,
    message: `Object 'apiVersion' is missing in 'runtime.TypeMeta{APIVersion:"", Kind:"ConfigMap"}'`,
  },
  {
    name: "a kind the decoder does not know",
    body: envelope("storage.k8s.io/v1", "StorageClass", msg(1, str(1, "fast"))),
    options: {},
    code: 415,
    message:
      "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml",
  },
  {
    name: "an object whose message is cut short",
    body: envelope("v1", "ConfigMap", cat(Uint8Array.from([0x0a, 0x10]), str(1, "x"))),
    options: {},
    code: 400,
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF',
  },
  {
    name: "a field with the wrong wire type, in a grouped version",
    body: envelope("apps/v1", "Deployment", msg(2, str(1, "three"))),
    options: { expectedKind: "Deployment" },
    code: 400,
    message:
      'Deployment in version "v1" cannot be handled as a Deployment: proto: wrong wireType = 2 for field Replicas',
  },
  {
    name: "an invalid quantity",
    body: envelope("v1", "ResourceQuota", msg(2, msg(1, str(1, "cpu"), msg(2, str(1, "x"))))),
    options: {},
    code: 400,
    message:
      "ResourceQuota in version \"v1\" cannot be handled as a ResourceQuota: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  },
];

for (const c of errorCases) {
  test(`decodeProtobufObject: rejects ${c.name} with ${c.code}`, () => {
    assert.throws(
      () => decodeProtobufObject(c.body, c.options),
      (error: unknown) => {
        assert.ok(error instanceof ApiError, "error instanceof ApiError");
        assert.equal(error.code, c.code);
        assert.equal(error.reason, c.code === 415 ? "UnsupportedMediaType" : "BadRequest");
        assert.equal(error.message, c.message);
        return true;
      },
    );
  });
}

test("decodeProtobufObject: an integer field beyond 2^53 is a 400, not a rounded number", () => {
  const body = envelope("v1", "Namespace", msg(1, int(7, 2n ** 60n)));
  assert.throws(() => decodeProtobufObject(body), { code: 400 });
});

// Every prefix and many single-byte corruptions of a rich body either decode or fail with an
// ApiError: the decoder never crashes on hostile input.
test("decodeProtobufObject: truncated and corrupted bodies fail only with ApiError", () => {
  const body = fixture("job-from-cronjob.v1.33.pb");
  const outcomes = { decoded: 0, rejected: 0 };
  const attempt = (input: Uint8Array): void => {
    try {
      decodeProtobufObject(input);
      outcomes.decoded++;
    } catch (error: unknown) {
      assert.ok(error instanceof ApiError, `unexpected ${String(error)}`);
      assert.ok(
        error.code === 400 || error.code === 415,
        "error.code === 400 || error.code === 415",
      );
      outcomes.rejected++;
    }
  };
  for (let length = 0; length < body.length; length++) attempt(body.subarray(0, length));
  let seed = 12345;
  for (let i = 0; i < 1000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const copy = Uint8Array.from(body);
    copy[seed % copy.length] = (seed >>> 8) & 0xff;
    attempt(copy);
  }
  assert.ok(outcomes.rejected > body.length / 2, "outcomes.rejected > body.length / 2");
  assert.ok(outcomes.decoded > 0, "outcomes.decoded > 0");
});
