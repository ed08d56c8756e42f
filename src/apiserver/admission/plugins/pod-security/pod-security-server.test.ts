// PodSecurity in the API server's admission chain, over HTTP: Status bodies, Warning headers,
// dry-run namespace relabelling, workloads and gated pods.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ensureNoLeaksInEachTest } from "../../../../testing/leak-check.ts";
import { startTestServer } from "../../../crd/test-fixtures.ts";

ensureNoLeaksInEachTest();

const restrictedDetail =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

const pod = (name: string, extra: object = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: "c", image: "nginx" }], ...extra },
});

const mergePatch = { "content-type": "application/merge-patch+json" };

/** The texts of a response's `Warning: 299 - "…"` headers. */
function warnings(headers: Headers): string[] {
  const raw = headers.get("warning");
  if (raw === null) return [];
  return [...raw.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) =>
    (m[1] ?? "").replace(/\\(.)/g, "$1"),
  );
}

test("PodSecurity over HTTP: enforce answers a pod create with upstream's 403 Status", async () => {
  await using server = await startTestServer();
  const ns = await server.request("POST", "/api/v1/namespaces", {
    metadata: { name: "team-a", labels: { "pod-security.kubernetes.io/enforce": "restricted" } },
  });
  assert.equal(ns.status, 201, ns.text);
  const denied = await server.request("POST", "/api/v1/namespaces/team-a/pods", pod("p"));
  assert.equal(denied.status, 403, denied.text);
  assert.deepEqual(denied.body, {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `pods "p" is forbidden: violates PodSecurity "restricted:latest": ${restrictedDetail}`,
    reason: "Forbidden",
    details: { name: "p", kind: "pods" },
    code: 403,
  });
  assert.deepEqual(warnings(denied.headers), []);
});

test("PodSecurity over HTTP: a pod gated for the queue is still checked at create", async () => {
  await using server = await startTestServer();
  await server.request("POST", "/api/v1/namespaces", {
    metadata: { name: "team-a", labels: { "pod-security.kubernetes.io/enforce": "baseline" } },
  });
  const gated = pod("g", { schedulingGates: [{ name: "kueue.x-k8s.io/admission" }] });
  gated.spec.containers[0] = {
    name: "c",
    image: "nginx",
    securityContext: { privileged: true },
  } as (typeof gated.spec.containers)[0];
  const denied = await server.request("POST", "/api/v1/namespaces/team-a/pods", gated);
  assert.equal(denied.status, 403, denied.text);
  assert.equal(
    denied.body.message,
    'pods "g" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
  );
});

test("PodSecurity over HTTP: warn mode sends a Warning header on pods and workloads", async () => {
  await using server = await startTestServer();
  await server.request("POST", "/api/v1/namespaces", {
    metadata: { name: "team-a", labels: { "pod-security.kubernetes.io/warn": "restricted" } },
  });
  const created = await server.request("POST", "/api/v1/namespaces/team-a/pods", pod("p"));
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(warnings(created.headers), [
    `would violate PodSecurity "restricted:latest": ${restrictedDetail}`,
  ]);
  const rs = await server.request("POST", "/apis/apps/v1/namespaces/team-a/replicasets", {
    metadata: { name: "web" },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: pod("x").spec },
    },
  });
  assert.equal(rs.status, 201, rs.text);
  assert.deepEqual(warnings(rs.headers), [
    `would violate PodSecurity "restricted:latest": ${restrictedDetail}`,
  ]);
});

