import assert from "node:assert/strict";
import { test } from "node:test";
import type { KubeObject } from "../../../api/index.ts";
import type { JsonObject } from "../../../util/index.ts";
import {
  objectJson,
  rememberWrittenJson,
  withResourceVersionJson,
  writtenJsonOf,
} from "./object-json.ts";
import { asWritten, toStored } from "./object-meta.ts";

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

test("the answer's text is the stored text with the resourceVersion last in metadata", () => {
  const obj = structuredClone(objects["pod"]) as unknown as KubeObject;
  obj.metadata.resourceVersion = "3";
  const json = objectJson(toStored(obj));
  assert.equal(
    withResourceVersionJson(json, 42),
    JSON.stringify(asWritten(obj, 42)),
    "as asWritten's object serializes",
  );
  const empty = objectJson({ metadata: {}, data: {} });
  assert.equal(
    withResourceVersionJson(empty, 7),
    JSON.stringify({ metadata: { resourceVersion: "7" }, data: {} }),
    "no comma in an empty metadata",
  );
  assert.equal(withResourceVersionJson(objectJson({ kind: "X" }), 1), undefined, "no metadata");
});

test("written texts are remembered per object, and only when there is one", () => {
  const a = {};
  const b = {};
  rememberWrittenJson(a, '{"a":1}');
  rememberWrittenJson(b, undefined);
  assert.equal(writtenJsonOf(a), '{"a":1}', "remembered");
  assert.equal(writtenJsonOf(b), undefined, "nothing to remember");
  assert.equal(writtenJsonOf({}), undefined, "another object");
});
