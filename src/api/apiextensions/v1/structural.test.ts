import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { JSONSchemaProps } from "./crd.ts";
import { isStructuralSchema } from "./structural.ts";

const cases: { name: string; schema: JSONSchemaProps; want: string[] }[] = [
  {
    name: "a typed object tree is structural",
    schema: {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            n: { type: "integer" },
            list: { type: "array", items: { type: "string" } },
          },
        },
        metadata: { type: "object", properties: { name: { type: "string", maxLength: 10 } } },
      },
    },
    want: [],
  },
  {
    name: "the int-or-string anyOf pattern is allowed",
    schema: {
      type: "object",
      properties: {
        port: {
          "x-kubernetes-int-or-string": true,
          anyOf: [{ type: "integer" }, { type: "string" }],
        },
      },
    },
    want: [],
  },
  {
    name: "missing types at the root, on fields and on items",
    schema: { properties: { a: {}, b: { type: "array", items: {} } } },
    want: [
      "openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields",
      "openAPIV3Schema.properties[b].items.type: Required value: must not be empty for specified array items",
      "openAPIV3Schema.type: Required value: must not be empty at the root",
    ],
  },
  {
    name: "an array without items and a non-object root",
    schema: { type: "array" },
    want: [
      "openAPIV3Schema.items: Required value: must be specified",
      'openAPIV3Schema.type: Invalid value: "array": must be object at the root',
    ],
  },
  {
    name: "types inside anyOf and a field only defined there",
    schema: { type: "object", anyOf: [{ type: "object", properties: { x: { type: "string" } } }] },
    want: [
      "openAPIV3Schema.anyOf[0].properties[x].type: Forbidden: must be empty to be structural",
      "openAPIV3Schema.anyOf[0].type: Forbidden: must be empty to be structural",
      "openAPIV3Schema.properties[x]: Required value: because it is defined in openAPIV3Schema.anyOf[0].properties[x]",
    ],
  },
  {
    name: "metadata restricted beyond name",
    schema: {
      type: "object",
      properties: { metadata: { type: "object", properties: { labels: { type: "object" } } } },
    },
    want: [
      "openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
    ],
  },
  {
    name: "$ref, uniqueItems and properties with additionalProperties",
    schema: {
      type: "object",
      properties: {
        a: { type: "object", $ref: "#/definitions/x" },
        b: { type: "array", uniqueItems: true, items: { type: "string" } },
        c: { type: "object", properties: { d: { type: "string" } }, additionalProperties: false },
      },
    },
    want: [
      "openAPIV3Schema.properties[a].$ref: Forbidden: $ref is not supported",
      "openAPIV3Schema.properties[b].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
      "openAPIV3Schema.properties[c].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive",
    ],
  },
  {
    name: "x-kubernetes-preserve-unknown-fields false and a list-map without keys",
    schema: {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": false as true,
      properties: {
        l: { type: "array", "x-kubernetes-list-type": "map", items: { type: "object" } },
      },
    },
    want: [
      "openAPIV3Schema.properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map",
      "openAPIV3Schema.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined",
    ],
  },
  {
    name: "a default under top-level metadata",
    schema: {
      type: "object",
      properties: {
        metadata: { type: "object", properties: { name: { type: "string", default: "x" } } },
      },
    },
    want: [
      "openAPIV3Schema.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata",
    ],
  },
];

for (const c of cases) {
  test(`isStructuralSchema: ${c.name}`, () => {
    assert.deepEqual(isStructuralSchema(c.schema).map(fieldErrorString), c.want);
  });
}
