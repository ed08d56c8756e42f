import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { Deployment } from "./deployment.ts";
import { validateDeployment, validateDeploymentUpdate } from "./deployment-validation.ts";
import { defaultDeployment } from "./kinds.ts";

function makeDeployment(edit: (d: Deployment) => void = () => {}): Deployment {
  const d: Deployment = {
    metadata: { name: "web", namespace: "default" },
    spec: {
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "c", image: "nginx" }] },
      },
    },
  };
  defaultDeployment(d);
  edit(d);
  return d;
}

const cases: { name: string; edit: (d: Deployment) => void; want: string[] }[] = [
  { name: "a defaulted deployment is valid", edit: () => {}, want: [] },
  {
    name: "negative replicas",
    edit: (d) => {
      d.spec.replicas = -1;
    },
    want: ["spec.replicas: Invalid value: -1: must be greater than or equal to 0"],
  },
  {
    name: "selector does not match the template labels",
    edit: (d) => {
      d.spec.selector = { matchLabels: { app: "api" } };
    },
    want: [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ],
  },
  {
    name: "missing selector",
    edit: (d) => {
      delete d.spec.selector;
    },
    want: [
      "spec.selector: Required value",
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ],
  },
  {
    name: "empty selector",
    edit: (d) => {
      d.spec.selector = {};
    },
    want: [
      "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment",
    ],
  },
  {
    name: "restartPolicy other than Always",
    edit: (d) => {
      if (d.spec.template.spec !== undefined) d.spec.template.spec.restartPolicy = "OnFailure";
    },
    want: [
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    ],
  },
  {
    name: "maxUnavailable and maxSurge both 0",
    edit: (d) => {
      d.spec.strategy = {
        type: "RollingUpdate",
        rollingUpdate: { maxUnavailable: 0, maxSurge: 0 },
      };
    },
    want: [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
    ],
  },
  {
    name: "maxUnavailable above 100%",
    edit: (d) => {
      d.spec.strategy = {
        type: "RollingUpdate",
        rollingUpdate: { maxUnavailable: "120%", maxSurge: 1 },
      };
    },
    want: [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%',
    ],
  },
  {
    name: "Recreate with rollingUpdate params",
    edit: (d) => {
      d.spec.strategy = { type: "Recreate", rollingUpdate: {} };
    },
    want: [
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ],
  },
  {
    name: "progressDeadlineSeconds not above minReadySeconds",
    edit: (d) => {
      d.spec.minReadySeconds = 600;
    },
    want: [
      "spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds",
    ],
  },
  {
    name: "missing namespace and name",
    edit: (d) => {
      d.metadata = {};
    },
    want: [
      "metadata.name: Required value: name or generateName is required",
      "metadata.namespace: Required value",
    ],
  },
];

for (const c of cases) {
  test(`validateDeployment: ${c.name}`, () => {
    assert.deepEqual(validateDeployment(makeDeployment(c.edit)).map(fieldErrorString), c.want);
  });
}

test("validateDeploymentUpdate: the selector is immutable in apps/v1", () => {
  const old = makeDeployment((d) => {
    d.metadata.resourceVersion = "1";
  });
  const next = makeDeployment((d) => {
    d.metadata.resourceVersion = "1";
    d.spec.selector = { matchLabels: { app: "web", tier: "fe" } };
    d.spec.template.metadata = { labels: { app: "web", tier: "fe" } };
  });
  assert.deepEqual(validateDeploymentUpdate(next, old).map(fieldErrorString), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"fe"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
  ]);
});

test("validateDeploymentUpdate: scaling is allowed", () => {
  const old = makeDeployment((d) => {
    d.metadata.resourceVersion = "1";
  });
  const next = makeDeployment((d) => {
    d.metadata.resourceVersion = "1";
    d.spec.replicas = 5;
  });
  assert.deepEqual(validateDeploymentUpdate(next, old), []);
});
