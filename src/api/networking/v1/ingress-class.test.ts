import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { applyIngressClassDefaults, applyIngressDefaults } from "./defaults.ts";
import type { Ingress, IngressClass, IngressClassSpec } from "./ingress.ts";
import { validateIngressClass, validateIngressClassUpdate } from "./ingress-class-validation.ts";
import { ingressClassKind, ingressKind, networkPolicyKind } from "./kinds.ts";

const metadata = { name: "nginx", resourceVersion: "1" };
const ingressClass = (spec: IngressClassSpec): IngressClass => ({ metadata, spec });

test("applyIngressClassDefaults: a parameters reference without scope is Cluster-scoped", () => {
  const c = ingressClass({
    controller: "k8s.io/ingress-nginx",
    parameters: { kind: "Params", name: "p" },
  });
  applyIngressClassDefaults(c);
  assert.equal(c.spec?.parameters?.scope, "Cluster");
  const namespaced = ingressClass({
    controller: "k8s.io/ingress-nginx",
    parameters: { kind: "Params", name: "p", scope: "Namespace", namespace: "x" },
  });
  applyIngressClassDefaults(namespaced);
  assert.equal(namespaced.spec?.parameters?.scope, "Namespace");
});

test("applyIngressDefaults: no pathType default, empty status value structs", () => {
  const ingress: Ingress = {
    metadata: { name: "web", namespace: "default" },
    spec: {
      rules: [{ host: "foo.com", http: { paths: [{ path: "/", backend: {} }] } }],
    },
  };
  applyIngressDefaults(ingress);
  assert.equal(ingress.spec?.rules?.[0]?.http?.paths[0]?.pathType, undefined);
  assert.deepEqual(ingress.status, { loadBalancer: {} });
});

const dns1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const cases: { name: string; spec: IngressClassSpec; want: string[] }[] = [
  { name: "ingress-nginx's class", spec: { controller: "k8s.io/ingress-nginx" }, want: [] },
  {
    name: "no controller",
    spec: {},
    want: ["spec.controller: Required value"],
  },
  {
    name: "a controller without a domain prefix",
    spec: { controller: "nginx" },
    want: [
      'spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
    ],
  },
  {
    name: "a controller with a bad domain and a bad path",
    spec: { controller: "Acme.io/a b" },
    want: [
      `spec.controller: Invalid value: "Acme.io": ${dns1123}`,
      "spec.controller: Invalid value: \"a b\": must be a valid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
    ],
  },
  {
    name: "a controller longer than 250 bytes",
    spec: { controller: `acme.io/${"x".repeat(250)}` },
    want: ["spec.controller: Too long: may not be more than 250 bytes"],
  },
  {
    name: "parameters: cluster-scoped with a namespace",
    spec: {
      controller: "acme.io/lb",
      parameters: {
        apiGroup: "acme.io",
        kind: "Params",
        name: "p",
        scope: "Cluster",
        namespace: "x",
      },
    },
    want: ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
  },
  {
    name: "parameters: namespace-scoped without a namespace",
    spec: {
      controller: "acme.io/lb",
      parameters: { kind: "Params", name: "p", scope: "Namespace" },
    },
    want: ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
  },
  {
    name: "parameters: no kind, a '%' in the name, an unknown scope",
    spec: { controller: "acme.io/lb", parameters: { kind: "", name: "a%b", scope: "Global" } },
    want: [
      "spec.parameters.kind: Required value",
      "spec.parameters.name: Invalid value: \"a%b\": may not contain '%'",
      'spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"',
    ],
  },
  {
    name: "parameters: no scope (before defaulting)",
    spec: { controller: "acme.io/lb", parameters: { kind: "Params", name: "p" } },
    want: ["spec.parameters.scope: Required value"],
  },
];

for (const c of cases) {
  test(`validateIngressClass: ${c.name}`, () => {
    assert.deepEqual(validateIngressClass(ingressClass(c.spec)).map(fieldErrorString), c.want);
  });
}

test("validateIngressClass: cluster-scoped, a namespace is forbidden", () => {
  const c: IngressClass = {
    metadata: { name: "nginx", namespace: "default" },
    spec: { controller: "k8s.io/ingress-nginx" },
  };
  assert.deepEqual(validateIngressClass(c).map(fieldErrorString), [
    "metadata.namespace: Forbidden: not allowed on this type",
  ]);
});

test("validateIngressClassUpdate: spec.controller is immutable, parameters may change", () => {
  const old = ingressClass({ controller: "k8s.io/ingress-nginx" });
  assert.deepEqual(
    validateIngressClassUpdate(ingressClass({ controller: "acme.io/lb" }), old).map(
      fieldErrorString,
    ),
    ['spec.controller: Invalid value: "acme.io/lb": field is immutable'],
  );
  const withParameters = ingressClass({
    controller: "k8s.io/ingress-nginx",
    parameters: { kind: "Params", name: "p", scope: "Cluster" },
  });
  assert.deepEqual(validateIngressClassUpdate(withParameters, old).map(fieldErrorString), []);
});

test("kinds: names, scopes, short names and subresources as kube-apiserver serves them", () => {
  assert.deepEqual(
    [ingressKind, ingressClassKind, networkPolicyKind].map((k) => [
      k.resource,
      k.kind,
      k.namespaced,
      k.shortNames,
      k.subresources.status,
    ]),
    [
      ["ingresses", "Ingress", true, ["ing"], true],
      ["ingressclasses", "IngressClass", false, [], false],
      ["networkpolicies", "NetworkPolicy", true, ["netpol"], false],
    ],
  );
  for (const kind of [ingressKind, ingressClassKind, networkPolicyKind]) {
    assert.deepEqual(kind.schema.schema["x-kubernetes-group-version-kind"], [
      { group: "networking.k8s.io", version: "v1", kind: kind.kind },
    ]);
  }
});
