import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import {
  applyPodTemplateDefaults,
  type PodTemplate,
  podTemplateKind,
  validatePodTemplate,
  validatePodTemplateUpdate,
} from "./pod-template-kind.ts";

const template = (extra: Partial<PodTemplate> = {}): PodTemplate => {
  const t: PodTemplate = {
    metadata: { name: "web", namespace: "default", resourceVersion: "1" },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "nginx", image: "nginx:1.27" }] },
    },
    ...extra,
  };
  applyPodTemplateDefaults(t);
  return t;
};

test("validatePodTemplate: a valid template, defaulted as a pod's spec", () => {
  const t = template();
  applyPodTemplateDefaults(t);
  assert.deepEqual(validatePodTemplate(t).map(fieldErrorString), []);
  assert.equal(t.template?.spec?.restartPolicy, "Always", "the pod spec defaults were applied");
});

test("validatePodTemplate: errors are reported under template", () => {
  const t = template({
    template: { metadata: { labels: { "bad key!": "x" } }, spec: { containers: [] } },
  });
  const errs = validatePodTemplate(t).map(fieldErrorString);
  assert.ok(
    errs.some((e) => e.startsWith('template.labels: Invalid value: "bad key!"')),
    `a bad label is reported at template.labels: ${errs.join("; ")}`,
  );
  assert.ok(
    errs.includes("template.spec.containers: Required value"),
    `no containers is reported at template.spec.containers: ${errs.join("; ")}`,
  );
});

test("validatePodTemplate: a template without a name or namespace", () => {
  const errs = validatePodTemplate({ metadata: {}, template: template().template ?? {} }).map(
    fieldErrorString,
  );
  assert.deepEqual(errs, [
    "metadata.name: Required value: name or generateName is required",
    "metadata.namespace: Required value",
  ]);
});

test("validatePodTemplateUpdate: the template may change, the name may not", () => {
  const old = template();
  const next = template();
  const image = next.template?.spec?.containers[0];
  assert.ok(image !== undefined, "the template has a container");
  image.image = "nginx:1.28";
  assert.deepEqual(validatePodTemplateUpdate(next, old).map(fieldErrorString), []);
  const renamed = template({
    metadata: { name: "other", namespace: "default", resourceVersion: "1" },
  });
  assert.ok(
    validatePodTemplateUpdate(renamed, old).some((e) => e.field === "metadata.name"),
    "a rename is refused at metadata.name",
  );
});

test("podTemplateKind: namespaced podtemplates without a status subresource", () => {
  assert.equal(podTemplateKind.resource, "podtemplates");
  assert.equal(podTemplateKind.namespaced, true);
  assert.equal(podTemplateKind.subresources.status, false);
});
