import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { HttpIngressPath, Ingress, IngressBackend, IngressSpec } from "./ingress.ts";
import {
  validateIngressCreate,
  validateIngressStatusUpdate,
  validateIngressUpdate,
} from "./ingress-validation.ts";

const metadata = { name: "web", namespace: "default", resourceVersion: "1" };
const svc: IngressBackend = { service: { name: "svc1", port: { number: 8080 } } };
const prefix = (path: string, backend: IngressBackend = svc): HttpIngressPath => ({
  path,
  pathType: "Prefix",
  backend,
});
const ingress = (spec: IngressSpec, annotations?: Record<string, string>): Ingress => ({
  metadata: annotations === undefined ? metadata : { ...metadata, annotations },
  spec,
});
const rule = (host: string, ...paths: HttpIngressPath[]): IngressSpec => ({
  rules: [{ host, http: { paths } }],
});

const dns1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const wildcard =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const cases: { name: string; ingress: Ingress; want: string[] }[] = [
  {
    name: "kubectl create ingress's rule",
    ingress: ingress(rule("foo.com", prefix("/bar"))),
    want: [],
  },
  {
    name: "a default backend alone",
    ingress: ingress({ defaultBackend: svc }),
    want: [],
  },
  {
    name: "neither rules nor a default backend",
    ingress: ingress({}),
    want: [
      "spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified",
    ],
  },
  {
    name: "an empty rules list",
    ingress: ingress({ rules: [] }),
    want: [
      "spec: Invalid value: []networking.IngressRule{}: either `defaultBackend` or `rules` must be specified",
    ],
  },
  {
    name: "a wildcard host",
    ingress: ingress(rule("*.foo.com", prefix("/"))),
    want: [],
  },
  {
    name: "a bad wildcard host",
    ingress: ingress(rule("foo.*.com", prefix("/"))),
    want: [`spec.rules[0].host: Invalid value: "foo.*.com": ${wildcard}`],
  },
  {
    name: "an IP address as host",
    ingress: ingress(rule("10.0.0.1", prefix("/"))),
    want: ['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address'],
  },
  {
    name: "an upper-case host",
    ingress: ingress(rule("Foo.com", prefix("/"))),
    want: [`spec.rules[0].host: Invalid value: "Foo.com": ${dns1123}`],
  },
  {
    name: "no pathType",
    ingress: ingress(rule("foo.com", { path: "/", backend: svc })),
    want: ["spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"],
  },
  {
    name: "an unknown pathType",
    ingress: ingress(rule("foo.com", { path: "/", pathType: "Regex" as never, backend: svc })),
    want: [
      'spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
    ],
  },
  {
    name: "a relative Prefix path",
    ingress: ingress(rule("foo.com", prefix("bar"))),
    want: ['spec.rules[0].http.paths[0].path: Invalid value: "bar": must be an absolute path'],
  },
  {
    name: "an empty Exact path",
    ingress: ingress(rule("foo.com", { pathType: "Exact", backend: svc })),
    want: ['spec.rules[0].http.paths[0].path: Invalid value: "": must be an absolute path'],
  },
  {
    name: "Prefix paths with '//' and a '/..' suffix",
    ingress: ingress(rule("foo.com", prefix("/a//b"), prefix("/a/.."))),
    want: [
      "spec.rules[0].http.paths[0].path: Invalid value: \"/a//b\": must not contain '//'",
      "spec.rules[0].http.paths[1].path: Invalid value: \"/a/..\": cannot end with '/..'",
    ],
  },
  {
    name: "ImplementationSpecific allows an empty path and any sequence, but not a relative one",
    ingress: ingress(
      rule(
        "foo.com",
        { pathType: "ImplementationSpecific", backend: svc },
        { path: "/a//b", pathType: "ImplementationSpecific", backend: svc },
        { path: "x", pathType: "ImplementationSpecific", backend: svc },
      ),
    ),
    want: ['spec.rules[0].http.paths[2].path: Invalid value: "x": must be an absolute path'],
  },
  {
    name: "an http rule without paths",
    ingress: ingress({ rules: [{ host: "foo.com", http: { paths: [] } }] }),
    want: ["spec.rules[0].http.paths: Required value"],
  },
  {
    name: "a backend with both service and resource",
    ingress: ingress({
      defaultBackend: {
        ...svc,
        resource: { apiGroup: "k8s.example.com", kind: "Bucket", name: "b" },
      },
    }),
    want: ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends'],
  },
  {
    name: "a backend with neither",
    ingress: ingress({ defaultBackend: {} }),
    want: ['spec.defaultBackend: Invalid value: "": resource or service backend is required'],
  },
  {
    name: "a resource backend without kind, with a '/' in its name",
    ingress: ingress({ defaultBackend: { resource: { kind: "", name: "a/b" } } }),
    want: [
      "spec.defaultBackend.resource.kind: Required value",
      "spec.defaultBackend.resource.name: Invalid value: \"a/b\": may not contain '/'",
    ],
  },
  {
    name: "a service port with both name and number",
    ingress: ingress({
      defaultBackend: { service: { name: "svc1", port: { name: "http", number: 80 } } },
    }),
    want: ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number'],
  },
  {
    name: "a service port with neither",
    ingress: ingress({ defaultBackend: { service: { name: "svc1", port: {} } } }),
    want: ["spec.defaultBackend: Required value: port name or number is required"],
  },
  {
    name: "an out-of-range port number and a bad service name",
    ingress: ingress(
      rule("foo.com", prefix("/", { service: { name: "1svc", port: { number: 70000 } } })),
    ),
    want: [
      `spec.rules[0].http.paths[0].backend.service.name: Invalid value: "1svc": ${dns1035}`,
      "spec.rules[0].http.paths[0].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ],
  },
  {
    name: "a bad port name",
    ingress: ingress({ defaultBackend: { service: { name: "svc1", port: { name: "HTTP" } } } }),
    want: [
      'spec.defaultBackend.service.port.name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.defaultBackend.service.port.name: Invalid value: "HTTP": must contain at least one letter (a-z)',
    ],
  },
  {
    name: "TLS hosts (a wildcard one) and a bad secret name",
    ingress: ingress({
      defaultBackend: svc,
      tls: [{ hosts: ["*.foo.com", "Bad"], secretName: "Tls_Secret" }],
    }),
    want: [
      `spec.tls[0].hosts[1]: Invalid value: "Bad": ${dns1123}`,
      `spec.tls[0].secretName: Invalid value: "Tls_Secret": ${dns1123}`,
    ],
  },
  {
    name: "a bad ingressClassName",
    ingress: ingress({ defaultBackend: svc, ingressClassName: "Nginx" }),
    want: [`spec.ingressClassName: Invalid value: "Nginx": ${dns1123}`],
  },
  {
    name: "the class annotation disagreeing with ingressClassName",
    ingress: ingress(
      { defaultBackend: svc, ingressClassName: "nginx" },
      { "kubernetes.io/ingress.class": "traefik" },
    ),
    want: [
      'annotations.kubernetes.io/ingress.class: Invalid value: "traefik": must match `ingressClassName` when both are specified',
    ],
  },
  {
    name: "the class annotation agreeing with ingressClassName",
    ingress: ingress(
      { defaultBackend: svc, ingressClassName: "nginx" },
      { "kubernetes.io/ingress.class": "nginx" },
    ),
    want: [],
  },
];

for (const c of cases) {
  test(`validateIngressCreate: ${c.name}`, () => {
    assert.deepEqual(validateIngressCreate(c.ingress).map(fieldErrorString), c.want);
  });
}

test("validateIngressUpdate: the annotation conflict is a create-only check", () => {
  const old = ingress({ defaultBackend: svc, ingressClassName: "nginx" });
  const updated = ingress(
    { defaultBackend: svc, ingressClassName: "nginx" },
    { "kubernetes.io/ingress.class": "traefik" },
  );
  assert.deepEqual(validateIngressUpdate(updated, old).map(fieldErrorString), []);
});

test("validateIngressUpdate: an invalid secret name already stored may stay", () => {
  const old = ingress({ defaultBackend: svc, tls: [{ secretName: "Old_Secret" }] });
  const updated = ingress({ defaultBackend: svc, tls: [{ secretName: "Other_Secret" }] });
  assert.deepEqual(validateIngressUpdate(updated, old).map(fieldErrorString), []);
  assert.deepEqual(
    validateIngressUpdate(updated, ingress({ defaultBackend: svc })).map(fieldErrorString),
    [`spec.tls[0].secretName: Invalid value: "Other_Secret": ${dns1123}`],
  );
});

test("validateIngressUpdate: invalid rules under a wildcard host already stored may stay", () => {
  const bad = ingress(rule("*.foo.com", { path: "rel", pathType: "Prefix", backend: svc }));
  assert.deepEqual(validateIngressUpdate(bad, bad).map(fieldErrorString), []);
  assert.deepEqual(
    validateIngressUpdate(bad, ingress(rule("*.foo.com", prefix("/")))).map(fieldErrorString),
    ['spec.rules[0].http.paths[0].path: Invalid value: "rel": must be an absolute path'],
  );
});

test("validateIngressUpdate: the name is immutable", () => {
  const old = ingress({ defaultBackend: svc });
  const renamed: Ingress = { ...old, metadata: { ...metadata, name: "other" } };
  assert.deepEqual(validateIngressUpdate(renamed, old).map(fieldErrorString), [
    'metadata.name: Invalid value: "other": field is immutable',
  ]);
});

test("validateIngressStatusUpdate: load-balancer IPs and hostnames", () => {
  const old = ingress({ defaultBackend: svc });
  const updated: Ingress = {
    ...old,
    status: {
      loadBalancer: {
        ingress: [{ ip: "10.0.0.10" }, { ip: "not-an-ip" }, { hostname: "10.0.0.11" }],
      },
    },
  };
  assert.deepEqual(validateIngressStatusUpdate(updated, old).map(fieldErrorString), [
    'status.loadBalancer.ingress[1].ip: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    'status.loadBalancer.ingress[2].hostname: Invalid value: "10.0.0.11": must be a DNS name, not an IP address',
  ]);
});
