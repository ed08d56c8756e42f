import assert from "node:assert/strict";
import { test } from "node:test";
import { evaluate } from "./evaluate.ts";
import { parseJsonPath } from "./parse.ts";

const pod = {
  metadata: {
    name: "web-1",
    labels: { "app.kubernetes.io/name": "web", tier: "front" },
    creationTimestamp: "2024-01-01T00:00:00Z",
  },
  spec: {
    replicas: 3,
    containers: [
      { name: "app", image: "nginx:1", ports: [{ containerPort: 80 }] },
      {
        name: "sidecar",
        image: "envoy:1",
        ports: [{ containerPort: 9901 }, { containerPort: 15000 }],
      },
    ],
  },
  status: {
    ready: false,
    nothing: null,
    conditions: [
      { type: "PodScheduled", status: "True" },
      { type: "Ready", status: "False", count: 2 },
    ],
  },
};

const cases = [
  { name: "simple field path", path: ".spec.replicas", want: [3] },
  { name: "braces are accepted", path: "{.spec.replicas}", want: [3] },
  { name: "dollar root", path: "$.metadata.name", want: ["web-1"] },
  {
    name: "bracket key with dots",
    path: ".metadata.labels['app.kubernetes.io/name']",
    want: ["web"],
  },
  { name: "double-quoted bracket key", path: '.metadata.labels["tier"]', want: ["front"] },
  {
    name: "escaped dot in a field name",
    path: ".metadata.labels.app\\.kubernetes\\.io/name",
    want: ["web"],
  },
  { name: "array index", path: ".spec.containers[1].name", want: ["sidecar"] },
  {
    name: "negative index counts from the end",
    path: ".spec.containers[-1].image",
    want: ["envoy:1"],
  },
  { name: "out of range index is no match", path: ".spec.containers[5].name", want: [] },
  { name: "wildcard over an array", path: ".spec.containers[*].name", want: ["app", "sidecar"] },
  {
    name: "nested wildcards flatten",
    path: ".spec.containers[*].ports[*].containerPort",
    want: [80, 9901, 15000],
  },
  { name: "slice", path: ".spec.containers[0:1].name", want: ["app"] },
  { name: "recursive descent", path: "..containerPort", want: [80, 9901, 15000] },
  { name: "missing key is no match", path: ".spec.nope.deeper", want: [] },
  { name: "field on a scalar is no match", path: ".spec.replicas.x", want: [] },
  { name: "false is a value", path: ".status.ready", want: [false] },
  { name: "null is a value", path: ".status.nothing", want: [null] },
  {
    name: "filter by string equality",
    path: '.status.conditions[?(@.type=="Ready")].status',
    want: ["False"],
  },
  {
    name: "filter with single quotes and spaces",
    path: ".status.conditions[?(@.type == 'PodScheduled')].status",
    want: ["True"],
  },
  {
    name: "filter by inequality",
    path: '.status.conditions[?(@.type!="Ready")].type',
    want: ["PodScheduled"],
  },
  { name: "filter by number", path: ".status.conditions[?(@.count>1)].type", want: ["Ready"] },
  { name: "existence filter", path: ".status.conditions[?(@.count)].type", want: ["Ready"] },
  {
    name: "union of keys",
    path: ".metadata['name','creationTimestamp']",
    want: ["web-1", "2024-01-01T00:00:00Z"],
  },
  { name: "map wildcard visits keys sorted", path: ".metadata.labels.*", want: ["web", "front"] },
] as const;

for (const c of cases) {
  test(`evaluate: ${c.name}`, () => {
    assert.deepEqual(evaluate(c.path, pod), c.want);
  });
}

test("evaluate: a parsed path can be reused", () => {
  const path = parseJsonPath(".metadata.name");
  assert.deepEqual(evaluate(path, pod), ["web-1"]);
  assert.deepEqual(evaluate(path, { metadata: { name: "other" } }), ["other"]);
});

const badPaths = ["spec[", ".a[?(@.x==)]", ".a['b", ".a b", ".a[x]"] as const;

for (const path of badPaths) {
  test(`parseJsonPath: rejects ${JSON.stringify(path)} with SyntaxError`, () => {
    assert.throws(() => parseJsonPath(path), SyntaxError);
  });
}
