import assert from "node:assert/strict";
import { test } from "node:test";
import type { CustomResourceDefinition, CustomResourceDefinitionNames } from "../../api/index.ts";
import { calculateNamesAndConditions } from "./naming.ts";

function crd(
  name: string,
  group: string,
  names: CustomResourceDefinitionNames,
  accepted?: CustomResourceDefinitionNames,
  established?: "True" | "False",
): CustomResourceDefinition {
  return {
    metadata: { name },
    spec: { group, scope: "Namespaced", names, versions: [] },
    status: {
      ...(accepted === undefined ? {} : { acceptedNames: accepted }),
      ...(established === undefined
        ? {}
        : {
            conditions: [
              {
                type: "Established",
                status: established,
                reason: established === "True" ? "InitialNamesAccepted" : "NotAccepted",
              },
            ],
          }),
    },
  };
}

const widgetNames: CustomResourceDefinitionNames = {
  plural: "widgets",
  singular: "widget",
  shortNames: ["wd"],
  kind: "Widget",
  listKind: "WidgetList",
};
const widgets = crd("widgets.example.com", "example.com", widgetNames, widgetNames, "True");

const cases = [
  {
    name: "fresh names in an empty group are accepted and the CRD is established",
    crd: crd("widgets.example.com", "example.com", widgetNames),
    others: [],
    wantNames: widgetNames,
    wantAccepted: ["True", "NoConflicts", "no conflicts found"],
    wantEstablished: ["True", "InitialNamesAccepted", "the initial names have been accepted"],
  },
  {
    name: "a kind another CRD of the group accepted conflicts",
    crd: crd("gadgets.example.com", "example.com", {
      plural: "gadgets",
      singular: "gadget",
      kind: "Widget",
      listKind: "GadgetList",
    }),
    others: [widgets],
    wantNames: { plural: "gadgets", singular: "gadget", kind: "", listKind: "GadgetList" },
    wantAccepted: ["False", "KindConflict", '"Widget" is already in use'],
    wantEstablished: ["False", "NotAccepted", "not all names are accepted"],
  },
  {
    name: "a singular equal to another CRD's short name conflicts",
    crd: crd("gadgets.example.com", "example.com", {
      plural: "gadgets",
      singular: "wd",
      kind: "Gadget",
      listKind: "GadgetList",
    }),
    others: [widgets],
    wantNames: { plural: "gadgets", kind: "Gadget", listKind: "GadgetList" },
    wantAccepted: ["False", "SingularConflict", '"wd" is already in use'],
    wantEstablished: ["False", "NotAccepted", "not all names are accepted"],
  },
  {
    name: "several short names in use are reported together",
    crd: crd("gadgets.example.com", "example.com", {
      plural: "gadgets",
      singular: "gadget",
      shortNames: ["wd", "widget", "gd"],
      kind: "Gadget",
      listKind: "GadgetList",
    }),
    others: [widgets],
    wantNames: { plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" },
    wantAccepted: [
      "False",
      "ShortNamesConflict",
      '["wd" is already in use, "widget" is already in use]',
    ],
    wantEstablished: ["False", "NotAccepted", "not all names are accepted"],
  },
  {
    name: "a list kind another CRD accepted conflicts",
    crd: crd("gadgets.example.com", "example.com", {
      plural: "gadgets",
      singular: "gadget",
      kind: "Gadget",
      listKind: "WidgetList",
    }),
    others: [widgets],
    wantNames: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
    wantAccepted: ["False", "ListKindConflict", '"WidgetList" is already in use'],
    wantEstablished: ["False", "NotAccepted", "not all names are accepted"],
  },
  {
    name: "the same names in another group do not conflict",
    crd: crd("widgets.other.io", "other.io", widgetNames),
    others: [widgets],
    wantNames: widgetNames,
    wantAccepted: ["True", "NoConflicts", "no conflicts found"],
    wantEstablished: ["True", "InitialNamesAccepted", "the initial names have been accepted"],
  },
  {
    name: "the CRD's own stored copy is not a conflict",
    crd: crd("widgets.example.com", "example.com", { ...widgetNames, shortNames: ["wd", "w"] }),
    others: [widgets],
    wantNames: { ...widgetNames, shortNames: ["wd", "w"] },
    wantAccepted: ["True", "NoConflicts", "no conflicts found"],
    wantEstablished: ["True", "InitialNamesAccepted", "the initial names have been accepted"],
  },
  {
    name: "an established CRD stays established when a new short name conflicts",
    crd: crd(
      "gadgets.example.com",
      "example.com",
      { plural: "gadgets", singular: "gadget", shortNames: ["wd"], kind: "Gadget" },
      { plural: "gadgets", singular: "gadget", kind: "Gadget" },
      "True",
    ),
    others: [widgets],
    wantNames: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
    wantAccepted: ["False", "ShortNamesConflict", '"wd" is already in use'],
    wantEstablished: ["True", "InitialNamesAccepted", undefined],
  },
  {
    name: "names already accepted are kept even if another CRD now claims them",
    crd: crd("gadgets.example.com", "example.com", widgetNames, widgetNames, "True"),
    others: [widgets],
    wantNames: widgetNames,
    wantAccepted: ["True", "NoConflicts", "no conflicts found"],
    wantEstablished: ["True", "InitialNamesAccepted", undefined],
  },
  {
    name: "categories are always taken as requested",
    crd: crd("widgets.example.com", "example.com", { ...widgetNames, categories: ["all"] }),
    others: [],
    wantNames: { ...widgetNames, categories: ["all"] },
    wantAccepted: ["True", "NoConflicts", "no conflicts found"],
    wantEstablished: ["True", "InitialNamesAccepted", "the initial names have been accepted"],
  },
] as const;

for (const c of cases) {
  test(`calculateNamesAndConditions: ${c.name}`, () => {
    const got = calculateNamesAndConditions(c.crd, c.others);
    assert.deepEqual(got.acceptedNames, c.wantNames);
    assert.deepEqual(
      [got.namesAccepted.type, got.namesAccepted.status, got.namesAccepted.reason],
      ["NamesAccepted", c.wantAccepted[0], c.wantAccepted[1]],
    );
    assert.equal(got.namesAccepted.message, c.wantAccepted[2]);
    assert.deepEqual(
      [got.established.type, got.established.status, got.established.reason],
      ["Established", c.wantEstablished[0], c.wantEstablished[1]],
    );
    assert.equal(got.established.message, c.wantEstablished[2]);
  });
}

test("calculateNamesAndConditions: the result keeps upstream's field order of acceptedNames", () => {
  const got = calculateNamesAndConditions(
    crd("widgets.example.com", "example.com", {
      categories: ["all"],
      listKind: "WidgetList",
      kind: "Widget",
      shortNames: ["wd"],
      singular: "widget",
      plural: "widgets",
    }),
    [],
  );
  assert.deepEqual(Object.keys(got.acceptedNames), [
    "plural",
    "singular",
    "shortNames",
    "kind",
    "listKind",
    "categories",
  ]);
});
