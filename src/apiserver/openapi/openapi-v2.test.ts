import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ProtoReader } from "../../storage/index.ts";
import { makeWidgetCrd, startTestApiServer, type TestApiServer } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { negotiateSwagger, swaggerMediaTypes } from "./openapi-v2.ts";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type J = any;

test("negotiateSwagger: kube-openapi's choice of form by Accept header", () => {
  const cases: [string | undefined, string | undefined][] = [
    [undefined, swaggerMediaTypes.json],
    ["", swaggerMediaTypes.json],
    ["*/*", swaggerMediaTypes.json],
    ["application/json", swaggerMediaTypes.json],
    // What kubectl 1.27 and 1.28 send; answered with the non-deprecated name, as upstream does.
    [swaggerMediaTypes.protobufDeprecated, swaggerMediaTypes.protobuf],
    [swaggerMediaTypes.protobuf, swaggerMediaTypes.protobuf],
    [`application/json;q=0.5, ${swaggerMediaTypes.protobuf}`, swaggerMediaTypes.protobuf],
    [`*/*;q=0.8, ${swaggerMediaTypes.protobufDeprecated}`, swaggerMediaTypes.protobuf],
    ["application/*", swaggerMediaTypes.json],
    ["text/html, application/json;q=0.1", swaggerMediaTypes.json],
    ["text/html", undefined],
    ["application/yaml", undefined],
    ["application/json;q=0", undefined],
  ];
  for (const [accept, expected] of cases) {
    assert.equal(negotiateSwagger(accept)?.contentType, expected, `Accept: ${accept}`);
  }
});

let server: TestApiServer;

before(async () => {
  server = await startTestApiServer();
  const crd = makeWidgetCrd((c: J) => {
    const spec = c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    spec.port = { "x-kubernetes-int-or-string": true };
    spec.owner = { type: "string", nullable: true };
  });
  const created = await server.send(
    "POST",
    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
    {
      body: crd,
    },
  );
  assert.equal(created.status, 201, await created.text());
  // The CRD is served (and in the document) once the CRD controller has established it.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const doc = (await (await server.send("GET", "/openapi/v2")).json()) as J;
    if (doc.definitions["com.example.v1.Widget"] !== undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail("the Widget CRD never reached /openapi/v2");
});

after(async () => {
  await server[Symbol.asyncDispose]();
});

ensureNoLeaksAfterSuite();

test("GET /openapi/v2 without Accept: the Swagger 2.0 JSON, with Vary and a quoted ETag", async () => {
  const response = await server.send("GET", "/openapi/v2");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.equal(response.headers.get("vary"), "Accept");
  assert.match(response.headers.get("etag") ?? "", /^"[0-9A-F]{128}"$/, "SHA-512, upper-case hex");
  const text = await response.text();
  const doc = JSON.parse(text) as J;
  assert.equal(doc.swagger, "2.0");
  assert.equal(doc.info.title, "Kubernetes");
  const configMap = doc.definitions["io.k8s.api.core.v1.ConfigMap"];
  assert.deepEqual(configMap["x-kubernetes-group-version-kind"], [
    { group: "", version: "v1", kind: "ConfigMap" },
  ]);
  assert.equal(configMap.properties.data.additionalProperties.type, "string");
  assert.equal(
    doc.definitions["io.k8s.api.core.v1.Pod"].properties.spec.$ref,
    "#/definitions/io.k8s.api.core.v1.PodSpec",
    "references point into #/definitions/",
  );
  assert.doesNotMatch(text, /#\/components\/schemas\//, "no OpenAPI v3 reference is left");
  const lacking = Object.values(doc.definitions).flatMap((schema) => keywordsLacking(schema as J));
  assert.deepEqual(lacking, [], "no schema uses a keyword Swagger 2.0 lacks");
  const names = Object.keys(doc.definitions);
  assert.deepEqual(names, [...names].sort(), "definitions are sorted by name");
});

test("GET /openapi/v2: a CRD's schema as kube-apiserver turns it into 2.0", async () => {
  const doc = (await (await server.send("GET", "/openapi/v2")).json()) as J;
  const widget = doc.definitions["com.example.v1.Widget"];
  assert.deepEqual(widget["x-kubernetes-group-version-kind"], [
    { group: "example.com", version: "v1", kind: "Widget" },
  ]);
  const spec = widget.properties.spec.properties;
  assert.deepEqual(spec.size, { type: "string", enum: ["small", "large"] });
  assert.deepEqual(
    spec.extra,
    { "x-kubernetes-preserve-unknown-fields": true },
    "a subtree keeping unknown fields has no type a client could reject them by",
  );
  assert.deepEqual(spec.port, { "x-kubernetes-int-or-string": true, format: "int-or-string" });
  assert.deepEqual(spec.owner, { type: "string" }, "nullable is left out");
});

test("GET /openapi/v2: If-None-Match with the ETag is a 304, any other Accept a 406", async () => {
  const first = await server.send("GET", "/openapi/v2");
  await first.arrayBuffer();
  const etag = first.headers.get("etag") ?? "";
  const again = await server.send("GET", "/openapi/v2", { headers: { "if-none-match": etag } });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), "");
  const html = await server.send("GET", "/openapi/v2", { headers: { accept: "text/html" } });
  assert.equal(html.status, 406);
  assert.equal(await html.text(), "");
});

