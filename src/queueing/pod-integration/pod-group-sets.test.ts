import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import {
  driverRole,
  maxPodGroupSetsBytes,
  parsePodGroupSets,
  podSetsOfDriver,
  validateDriverPod,
} from "./pod-group-sets.ts";

const path = "metadata.annotations[kueue.x-k8s.io/pod-group-sets]";

// The KEP's own example (story 3), written as YAML flow with a trailing comma.
const kepExample = `[
  {name: driver, count: 1},
  {name: workers, count: 10, template: {spec: {containers: [{name: worker, resources: {requests: {cpu: 1m}}}]}}},
]`;

test("parsePodGroupSets: the KEP's example parses; a set without a template keeps none", () => {
  const parsed = parsePodGroupSets(kepExample);
  assert.equal(parsed.kind, "ok");
  if (parsed.kind !== "ok") return;
  assert.deepEqual(
    parsed.sets.map((s) => [s.name, s.count, s.template === undefined]),
    [
      ["driver", 1, true],
      ["workers", 10, false],
    ],
  );
});

const invalidCases = [
  {
    name: "a parse error",
    text: "[{name: a",
    want: `${path}: Invalid value: "": cannot parse the pod sets as YAML or JSON`,
  },
  {
    name: "not a list",
    text: "{name: a}",
    want: `${path}: Invalid value: "": must be a non-empty list of pod sets`,
  },
  {
    name: "an empty list",
    text: "[]",
    want: `${path}: Invalid value: "": must be a non-empty list`,
  },
  {
    name: "a duplicate name",
    text: "[{name: a, count: 1}, {name: a, count: 1}]",
    want: `${path}[1].name: Invalid value: "a": duplicate pod set name`,
  },
  {
    name: "a zero count",
    text: "[{name: a, count: 0}]",
    want: `${path}[0].count: Invalid value: 0: must be an integer greater than zero`,
  },
  { name: "a missing count", text: "[{name: a}]", want: `${path}[0].count: Required value` },
  {
    name: "a name that is not a DNS label",
    text: "[{name: A_b, count: 1}]",
    want: `${path}[0].name: Invalid value: "A_b": a lowercase RFC 1123 label`,
  },
  {
    name: "an unknown field",
    text: "[{name: a, count: 1, replicas: 2}]",
    want: `${path}[0].replicas: Invalid value: 2: unknown field`,
  },
  {
    name: "a template without containers",
    text: "[{name: a, count: 1, template: {spec: {}}}]",
    want: `${path}[0].template.spec.containers: Required value`,
  },
  {
    name: "a bad quantity",
    text: "[{name: a, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: lots}}}]}}}]",
    want: `${path}[0].template.spec.containers[0].resources.requests[cpu]: Invalid value: "lots": must be a quantity`,
  },
  {
    name: "more than 8 sets",
    text: JSON.stringify(Array.from({ length: 9 }, (_, i) => ({ name: `s${i}`, count: 1 }))),
    want: `${path}: Too many: must have at most 8 items`,
  },
  {
    name: "a value over the size limit",
    text: `[{name: a, count: 1}]${" ".repeat(maxPodGroupSetsBytes)}`,
    want: `${path}: Too long: may not be more than ${maxPodGroupSetsBytes} bytes`,
  },
] as const;

for (const c of invalidCases) {
  test(`parsePodGroupSets: rejects ${c.name}`, () => {
    const parsed = parsePodGroupSets(c.text);
    assert.equal(parsed.kind, "invalid");
    if (parsed.kind !== "invalid") return;
    const messages = parsed.errors.map(fieldErrorString);
    assert.ok(
      messages.some((m) => m.startsWith(c.want)),
      `want a message starting ${JSON.stringify(c.want)}, got ${JSON.stringify(messages)}`,
    );
  });
}

const driver = (role?: string) => {
  const builder = makePod("driver")
    .label("kueue.x-k8s.io/pod-group-name", "g")
    .annotation("kueue.x-k8s.io/pod-group-sets", kepExample)
    .requests({ cpu: "2" });
  return (
    role === undefined ? builder : builder.label("kueue.x-k8s.io/pod-group-role", role)
  ).obj();
};

test("driverRole: the role label, else the first set without a template", () => {
  const parsed = parsePodGroupSets(kepExample);
  assert.equal(parsed.kind, "ok");
  if (parsed.kind !== "ok") return;
  assert.equal(driverRole(parsed.sets, driver()), "driver");
  assert.equal(driverRole(parsed.sets, driver("workers")), "workers");
  assert.equal(driverRole(parsed.sets, driver("nope")), undefined);
});

const driverCases = [
  { name: "a valid driver", pod: driver(), want: [] },
  {
    name: "a role that is not a declared set",
    pod: driver("nope"),
    want: [
      `metadata.labels[kueue.x-k8s.io/pod-group-role]: Invalid value: "nope": must name one of the pod sets in 'kueue.x-k8s.io/pod-group-sets': driver, workers`,
    ],
  },
  {
    name: "a total count that disagrees with the sets",
    pod: (() => {
      const p = driver();
      p.metadata.annotations = {
        ...p.metadata.annotations,
        "kueue.x-k8s.io/pod-group-total-count": "3",
      };
      return p;
    })(),
    want: [
      `metadata.annotations[kueue.x-k8s.io/pod-group-total-count]: Invalid value: "3": must equal the sum of the counts in 'kueue.x-k8s.io/pod-group-sets' (11)`,
    ],
  },
  {
    name: "no set for the driver",
    pod: makePod("d")
      .annotation(
        "kueue.x-k8s.io/pod-group-sets",
        "[{name: w, count: 1, template: {spec: {containers: [{name: c}]}}}]",
      )
      .obj(),
    want: [
      "metadata.labels[kueue.x-k8s.io/pod-group-role]: Required value: the driver's pod set: set the 'kueue.x-k8s.io/pod-group-role' label or leave one pod set's template empty",
    ],
  },
] as const;

for (const c of driverCases) {
  test(`validateDriverPod: ${c.name}`, () => {
    assert.deepEqual(validateDriverPod(c.pod).map(fieldErrorString), c.want);
  });
}

test("podSetsOfDriver: declared order and counts; an empty template is the driver's spec", () => {
  const parsed = parsePodGroupSets(kepExample);
  assert.equal(parsed.kind, "ok");
  if (parsed.kind !== "ok") return;
  const sets = podSetsOfDriver(parsed.sets, driver());
  assert.deepEqual(
    sets.map((s) => [
      s.name,
      s.count,
      s.template.spec?.containers[0]?.resources?.requests?.["cpu"],
    ]),
    [
      ["driver", 1, "2"],
      ["workers", 10, "1m"],
    ],
  );
});
