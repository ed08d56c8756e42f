import assert from "node:assert/strict";
import { test } from "node:test";
import { makeNode, makePod } from "../../testing/index.ts";
import type { Node } from "../core/v1/node-types.ts";
import type { NodeSelectorTerm } from "../core/v1/pod-template.ts";
import type { Pod } from "../core/v1/pod-types.ts";
import {
  compileNodeSelectorTerm,
  compilePreferredSchedulingTerms,
  requiredNodeAffinity,
} from "./node-affinity.ts";

const zoneA = makeNode("n1").label("zone", "a").label("gen", "5").obj();

const termCases: readonly { name: string; term: NodeSelectorTerm; node: Node; want: boolean }[] = [
  {
    name: "In matches a listed value",
    term: { matchExpressions: [{ key: "zone", operator: "In", values: ["a", "b"] }] },
    node: zoneA,
    want: true,
  },
  {
    name: "In does not match a missing label",
    term: { matchExpressions: [{ key: "rack", operator: "In", values: ["r1"] }] },
    node: zoneA,
    want: false,
  },
  {
    name: "NotIn matches a missing label",
    term: { matchExpressions: [{ key: "rack", operator: "NotIn", values: ["r1"] }] },
    node: zoneA,
    want: true,
  },
  {
    name: "Exists and DoesNotExist test the key",
    term: {
      matchExpressions: [
        { key: "zone", operator: "Exists" },
        { key: "rack", operator: "DoesNotExist" },
      ],
    },
    node: zoneA,
    want: true,
  },
  {
    name: "Gt compares integers",
    term: { matchExpressions: [{ key: "gen", operator: "Gt", values: ["4"] }] },
    node: zoneA,
    want: true,
  },
  {
    name: "Lt compares integers",
    term: { matchExpressions: [{ key: "gen", operator: "Lt", values: ["5"] }] },
    node: zoneA,
    want: false,
  },
  {
    name: "Gt with a non-integer label value does not match",
    term: { matchExpressions: [{ key: "zone", operator: "Gt", values: ["1"] }] },
    node: zoneA,
    want: false,
  },
  {
    name: "expressions are ANDed",
    term: {
      matchExpressions: [
        { key: "zone", operator: "In", values: ["a"] },
        { key: "gen", operator: "In", values: ["4"] },
      ],
    },
    node: zoneA,
    want: false,
  },
  {
    name: "matchFields metadata.name In selects the node by name",
    term: { matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] },
    node: zoneA,
    want: true,
  },
  {
    name: "matchFields metadata.name NotIn excludes the node",
    term: { matchFields: [{ key: "metadata.name", operator: "NotIn", values: ["n1"] }] },
    node: zoneA,
    want: false,
  },
  {
    name: "an empty term selects nothing",
    term: {},
    node: zoneA,
    want: false,
  },
  {
    name: "a malformed term (In without values) selects nothing",
    term: { matchExpressions: [{ key: "zone", operator: "In", values: [] }] },
    node: zoneA,
    want: false,
  },
];

for (const c of termCases) {
  test(`compileNodeSelectorTerm: ${c.name}`, () => {
    const test = compileNodeSelectorTerm(c.term);
    assert.equal(test?.(c.node) ?? false, c.want);
  });
}

const requiredCases: readonly { name: string; pod: Pod; node: Node; want: boolean }[] = [
  { name: "no selector admits every node", pod: makePod("p").obj(), node: zoneA, want: true },
  {
    name: "nodeSelector needs every label",
    pod: makePod("p").nodeSelector({ zone: "a", disk: "ssd" }).obj(),
    node: zoneA,
    want: false,
  },
  {
    name: "nodeSelector and affinity must both hold",
    pod: makePod("p").nodeSelector({ zone: "a" }).nodeAffinityIn("gen", ["5"]).obj(),
    node: zoneA,
    want: true,
  },
  {
    name: "required terms are ORed",
    pod: makePod("p").nodeAffinityIn("zone", ["b"]).nodeAffinityIn("gen", ["5"]).obj(),
    node: zoneA,
    want: true,
  },
  {
    name: "an affinity with no terms admits no node",
    pod: (() => {
      const pod = makePod("p").obj();
      pod.spec.affinity = {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
      };
      return pod;
    })(),
    node: zoneA,
    want: false,
  },
];

for (const c of requiredCases) {
  test(`requiredNodeAffinity: ${c.name}`, () => {
    assert.equal(requiredNodeAffinity(c.pod)(c.node), c.want);
  });
}

test("compilePreferredSchedulingTerms: sums the weights of matching terms", () => {
  const score = compilePreferredSchedulingTerms([
    {
      weight: 10,
      preference: { matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] },
    },
    { weight: 5, preference: { matchExpressions: [{ key: "gen", operator: "Exists" }] } },
    {
      weight: 7,
      preference: { matchExpressions: [{ key: "zone", operator: "In", values: ["b"] }] },
    },
  ]);
  assert.equal(score(zoneA), 15);
});
