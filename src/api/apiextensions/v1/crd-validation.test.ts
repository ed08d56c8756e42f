import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { CustomResourceDefinition } from "./crd.ts";
import { defaultCustomResourceDefinition } from "./crd-defaults.ts";
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
} from "./crd-validation.ts";
import { customResourceDefinitionKind } from "./kinds.ts";
import { makeCronTabCrd } from "./testdata.ts";

const v0 = (crd: CustomResourceDefinition) => {
  const v = crd.spec.versions[0];
  if (v === undefined) throw new RangeError("fixture has no version");
  return v;
};

const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const cases: { name: string; edit: (crd: CustomResourceDefinition) => void; want: string[] }[] = [
  { name: "the CronTab example is valid", edit: () => {}, want: [] },
  {
    name: "metadata.name must be <plural>.<group>",
    edit: (crd) => {
      crd.metadata.name = "crontab.stable.example.com";
    },
    want: [
      `metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group`,
    ],
  },
  {
    name: "a group without a dot",
    edit: (crd) => {
      crd.spec.group = "example";
      crd.metadata.name = "crontabs.example";
    },
    want: [`spec.group: Invalid value: "example": should be a domain with at least one dot`],
  },
  {
    name: "an unknown scope",
    edit: (crd) => {
      crd.spec.scope = "Global" as "Cluster";
    },
    want: [`spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"`],
  },
  {
    name: "a missing schema",
    edit: (crd) => {
      delete v0(crd).schema;
    },
    want: ["spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required"],
  },
  {
    name: "an untyped nested field is not structural",
    edit: (crd) => {
      const spec = v0(crd).schema?.openAPIV3Schema?.properties?.["spec"];
      if (spec?.properties !== undefined) spec.properties["free"] = {};
    },
    want: [
      "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[free].type: Required value: must not be empty for specified object fields",
    ],
  },
  {
    name: "a mixed-case plural and a bad short name",
    edit: (crd) => {
      crd.spec.names.plural = "CronTabs";
      crd.spec.names.shortNames = ["c_t"];
      crd.metadata.name = "CronTabs.stable.example.com";
    },
    want: [
      `metadata.name: Invalid value: "CronTabs.stable.example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `spec.names.plural: Invalid value: "CronTabs": ${dns1035}`,
      `spec.names.shortNames[0]: Invalid value: "c_t": ${dns1035}`,
    ],
  },
  {
    name: "scale paths outside spec/status",
    edit: (crd) => {
      const scale = v0(crd).subresources?.scale;
      if (scale !== undefined) {
        scale.specReplicasPath = ".replicas";
        scale.statusReplicasPath = "status.replicas";
      }
    },
    want: [
      'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".replicas": should be a json path under .spec',
      'spec.versions[0].subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .',
    ],
  },
  {
    name: "a printer column with a bad type and no jsonPath",
    edit: (crd) => {
      v0(crd).additionalPrinterColumns = [{ name: "X", type: "float", jsonPath: "" }];
    },
    want: [
      'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: "float": supported values: "boolean", "date", "integer", "number", "string"',
      "spec.versions[0].additionalPrinterColumns[0].JSONPath: Required value",
    ],
  },
  {
    name: "preserveUnknownFields true",
    edit: (crd) => {
      crd.spec.preserveUnknownFields = true;
    },
    want: [
      "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
    ],
  },
  {
    name: "webhook conversion without a client config",
    edit: (crd) => {
      crd.spec.conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"] } };
    },
    want: [
      "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
    ],
  },
];

for (const c of cases) {
  test(`validateCustomResourceDefinition: ${c.name}`, () => {
    assert.deepEqual(
      validateCustomResourceDefinition(makeCronTabCrd(c.edit)).map(fieldErrorString),
      c.want,
    );
  });
}

test("validateCustomResourceDefinition: no storage version also fails storedVersions", () => {
  const got = validateCustomResourceDefinition(
    makeCronTabCrd((crd) => {
      v0(crd).storage = false;
      crd.status = {};
    }),
  ).map((e) => `${e.field}: ${e.detail}`);
  assert.deepEqual(got, [
    "spec.versions: must have exactly one version marked as storage version",
    "status.storedVersions: must have at least one stored version",
  ]);
});

test("defaultCustomResourceDefinition: singular, listKind, conversion None, storedVersions", () => {
  const crd: CustomResourceDefinition = {
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Cluster",
      names: { plural: "widgets", kind: "Widget" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object" } },
        },
      ],
    },
  };
  defaultCustomResourceDefinition(crd);
  assert.equal(crd.spec.names.singular, "widget");
  assert.equal(crd.spec.names.listKind, "WidgetList");
  assert.deepEqual(crd.spec.conversion, { strategy: "None" });
  assert.deepEqual(crd.status?.storedVersions, ["v1"]);
  assert.deepEqual(validateCustomResourceDefinition(crd), []);
});

test("validateCustomResourceDefinitionUpdate: group and plural are immutable; kind once established", () => {
  const old = makeCronTabCrd((crd) => {
    crd.metadata.resourceVersion = "1";
    crd.status = {
      storedVersions: ["v1"],
      conditions: [{ type: "Established", status: "True" }],
    };
  });
  const next = structuredClone(old);
  next.spec.names.kind = "CronJob";
  next.spec.names.listKind = "CronJobList";
  assert.deepEqual(validateCustomResourceDefinitionUpdate(next, old).map(fieldErrorString), [
    'spec.names.kind: Invalid value: "CronJob": field is immutable',
  ]);
});

test("customResourceDefinitionKind: cluster-scoped customresourcedefinitions (crd, crds)", () => {
  assert.equal(customResourceDefinitionKind.resource, "customresourcedefinitions");
  assert.deepEqual(customResourceDefinitionKind.shortNames, ["crd", "crds"]);
  assert.equal(customResourceDefinitionKind.namespaced, false);
  assert.equal(customResourceDefinitionKind.subresources.status, true);
});
