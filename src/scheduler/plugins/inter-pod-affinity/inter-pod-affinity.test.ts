import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../../api/index.ts";
import { makeNode, makePod, minimalPlugins, newTestFramework } from "../../../testing/index.ts";
import { name } from "./inter-pod-affinity.ts";

const nodes = [
  makeNode("a1").label("zone", "a").obj(),
  makeNode("a2").label("zone", "a").obj(),
  makeNode("b1").label("zone", "b").obj(),
];
const db = makePod("db").label("app", "db").nodeName("a1").obj();
const affinityMiss = "UnschedulableAndUnresolvable: node(s) didn't match pod affinity rules";
const antiMiss = "Unschedulable: node(s) didn't match pod anti-affinity rules";
const existingAnti = "Unschedulable: node(s) didn't satisfy existing pods anti-affinity rules";

const cases: readonly { name: string; pod: Pod; existing: Pod[]; want: Record<string, string> }[] =
  [
    {
      name: "required affinity to a zone holding a matching pod",
      pod: makePod("p")
        .podAffinity("zone", { matchLabels: { app: "db" } })
        .obj(),
      existing: [db],
      want: { a1: "Success", a2: "Success", b1: affinityMiss },
    },
    {
      name: "required affinity with no matching pod anywhere fails everywhere",
      pod: makePod("p")
        .podAffinity("zone", { matchLabels: { app: "cache" } })
        .obj(),
      existing: [db],
      want: { a1: affinityMiss, a2: affinityMiss, b1: affinityMiss },
    },
    {
      name: "the first pod of a self-affine group may go anywhere",
      pod: makePod("p")
        .label("app", "cache")
        .podAffinity("zone", { matchLabels: { app: "cache" } })
        .obj(),
      existing: [db],
      want: { a1: "Success", a2: "Success", b1: "Success" },
    },
    {
      name: "required anti-affinity keeps the pod out of the zone",
      pod: makePod("p")
        .podAntiAffinity("zone", { matchLabels: { app: "db" } })
        .obj(),
      existing: [db],
      want: { a1: antiMiss, a2: antiMiss, b1: "Success" },
    },
    {
      name: "an existing pod's anti-affinity repels the incoming pod",
      pod: makePod("p").label("app", "web").obj(),
      existing: [
        makePod("lonely")
          .nodeName("b1")
          .podAntiAffinity("kubernetes.io/hostname", { matchLabels: { app: "web" } })
          .obj(),
      ],
      want: { a1: "Success", a2: "Success", b1: existingAnti },
    },
    {
      name: "anti-affinity looks only at the pod's namespace by default",
      pod: makePod("p")
        .podAntiAffinity("zone", { matchLabels: { app: "db" } })
        .obj(),
      existing: [makePod("db").namespace("other").label("app", "db").nodeName("a1").obj()],
      want: { a1: "Success", a2: "Success", b1: "Success" },
    },
    {
      name: "a namespace selector widens the term to labelled namespaces",
      pod: makePod("p")
        .podAntiAffinity("zone", {
          matchLabels: { app: "db" },
          namespaceSelector: { matchLabels: { team: "x" } },
        })
        .obj(),
      existing: [makePod("db").namespace("other").label("app", "db").nodeName("a1").obj()],
      want: { a1: antiMiss, a2: antiMiss, b1: "Success" },
    },
  ];

for (const c of cases) {
  test(`InterPodAffinity.filter: ${c.name}`, () => {
    const tf = newTestFramework({
      plugins: minimalPlugins(name),
      nodes,
      pods: c.existing,
      namespaces: { other: { team: "x" } },
    });
    assert.deepEqual(tf.filter(c.pod), c.want);
  });
}

test("InterPodAffinity.score: preferred affinity and anti-affinity weights by zone", () => {
  const tf = newTestFramework({ plugins: minimalPlugins(name), nodes, pods: [db] });
  const near = makePod("p")
    .preferredPodAffinity(10, "zone", { matchLabels: { app: "db" } })
    .obj();
  assert.deepEqual(tf.score(near), { a1: 100, a2: 100, b1: 0 });
  const far = makePod("p")
    .preferredPodAntiAffinity(10, "zone", { matchLabels: { app: "db" } })
    .obj();
  assert.deepEqual(tf.score(far), { a1: 0, a2: 0, b1: 100 });
});

test("InterPodAffinity.score: an existing pod's required affinity attracts the pod it selects", () => {
  const follower = makePod("f")
    .nodeName("b1")
    .podAffinity("zone", { matchLabels: { app: "web" } })
    .obj();
  const tf = newTestFramework({ plugins: minimalPlugins(name), nodes, pods: [follower] });
  assert.deepEqual(tf.score(makePod("p").label("app", "web").obj()), { a1: 0, a2: 0, b1: 100 });
});
