import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { KubeObject } from "../../meta/types.ts";
import type { JSONSchemaProps } from "./crd.ts";
import { kindDefinitionForCrd } from "./custom-resource-kind.ts";
import { validateUpdateAgainstSchema } from "./custom-resource-ratcheting.ts";
import { validateAgainstSchema } from "./custom-resource-validation.ts";
import { makeCronTabCrd } from "./testdata.ts";

const short = { type: "string", maxLength: 3 } as const;

/** A schema whose every field is already "tightened": the old objects below violate it. */
const schema: JSONSchemaProps = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        name: short,
        other: { type: "string" },
        count: { type: "integer", minimum: 10 },
        color: { type: "string", enum: ["red", "blue"] },
        ports: {
          type: "array",
          maxItems: 2,
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          items: {
            type: "object",
            required: ["name"],
            properties: { name: { type: "string" }, value: short },
          },
        },
        atomic: {
          type: "array",
          items: { type: "object", properties: { value: short, note: { type: "string" } } },
        },
        explicitAtomic: {
          type: "array",
          "x-kubernetes-list-type": "atomic",
          items: short,
        },
        tags: { type: "array", "x-kubernetes-list-type": "set", items: short },
        labels: { type: "object", additionalProperties: short },
        restricted: { type: "object", maxProperties: 1, additionalProperties: { type: "string" } },
        needs: {
          type: "object",
          required: ["a"],
          properties: { a: { type: "string" }, b: { type: "string" } },
        },
        oneOfField: {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "string" } },
          oneOf: [{ required: ["a"] }, { required: ["b"] }],
        },
        anyOfField: {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "string" } },
          anyOf: [{ properties: { a: { maxLength: 3 } } }],
        },
        allOfField: {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "string" } },
          allOf: [{ properties: { a: { maxLength: 3 } } }],
        },
        notField: {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "string" } },
          not: { properties: { a: { enum: ["forbidden"] } } },
        },
        free: {
          type: "object",
          required: ["x"],
          "x-kubernetes-preserve-unknown-fields": true,
        },
        maybe: { type: "object", nullable: true, properties: { a: short } },
      },
    },
  },
};

function object(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: "example.com/v1",
    kind: "Thing",
    metadata: { name: "t", namespace: "default", resourceVersion: "7" },
    spec,
  };
}

function update(newSpec: Record<string, unknown>, oldSpec: Record<string, unknown>): string[] {
  return validateUpdateAgainstSchema(object(newSpec), object(oldSpec), schema).map(
    fieldErrorString,
  );
}

function create(spec: Record<string, unknown>): string[] {
  return validateAgainstSchema(object(spec), schema).map(fieldErrorString);
}

interface Case {
  readonly name: string;
  readonly old: Record<string, unknown>;
  readonly new: Record<string, unknown>;
  readonly want: readonly string[];
}

const tooLong = (field: string): string => `${field}: Too long: may not be more than 3 bytes`;

