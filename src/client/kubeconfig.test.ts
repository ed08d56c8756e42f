import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeCertificateAuthority, loadKubeconfig } from "./kubeconfig.ts";

const twoContexts = `apiVersion: v1
kind: Config
clusters:
- name: plain
  cluster: {server: "http://127.0.0.1:6443", insecure-skip-tls-verify: true}
- name: secure
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority-data: ${Buffer.from("PEM").toString("base64")}
users:
- name: admin
  user: {token: secret}
contexts:
- name: dev
  context: {cluster: plain, user: admin, namespace: team}
- name: prod
  context: {cluster: secure, user: admin}
current-context: dev
`;

const cases = [
  {
    name: "the current context's server, token, namespace and insecure flag",
    text: twoContexts,
    context: undefined,
    want: {
      server: "http://127.0.0.1:6443",
      token: "secret",
      insecureSkipTlsVerify: true,
      namespace: "team",
    },
  },
  {
    name: "another context's CA data",
    text: twoContexts,
    context: "prod",
    want: {
      server: "https://10.0.0.1:6443",
      token: "secret",
      certificateAuthorityData: Buffer.from("PEM").toString("base64"),
    },
  },
  {
    name: "a user's client certificate and key data",
    text: JSON.stringify({
      clusters: [{ name: "c", cluster: { server: "https://h:1" } }],
      users: [
        { name: "u", user: { "client-certificate-data": "Q0VSVA==", "client-key-data": "S0VZ" } },
      ],
      contexts: [{ name: "x", context: { cluster: "c", user: "u" } }],
      "current-context": "x",
    }),
    context: undefined,
    want: { server: "https://h:1", clientCertificateData: "Q0VSVA==", clientKeyData: "S0VZ" },
  },
  {
    name: "JSON text and a context without a user",
    text: JSON.stringify({
      clusters: [{ name: "c", cluster: { server: "http://h:1" } }],
      contexts: [{ name: "x", context: { cluster: "c" } }],
      "current-context": "x",
    }),
    context: undefined,
    want: { server: "http://h:1" },
  },
] as const;
for (const c of cases) {
  test(`loadKubeconfig: ${c.name}`, () => {
    assert.deepEqual(loadKubeconfig(c.text, c.context), c.want);
  });
}

const errorCases = [
  { name: "not YAML", text: "a: [", message: /^Cannot load kubeconfig: / },
  { name: "no current-context", text: "clusters: []", message: /current-context is not set/ },
  {
    name: "a missing context",
    text: twoContexts.replace("current-context: dev", "current-context: qa"),
    message: /contexts has no entry named "qa"/,
  },
  {
    name: "a client certificate without its key",
    text: twoContexts.replace("user: {token: secret}", "user: {client-certificate-data: Q0VSVA==}"),
    message:
      /^Cannot load kubeconfig: user "admin" has client-certificate-data without client-key-data$/,
  },
  {
    name: "a missing cluster",
    text: twoContexts.replace("cluster: plain,", "cluster: gone,"),
    message: /clusters has no entry named "gone"/,
  },
] as const;
for (const c of errorCases) {
  test(`loadKubeconfig: ${c.name} is a SyntaxError`, () => {
    assert.throws(() => loadKubeconfig(c.text), { name: "SyntaxError", message: c.message });
  });
}

test("decodeCertificateAuthority: base64 to PEM text", () => {
  const pem = "-----BEGIN CERTIFICATE-----\nMII\n-----END CERTIFICATE-----\n";
  assert.equal(decodeCertificateAuthority(Buffer.from(pem).toString("base64")), pem);
});