test("PodSecurity over HTTP: labelling a namespace warns about its pods, also on dry run", async () => {
  await using server = await startTestServer();
  await server.request("POST", "/api/v1/namespaces", { metadata: { name: "team-a" } });
  for (const name of ["web-1", "web-2"]) {
    const r = await server.request("POST", "/api/v1/namespaces/team-a/pods", pod(name));
    assert.equal(r.status, 201, r.text);
  }
  const labels = { metadata: { labels: { "pod-security.kubernetes.io/enforce": "restricted" } } };
  const expected = [
    'existing pods in namespace "team-a" violate the new PodSecurity enforce level "restricted:latest"',
    "web-1 (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
  ];
  // The pods the watch cache has not seen yet would be missed: wait for it.
  const list = await server.request("GET", "/api/v1/namespaces/team-a/pods");
  await server.settle(list.body.metadata.resourceVersion);
  const dry = await server.request(
    "PATCH",
    "/api/v1/namespaces/team-a?dryRun=All",
    labels,
    mergePatch,
  );
  assert.equal(dry.status, 200, dry.text);
  assert.deepEqual(warnings(dry.headers), expected);
  const unchanged = await server.request("GET", "/api/v1/namespaces/team-a");
  assert.equal(unchanged.body.metadata.labels?.["pod-security.kubernetes.io/enforce"], undefined);
  const real = await server.request("PATCH", "/api/v1/namespaces/team-a", labels, mergePatch);
  assert.equal(real.status, 200, real.text);
  assert.deepEqual(warnings(real.headers), expected);
  // Existing pods keep running; label changes on them are not re-checked.
  const relabel = await server.request(
    "PATCH",
    "/api/v1/namespaces/team-a/pods/web-1",
    { metadata: { labels: { tier: "web" } } },
    mergePatch,
  );
  assert.equal(relabel.status, 200, relabel.text);
});

test("PodSecurity over HTTP: a namespace label naming no level is a 422", async () => {
  await using server = await startTestServer();
  const bad = await server.request("POST", "/api/v1/namespaces", {
    metadata: { name: "team-a", labels: { "pod-security.kubernetes.io/enforce": "strict" } },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.body.message,
    'Namespace "team-a" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
  );
  assert.deepEqual(bad.body.details, {
    name: "team-a",
    kind: "Namespace",
    causes: [
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "strict": must be one of privileged, baseline, restricted',
        field: "metadata.labels[pod-security.kubernetes.io/enforce]",
      },
    ],
  });
});

test("PodSecurity over HTTP: security fields are typed as upstream's, so bad types never reach the checks", async () => {
  await using server = await startTestServer();
  const bad = await server.request("POST", "/api/v1/namespaces/default/pods", {
    metadata: { name: "p" },
    spec: { containers: [{ name: "c", image: "nginx", securityContext: { privileged: "yes" } }] },
  });
  assert.equal(bad.status, 400, bad.text);
  assert.equal(
    bad.body.message,
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field SecurityContext.spec.containers.securityContext.privileged of type bool',
  );
  const typo = await server.request(
    "POST",
    "/api/v1/namespaces/default/pods?fieldValidation=Strict",
    {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "nginx", securityContext: { privilegd: true } }] },
    },
  );
  assert.equal(typo.status, 400, typo.text);
  assert.equal(
    typo.body.message,
    'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].securityContext.privilegd"',
  );
});

test("PodSecurity over HTTP: a flexVolume is a volume type of its own, restricted", async () => {
  await using server = await startTestServer();
  await server.request("POST", "/api/v1/namespaces", {
    metadata: { name: "team-a", labels: { "pod-security.kubernetes.io/enforce": "restricted" } },
  });
  const denied = await server.request(
    "POST",
    "/api/v1/namespaces/team-a/pods?fieldValidation=Strict",
    {
      metadata: { name: "p" },
      spec: {
        securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
        volumes: [{ name: "v", flexVolume: { driver: "example/lvm" } }],
        containers: [
          {
            name: "c",
            image: "nginx",
            securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
          },
        ],
      },
    },
  );
  assert.equal(denied.status, 403, denied.text);
  assert.equal(
    denied.body.message,
    'pods "p" is forbidden: violates PodSecurity "restricted:latest": restricted volume types (volume "v" uses restricted volume type "flexVolume")',
  );
});
