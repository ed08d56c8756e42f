import assert from "node:assert/strict";
import { test } from "node:test";
import type { JSONSchemaProps } from "../../api/index.ts";
import { describe, lines, under, undescribedFields } from "./describe.ts";

const shared: JSONSchemaProps = { type: "object", properties: { name: { type: "string" } } };
const schema: JSONSchemaProps = {
  type: "object",
  properties: {
    list: { type: "array", items: shared },
    single: shared,
  },
};

test("describe: sets descriptions by path through lists, without touching shared sub-schemas", () => {
  const described = describe(schema, {
    "": "root",
    list: lines("a list", "of things"),
    "list.name": "an item's name",
    ...under("single", { "": "one thing", name: "its name" }),
  });
  assert.equal(described.description, "root");
  assert.equal(described.properties?.["list"]?.description, "a list\nof things");
  assert.equal(
    described.properties?.["list"]?.items?.description,
    undefined,
    "a list's items keep their own (absent) description",
  );
  assert.equal(
    described.properties?.["list"]?.items?.properties?.["name"]?.description,
    "an item's name",
  );
  assert.equal(described.properties?.["single"]?.properties?.["name"]?.description, "its name");
  assert.equal(
    shared.properties?.["name"]?.description,
    undefined,
    "the shared schema is not mutated",
  );
  assert.deepEqual(undescribedFields(described), []);
  assert.deepEqual(undescribedFields(schema), ["list", "list.name", "single", "single.name"]);
});

test("describe: a description for an undeclared field is an error", () => {
  assert.throws(
    () => describe(schema, { "single.nmae": "typo" }),
    /descriptions for undeclared fields: single\.nmae/,
  );
});