const cases: readonly Case[] = [
  {
    name: "an unchanged invalid scalar is ratcheted while another field changes",
    old: { name: "toolong", count: 1, color: "green", other: "a" },
    new: { name: "toolong", count: 1, color: "green", other: "b" },
    want: [],
  },
  {
    name: "a changed invalid scalar is reported; the unchanged ones are not",
    old: { name: "toolong", count: 1, color: "green" },
    new: { name: "toolong", count: 2, color: "green" },
    want: [
      "spec.count: Invalid value: 2: spec.count in body should be greater than or equal to 10",
    ],
  },
  {
    name: "going back from a valid value to the old invalid one is a change",
    old: { color: "red" },
    new: { color: "green" },
    want: ['spec.color: Unsupported value: "green": supported values: "red", "blue"'],
  },
  {
    name: "a map-type list item unchanged but moved is correlated by key and ratcheted",
    old: {
      ports: [
        { name: "a", value: "toolong" },
        { name: "b", value: "ok" },
      ],
    },
    new: {
      ports: [
        { name: "b", value: "new" },
        { name: "a", value: "toolong" },
      ],
    },
    want: [],
  },
  {
    name: "a map-type list item changed to an invalid value is reported at its new index",
    old: {
      ports: [
        { name: "a", value: "toolong" },
        { name: "b", value: "ok" },
      ],
    },
    new: {
      ports: [
        { name: "b", value: "longer" },
        { name: "a", value: "toolong" },
      ],
    },
    want: [tooLong("spec.ports[0].value")],
  },
  {
    name: "a reordered map-type list is unchanged, so its maxItems is ratcheted",
    old: { ports: [{ name: "a" }, { name: "b" }, { name: "c" }] },
    new: { ports: [{ name: "c" }, { name: "a" }, { name: "b" }], other: "x" },
    want: [],
  },
  {
    name: "a map-type list that grows reports maxItems again",
    old: { ports: [{ name: "a" }, { name: "b" }, { name: "c" }] },
    new: { ports: [{ name: "a" }, { name: "b" }, { name: "c" }, { name: "d" }] },
    want: ["spec.ports: Too many: 4: must have at most 2 items"],
  },
  {
    name: "a new map-type list item without its key is not correlated",
    old: { ports: [{ name: "a", value: "toolong" }] },
    new: { ports: [{ value: "toolong" }] },
    want: ["spec.ports[0].name: Required value", tooLong("spec.ports[0].value")],
  },
  {
    name: "an unchanged list without a list type is ratcheted as a whole",
    old: { atomic: [{ value: "toolong" }], explicitAtomic: ["toolong"], other: "a" },
    new: { atomic: [{ value: "toolong" }], explicitAtomic: ["toolong"], other: "b" },
    want: [],
  },
  {
    name: "items of a changed atomic list are not correlated: unchanged invalid items are reported",
    old: { atomic: [{ value: "toolong" }, { value: "ok" }], explicitAtomic: ["toolong"] },
    new: {
      atomic: [{ value: "toolong" }, { value: "ok", note: "changed" }],
      explicitAtomic: ["toolong", "new"],
    },
    want: [tooLong("spec.atomic[0].value"), tooLong("spec.explicitAtomic[0]")],
  },
  {
    name: "items of a changed set are not correlated either",
    old: { tags: ["toolong"] },
    new: { tags: ["toolong", "new"] },
    want: [tooLong("spec.tags[0]")],
  },
  {
    name: "additionalProperties values are correlated by key",
    old: { labels: { a: "toolong" } },
    new: { labels: { a: "toolong", b: "ok", c: "alsotoolong" } },
    want: [tooLong("spec.labels.c")],
  },
  {
    name: "maxProperties is ratcheted while its object is unchanged",
    old: { restricted: { a: "1", b: "2" } },
    new: { restricted: { a: "1", b: "2" }, other: "x" },
    want: [],
  },
  {
    name: "maxProperties is reported when any value of its object changes",
    old: { restricted: { a: "1", b: "2" } },
    new: { restricted: { a: "1", b: "3" } },
    want: ["spec.restricted: Too many: 2: must have at most 1 items"],
  },
  {
    name: "required is ratcheted while its object is unchanged",
    old: { needs: { b: "x" } },
    new: { needs: { b: "x" }, other: "x" },
    want: [],
  },
  {
    name: "required is reported when a sibling field of the missing one changes",
    old: { needs: { b: "x" } },
    new: { needs: { b: "y" } },
    want: ["spec.needs.a: Required value"],
  },
  {
    name: "oneOf is reported when its object changes",
    old: { oneOfField: { a: "x", b: "y" } },
    new: { oneOfField: { a: "z", b: "y" } },
    want: [
      '<nil>: Invalid value: "": "spec.oneOfField" must validate one and only one schema (oneOf)',
    ],
  },
  {
    name: "allOf, anyOf and not are ratcheted while their object is unchanged",
    old: {
      allOfField: { a: "toolong" },
      anyOfField: { a: "toolong" },
      notField: { a: "forbidden" },
      oneOfField: {},
    },
    new: {
      allOfField: { a: "toolong" },
      anyOfField: { a: "toolong" },
      notField: { a: "forbidden" },
      oneOfField: {},
      other: "x",
    },
    want: [],
  },
  {
    // Unlike the same rule outside a junctor (labels.a), which stays ratcheted.
    name: "a field under allOf, anyOf or not is not ratcheted once a sibling changes",
    old: {
      labels: { a: "toolong", b: "1" },
      allOfField: { a: "toolong", b: "1" },
      anyOfField: { a: "toolong", b: "1" },
      notField: { a: "forbidden", b: "1" },
    },
    new: {
      labels: { a: "toolong", b: "2" },
      allOfField: { a: "toolong", b: "2" },
      anyOfField: { a: "toolong", b: "2" },
      notField: { a: "forbidden", b: "2" },
    },
    want: [
      '<nil>: Invalid value: "": "spec.allOfField" must validate all the schemas (allOf). None validated',
      '<nil>: Invalid value: "": "spec.anyOfField" must validate at least one schema (anyOf)',
      '<nil>: Invalid value: "": "spec.notField" must not validate the schema (not)',
    ],
  },
  {
    name: "a field with no schema (preserved unknown field) makes its object count as changed",
    old: { free: { y: 1 } },
    new: { free: { y: 1 }, other: "x" },
    want: ["spec.free.x: Required value"],
  },
  {
    name: "null stays null",
    old: { maybe: null, name: "toolong" },
    new: { maybe: null, name: "toolong", other: "x" },
    want: [],
  },
  {
    name: "a field added by the update is validated in full",
    old: {},
    new: { maybe: { a: "toolong" } },
    want: [tooLong("spec.maybe.a")],
  },
];

for (const c of cases) {
  test(`validateUpdateAgainstSchema: ${c.name}`, () => {
    assert.deepEqual(update(c.new, c.old), c.want);
  });
}

test("validateUpdateAgainstSchema: a changed invalid field gets the create path's message", () => {
  const spec = { name: "toolong", ports: [{ name: "a", value: "long" }] };
  assert.deepEqual(update(spec, {}), create(spec));
  assert.deepEqual(update(spec, { name: "abc", ports: [{ name: "a", value: "abc" }] }), [
    tooLong("spec.name"),
    tooLong("spec.ports[0].value"),
  ]);
});

