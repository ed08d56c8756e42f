/**
 * `gantry apiserver` on an etcd that serves TLS and requires client certificates
 * (`--client-cert-auth`), reached with kube-apiserver's `--etcd-cafile`, `--etcd-certfile` and
 * `--etcd-keyfile`: kubectl creates a pod and reads it back, and the pod is in etcd.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { openEtcdStorage } from "../../storage/index.ts";
import { startEtcd } from "../../testing/etcd.ts";
import {
  type KubectlResult,
  kubectl,
  kubectlOk as ok,
  runGantry,
  startGantry,
} from "../../testing/gantry-process.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

test("gantry apiserver --etcd-cafile --etcd-certfile --etcd-keyfile: kubectl creates and gets a pod stored in a TLS etcd", {
  timeout: 180_000,
}, async () => {
  await using etcd = await startEtcd({ members: 1, tls: true });
  const tls = etcd.tls;
  assert.ok(tls !== undefined, "the test etcd serves TLS");
  await using gantry = await startGantry({
    command: "apiserver",
    storage: "etcd",
    etcdEndpoints: etcd.endpoints,
    etcdPrefix: "/gantry-tls",
    extraArgs: [
      "--etcd-cafile",
      tls.caFile,
      "--etcd-certfile",
      tls.clientCertFile,
      "--etcd-keyfile",
      tls.clientKeyFile,
    ],
  });
  const run = (args: string[]): Promise<KubectlResult> => kubectl(gantry, "", args);
  ok(await run(["run", "web", "--image=nginx", "--restart=Never"]), "run");
  const got = JSON.parse(ok(await run(["get", "pod", "web", "-o", "json"]), "get")) as {
    metadata: { name: string; resourceVersion: string };
    spec: { containers: { image: string }[] };
  };
  assert.equal(got.metadata.name, "web");
  assert.equal(got.spec.containers[0]?.image, "nginx");

  // The pod is in etcd under the prefix, at the resourceVersion kubectl saw.
  await using store = await openEtcdStorage({
    endpoints: etcd.endpoints,
    prefix: "/gantry-tls",
    tls: { caPem: tls.ca.certPem, certPem: tls.client.certPem, keyPem: tls.client.keyPem },
  });
  const stored = await store.get("/registry/pods/default/web");
  assert.ok(stored !== undefined, "the pod should be stored in etcd");
  assert.equal(String(stored.revision), got.metadata.resourceVersion);
});

test("gantry apiserver: an etcd client certificate without its key is refused before anything starts", {
  timeout: 60_000,
}, async () => {
  await using etcd = await startEtcd({ members: 1, tls: true });
  const tls = etcd.tls;
  assert.ok(tls !== undefined, "the test etcd serves TLS");
  const result = await runGantry([
    "apiserver",
    "--port",
    "0",
    "--storage",
    "etcd",
    "--etcd-endpoints",
    etcd.endpoints.join(","),
    "--etcd-certfile",
    tls.clientCertFile,
  ]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /gantry: Cannot use --etcd-certfile without --etcd-keyfile: give its private key/,
  );
});
