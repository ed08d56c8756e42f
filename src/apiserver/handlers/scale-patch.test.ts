import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";
import {
  goValueText,
  jsonPatchedText,
  mergePatchedText,
  patchScale,
  type ScalePatchInput,
} from "./scale-patch.ts";

/** A Scale in the field order upstream encodes it (metadata unsorted on purpose). */
const before: JsonObject = {
  kind: "Scale",
  apiVersion: "autoscaling/v1",
  metadata: { name: "web", namespace: "default", resourceVersion: "7" },
  spec: { replicas: 1 },
  status: { replicas: 1, selector: "app=web" },
};

const mergeCases: readonly { name: string; patch: JsonObject; want: string }[] = [
  {
    name: "the top level comes out sorted, untouched members as they were",
    patch: { spec: "x" },
    want: '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","namespace":"default","resourceVersion":"7"},"spec":"x","status":{"replicas":1,"selector":"app=web"}}',
  },
  {
    name: "an object merged into an object is sorted, null members delete",
    patch: { metadata: { resourceVersion: null, labels: { b: "2", a: "1" } } },
    want: '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"labels":{"a":"1","b":"2"},"name":"web","namespace":"default"},"spec":{"replicas":1},"status":{"replicas":1,"selector":"app=web"}}',
  },
  {
    name: "a new object loses its null members at every depth",
    patch: { extra: { z: { y: null, x: 1 }, a: null } },
    want: '{"apiVersion":"autoscaling/v1","extra":{"z":{"x":1}},"kind":"Scale","metadata":{"name":"web","namespace":"default","resourceVersion":"7"},"spec":{"replicas":1},"status":{"replicas":1,"selector":"app=web"}}',
  },
  {
    name: "a list that replaces an object stays as sent, nulls and key order included",
    patch: { spec: [{ b: 1, a: null }] },
    want: '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","namespace":"default","resourceVersion":"7"},"spec":[{"b":1,"a":null}],"status":{"replicas":1,"selector":"app=web"}}',
  },
  {
    name: "strings are escaped as Go escapes them",
    patch: { spec: { replicas: "<&>" } },
    want: '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","namespace":"default","resourceVersion":"7"},"spec":{"replicas":"\\u003c\\u0026\\u003e"},"status":{"replicas":1,"selector":"app=web"}}',
  },
];

for (const c of mergeCases) {
  test(`mergePatchedText: ${c.name}`, () => {
    assert.equal(mergePatchedText(before, c.patch), c.want);
  });
}

test("jsonPatchedText: the containers an operation walks through come out sorted, the rest as they were", () => {
  const result: JsonObject = {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: { name: "web", namespace: "default", labels: { b: "2", a: "1" } },
    spec: { replicas: 1 },
  };
  const patch = [{ op: "add", path: "/metadata/labels/a", value: "1" }];
  assert.equal(
    jsonPatchedText(result, patch),
    '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"labels":{"a":"1","b":"2"},"name":"web","namespace":"default"},"spec":{"replicas":1}}',
  );
});

test("goValueText: prints a decoded patch as Go's %+v prints a map", () => {
  assert.equal(
    goValueText({ spec: { replicas: "x", list: [1, true, null] }, a: 1.5 }),
    "map[a:1.5 spec:map[list:[1 true <nil>] replicas:x]]",
  );
});

/** The error a patch of `before` fails with, as status code, message and cause fields. */
function failure(input: Partial<ScalePatchInput>): [number, string, (string | undefined)[]] {
  try {
    patchScale({
      before,
      patch: {},
      patchType: "merge",
      validation: "Warn",
      warnings: [],
      ...input,
    });
  } catch (error: unknown) {
    if (!(error instanceof ApiError)) throw error;
    return [error.code, error.message, (error.details?.causes ?? []).map((c) => c.field)];
  }
  return [200, "", []];
}

const failureCases: readonly {
  name: string;
  input: Partial<ScalePatchInput>;
  want: [number, string, (string | undefined)[]];
}[] = [
  {
    name: "a value of the wrong type is 422 at field patch, showing the patched document",
    input: { patch: { spec: { replicas: true } } },
    want: [
      422,
      ' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"autoscaling/v1\\",\\"kind\\":\\"Scale\\",\\"metadata\\":{\\"name\\":\\"web\\",\\"namespace\\":\\"default\\",\\"resourceVersion\\":\\"7\\"},\\"spec\\":{\\"replicas\\":true},\\"status\\":{\\"replicas\\":1,\\"selector\\":\\"app=web\\"}}": json: cannot unmarshal bool into Go struct field ScaleSpec.spec.replicas of type int32',
      ["patch"],
    ],
  },
  {
    name: "an apiVersion that is not a string fails where the serializer reads the kind",
    input: { patch: [{ op: "replace", path: "/apiVersion", value: 1 }], patchType: "json" },
    want: [
      422,
      ' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":1,\\"kind\\":\\"Scale\\",\\"metadata\\":{\\"name\\":\\"web\\",\\"namespace\\":\\"default\\",\\"resourceVersion\\":\\"7\\"},\\"spec\\":{\\"replicas\\":1},\\"status\\":{\\"replicas\\":1,\\"selector\\":\\"app=web\\"}}": couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string',
      ["patch"],
    ],
  },
  {
    name: "another kind is 400 as in the main handlers",
    input: { patch: { kind: "Pod" } },
    want: [400, "the kind in the data (Pod) does not match the expected kind (Scale)", []],
  },
  {
    name: "an unknown field under Strict is 422 with the strict decoding error",
    input: { patch: { spec: { bogus: 1 } }, validation: "Strict", patchType: "strategic" },
    want: [
      422,
      ' "" is invalid: patch: Invalid value: "map[spec:map[bogus:1]]": strict decoding error: unknown field "spec.bogus"',
      ["patch"],
    ],
  },
  {
    name: "a patch that does not apply fails as the patch functions answer",
    input: { patch: [{ op: "remove", path: "/no/such" }], patchType: "json" },
    want: [
      422,
      'remove operation does not apply: doc is missing path: "/no/such": missing value',
      [],
    ],
  },
];

for (const c of failureCases) {
  test(`patchScale: ${c.name}`, () => {
    assert.deepEqual(failure(c.input), c.want);
  });
}

test("patchScale: returns the decoded Scale, with unknown fields dropped and warned about under Warn", () => {
  const warnings: string[] = [];
  const next = patchScale({
    before,
    patch: { spec: { replicas: 3, bogus: 1 }, status: null },
    patchType: "merge",
    validation: "Warn",
    warnings,
  });
  assert.deepEqual(
    { spec: next["spec"], status: next["status"], warnings },
    { spec: { replicas: 3 }, status: undefined, warnings: ['unknown field "spec.bogus"'] },
  );
});