/** The keywords of `schema` and the schemas inside it that Swagger 2.0 does not have. */
function keywordsLacking(schema: J): string[] {
  const own = ["nullable", "anyOf", "oneOf", "not"].filter((k) => k in schema);
  const inner: J[] = [
    ...Object.values((schema["properties"] ?? {}) as J),
    ...(schema["items"] === undefined ? [] : [schema["items"]]),
    ...(typeof schema["additionalProperties"] === "object" ? [schema["additionalProperties"]] : []),
    ...((schema["allOf"] ?? []) as J[]),
  ];
  return [...own, ...inner.flatMap(keywordsLacking)];
}

/** The length-delimited fields `wanted` of one message, by field number, in order. */
function fields(bytes: Buffer, wanted: ReadonlySet<number>): Map<number, Buffer[]> {
  const out = new Map<number, Buffer[]>();
  const reader = new ProtoReader(bytes);
  for (let field = reader.next(); field !== 0; field = reader.next()) {
    if (!wanted.has(field)) {
      reader.skip();
      continue;
    }
    const list = out.get(field) ?? [];
    list.push(reader.bytes());
    out.set(field, list);
  }
  return out;
}

const text = (b: Buffer | undefined): string => b?.toString("utf8") ?? "";

/** gnostic's NamedSchema / NamedAny pairs of a map message (repeated field 1), by name. */
function named(bytes: Buffer | undefined, field = 1): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const pair of fields(bytes ?? Buffer.alloc(0), new Set([field])).get(field) ?? []) {
    const parts = fields(pair, new Set([1, 2]));
    out.set(text(parts.get(1)?.[0]), parts.get(2)?.[0] ?? Buffer.alloc(0));
  }
  return out;
}

test("GET /openapi/v2 as protobuf: gnostic's openapi.v2.Document, as kubectl 1.27 reads it", async () => {
  const response = await server.send("GET", "/openapi/v2", {
    headers: { accept: swaggerMediaTypes.protobufDeprecated },
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), swaggerMediaTypes.protobuf);
  const document = fields(Buffer.from(await response.arrayBuffer()), new Set([1, 2, 9]));
  assert.equal(text(document.get(1)?.[0]), "2.0", "Document.swagger");
  const info = fields(document.get(2)?.[0] ?? Buffer.alloc(0), new Set([1]));
  assert.equal(text(info.get(1)?.[0]), "Kubernetes", "Info.title");
  const definitions = named(document.get(9)?.[0]);
  const configMap = definitions.get("io.k8s.api.core.v1.ConfigMap");
  assert.ok(configMap !== undefined, "Definitions holds the ConfigMap schema");
  // Schema: type (22) is a TypeItem, properties (25) NamedSchemas, vendor_extension (31) NamedAny.
  const schema = fields(configMap, new Set([22, 25, 31]));
  const type = fields(schema.get(22)?.[0] ?? Buffer.alloc(0), new Set([1]));
  assert.equal(text(type.get(1)?.[0]), "object");
  const properties = named(schema.get(25)?.[0]);
  assert.deepEqual([...properties.keys()].sort(), [
    "apiVersion",
    "binaryData",
    "data",
    "immutable",
    "kind",
    "metadata",
  ]);
  const data = fields(properties.get("data") ?? Buffer.alloc(0), new Set([21]));
  const additional = fields(data.get(21)?.[0] ?? Buffer.alloc(0), new Set([1]));
  const valueType = fields(additional.get(1)?.[0] ?? Buffer.alloc(0), new Set([22]));
  const valueTypeItem = fields(valueType.get(22)?.[0] ?? Buffer.alloc(0), new Set([1]));
  assert.equal(text(valueTypeItem.get(1)?.[0]), "string", "data's values are strings");
  const extensions = new Map<string, string>();
  for (const pair of schema.get(31) ?? []) {
    const parts = fields(pair, new Set([1, 2]));
    const any = fields(parts.get(2)?.[0] ?? Buffer.alloc(0), new Set([2]));
    extensions.set(text(parts.get(1)?.[0]), text(any.get(2)?.[0]));
  }
  // Any.yaml holds the value's text; kubectl reads it with a YAML parser, which reads JSON.
  assert.deepEqual(JSON.parse(extensions.get("x-kubernetes-group-version-kind") ?? "null"), [
    { group: "", version: "v1", kind: "ConfigMap" },
  ]);
});