test("validateUpdateAgainstSchema: the very same old and new objects report nothing", () => {
  const obj = object({ name: "toolong", count: 1, labels: { a: "toolong" } });
  assert.deepEqual(validateUpdateAgainstSchema(obj, obj, schema), []);
});

test("validateUpdateAgainstSchema: list-type duplicates are ratcheted over the whole object", () => {
  const dups = { tags: ["a", "a"], ports: [{ name: "p" }] };
  assert.deepEqual(update({ ...dups, other: "x" }, dups), [], "the old object had duplicates");
  assert.deepEqual(
    update({ ...dups, ports: [{ name: "p" }, { name: "p" }] }, dups),
    [],
    "new duplicates elsewhere are not reported while the old object has any",
  );
  assert.deepEqual(update({ tags: ["a", "b", "a"] }, { tags: ["a", "b"] }), [
    'spec.tags[2]: Duplicate value: "a"',
  ]);
  assert.deepEqual(update({ ports: [{ name: "p" }, { name: "p" }] }, { ports: [{ name: "p" }] }), [
    'spec.ports[1]: Duplicate value: {"name":"p"}',
  ]);
});

const cronTabs = kindDefinitionForCrd(
  makeCronTabCrd((crd) => {
    const v = crd.spec.versions[0];
    const root = v?.schema?.openAPIV3Schema;
    if (root === undefined) return;
    root.required = ["spec"];
    root.properties = {
      ...root.properties,
      status: {
        type: "object",
        properties: {
          replicas: { type: "integer", maximum: 5 },
          phase: { type: "string" },
          conditions: {
            type: "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["type"],
            items: { type: "object", properties: { type: { type: "string" } } },
          },
        },
      },
    };
  }),
  "v1",
);

function cronTab(spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject {
  const obj: KubeObject = {
    apiVersion: "stable.example.com/v1",
    kind: "CronTab",
    metadata: { name: "my-cron", namespace: "default", resourceVersion: "3" },
    spec: { cronSpec: "* * * * */5", replicas: 1, ...spec },
  };
  if (status !== undefined) obj["status"] = status;
  return obj;
}

test("kindDefinitionForCrd.validateUpdate: ratchets the body, spec and status alike", () => {
  const old = cronTab({ image: "an-image-name-far-too-long" }, { replicas: 9 });
  const same = cronTab({ image: "an-image-name-far-too-long", color: "red" }, { replicas: 9 });
  assert.deepEqual(cronTabs.validateUpdate(same, old).map(fieldErrorString), []);
  const changed = cronTab({ image: "another-image-name-too-long" }, { replicas: 9 });
  assert.deepEqual(cronTabs.validateUpdate(changed, old).map(fieldErrorString), [
    "spec.image: Too long: may not be more than 20 bytes",
  ]);
});

test("kindDefinitionForCrd.validateStatusUpdate: checks status alone, ratcheted", () => {
  const validateStatusUpdate = cronTabs.validateStatusUpdate;
  assert.ok(validateStatusUpdate !== undefined, "custom resources validate status writes");
  // A spec the tightened schema rejects, and a root missing its required spec, do not block
  // status writes.
  const old = cronTab({ image: "an-image-name-far-too-long" }, { replicas: 9, phase: "A" });
  delete old["spec"];
  const next = structuredClone(old);
  next["status"] = { replicas: 9, phase: "B" };
  assert.deepEqual(validateStatusUpdate(next, old).map(fieldErrorString), []);
  next["status"] = { replicas: 8, phase: "B" };
  assert.deepEqual(validateStatusUpdate(next, old).map(fieldErrorString), [
    "status.replicas: Invalid value: 8: replicas in body should be less than or equal to 5",
  ]);
  next["status"] = "Running";
  assert.deepEqual(validateStatusUpdate(next, old).map(fieldErrorString), [
    'status: Invalid value: "string":  in body must be of type object: "string"',
  ]);
  delete next["status"];
  assert.deepEqual(validateStatusUpdate(next, old), [], "a write without status checks nothing");
});

test("kindDefinitionForCrd.validateStatusUpdate: list-type duplicates of the whole object", () => {
  const validateStatusUpdate = cronTabs.validateStatusUpdate;
  assert.ok(validateStatusUpdate !== undefined, "custom resources validate status writes");
  const old = cronTab({}, { conditions: [{ type: "Ready" }] });
  const next = cronTab({}, { conditions: [{ type: "Ready" }, { type: "Ready" }] });
  assert.deepEqual(validateStatusUpdate(next, old).map(fieldErrorString), [
    'status.conditions[1]: Duplicate value: {"type":"Ready"}',
  ]);
  const stale = cronTab({}, { conditions: [{ type: "Ready" }, { type: "Ready" }] });
  const more = cronTab({}, { conditions: [{ type: "Ready" }, { type: "Ready" }], phase: "B" });
  assert.deepEqual(validateStatusUpdate(more, stale), [], "the old object had duplicates");
});
