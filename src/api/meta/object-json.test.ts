import assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonObject } from "../../util/index.ts";
import { metadataEndOf, objectJson, withResourceVersionJson } from "./object-json.ts";

const fieldsV1 = Object.freeze({
  "f:metadata": Object.freeze({ "f:labels": Object.freeze({ ".": {}, 'f:a"b': {} }) }),
  "f:spec": Object.freeze({ 'k:{"name":"web"}': Object.freeze({ ".": {} }) }),
});

const objects: Record<string, JsonObject> = {
  pod: {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "web-0",
      namespace: "default",
      uid: "u-1",
      labels: { 'a"b': "c\n", ünï: "cödé" },
      managedFields: [
        {
          manager: "kubectl",
          operation: "Update",
          apiVersion: "v1",
          time: "2024-05-01T10:00:00Z",
          fieldsType: "FieldsV1",
          fieldsV1,
        },
        { manager: "plain", operation: "Update", fieldsV1: { "f:spec": {} } },
      ],
    },
    spec: { containers: [{ name: "web", image: "nginx", args: ["-x", "\u2028"] }] },
    status: { phase: "Pending", conditions: [] },
  },
  "metadata first and empty": { metadata: {}, data: { a: "1" } },
  "no metadata": { kind: "Thing", spec: { n: 1.5, e: 1e21, neg: -0 } },
  "metadata not an object": { metadata: null, spec: {} } as unknown as JsonObject,
  "undefined members are left out as JSON.stringify leaves them": {
    apiVersion: "v1",
    gone: undefined,
    metadata: {
      name: "x",
      gone: undefined,
      managedFields: [undefined, "odd", { fieldsV1: undefined }],
    },
  } as unknown as JsonObject,
};

test("objectJson writes exactly JSON.stringify's text, and knows where metadata closes", () => {
  for (const [name, value] of Object.entries(objects)) {
    const json = objectJson(value);
    assert.equal(json.text, JSON.stringify(value), name);
    if (json.metadataEnd >= 0) {
      const meta = JSON.stringify(value["metadata"]);
      assert.equal(
        json.text.slice(json.metadataEnd - meta.length + 1, json.metadataEnd + 1),
        meta,
        `${name}: the metadata ends at metadataEnd`,
      );
    }
  }
  assert.equal(objectJson({ kind: "Thing" }).metadataEnd, -1, "no metadata, no end");
});

test("a frozen FieldsV1 is serialized once and its text reused", () => {
  const first = objectJson(objects["pod"] as JsonObject).text;
  const again = objectJson(objects["pod"] as JsonObject).text;
  assert.equal(again, first, "the same text from the remembered FieldsV1");
  assert.ok(first.includes(JSON.stringify(fieldsV1)), "the FieldsV1 text is in the object's text");
});

test("a FieldsV1 made of frozen parts, or of parts not all frozen, reads as JSON.stringify writes it", () => {
  const spec: JsonObject = Object.freeze({ ".": {}, 'k:{"name":"c"}': { "f:image": {} } });
  const metadata: JsonObject = Object.freeze({ "f:labels": { "f:app": {} } });
  const entry = (fieldsV1: JsonObject): JsonObject => ({
    kind: "Pod",
    metadata: { name: "p", managedFields: [{ manager: "m", fieldsV1 }] },
  });
  for (const fieldsV1 of [
    { "f:metadata": metadata, "f:spec": spec } as JsonObject,
    { "f:metadata": { "f:labels": { "f:app": {} } }, "f:spec": spec },
    {},
  ]) {
    const obj = entry(fieldsV1);
    assert.equal(objectJson(obj).text, JSON.stringify(obj), JSON.stringify(fieldsV1));
  }
});

test("the answer's text is the stored text with the resourceVersion last in metadata", () => {
  const pod = objects["pod"] as JsonObject;
  const json = objectJson(pod);
  const answered = {
    ...pod,
    metadata: { ...(pod["metadata"] as JsonObject), resourceVersion: "42" },
  };
  assert.equal(
    withResourceVersionJson(json, 42),
    JSON.stringify(answered),
    "as the answer serializes",
  );
  const empty = objectJson({ metadata: {}, data: {} });
  assert.equal(
    withResourceVersionJson(empty, 7),
    JSON.stringify({ metadata: { resourceVersion: "7" }, data: {} }),
    "no comma in an empty metadata",
  );
  assert.equal(withResourceVersionJson(objectJson({ kind: "X" }), 1), undefined, "no metadata");
});

test("metadataEndOf finds where metadata closes in JSON.stringify's text, as objectJson knows it", () => {
  for (const [name, value] of Object.entries(objects)) {
    const json = objectJson(value);
    assert.equal(metadataEndOf(json.text), json.metadataEnd, name);
  }
  const tricky = {
    kind: 'x "metadata":{',
    spec: { metadata: { a: "}" } },
    items: [{ metadata: {} }],
    metadata: { name: 'a\\"}', labels: { "}": "{" } },
    status: {},
  };
  const json = objectJson(tricky);
  assert.equal(
    metadataEndOf(json.text),
    json.metadataEnd,
    "strings, nested and earlier metadata keys",
  );
  assert.equal(metadataEndOf('{ "metadata": {} }'), -1, "whitespace: not JSON.stringify's text");
  assert.equal(metadataEndOf("[1]"), -1, "not an object");
  assert.equal(metadataEndOf('{"metadata":"x"}'), -1, "metadata is not an object");
  assert.equal(metadataEndOf('{"metadata":{"a":"b'), -1, "cut short");
});
