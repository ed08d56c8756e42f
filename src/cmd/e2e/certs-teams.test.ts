/**
 * A team user with a client certificate: `gantry certs issue --user alice --group team-a`
 * against `gantry up --tls` with RBAC, driven by kubectl 1.27 and 1.33 with the kubeconfig it
 * wrote. The group in the certificate's O is what the RoleBinding names.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { stringify } from "yaml";
import { makeCertificate } from "../../testing/certificates.ts";
import {
  eventually,
  type GantryProcess,
  kubectl,
  runGantry,
  singleClusterQueueSetup,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

describe("gantry certs issue: a team user with a client certificate under RBAC", () => {
  let gantry: GantryProcess;
  const scratch = mkdtempSync(join(tmpdir(), "gantry-certs-e2e-"));
  const alice = join(scratch, "alice.kubeconfig");

  const admin = (args: string[]) => kubectl(gantry, "1.33", args);
  const asAlice = (version: string, args: string[], kubeconfig = alice, input?: string) =>
    kubectl({ kubeconfig, dataDir: scratch }, version, args, input === undefined ? {} : { input });
  const ok = async (run: Promise<{ code: number; stdout: string; stderr: string }>) => {
    const result = await run;
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };

  before(async () => {
    gantry = await startGantry({
      tls: true,
      storage: "memory",
      extraArgs: ["--nodes", "1"],
      timeoutMs: 60_000,
    });
    const issued = await runGantry([
      "certs",
      "issue",
      "--user",
      "alice",
      "--group",
      "team-a",
      "--data-dir",
      gantry.dataDir,
      "--out",
      alice,
    ]);
    assert.equal(issued.code, 0, issued.stderr);
    assert.equal(issued.stdout, `kubeconfig: ${alice}\n`);
    await ok(admin(["create", "namespace", "team-a"]));
    await ok(admin(["create", "namespace", "team-b"]));
    await ok(
      admin([
        "create",
        "rolebinding",
        "team-a-edit",
        "--clusterrole=edit",
        "--group=team-a",
        "-n",
        "team-a",
      ]),
    );
    // Until the watch cache has the binding, can-i says no.
    await eventually(async () => {
      const result = await asAlice("1.33", ["auth", "can-i", "create", "pods", "-n", "team-a"]);
      assert.equal(result.stdout.trim(), "yes", "alice may create pods in team-a");
    });
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
    rmSync(scratch, { recursive: true, force: true });
  });
  ensureNoLeaksAfterSuite();

  test("kubectl 1.33 auth whoami: the certificate's CN and O", async () => {
    const out = await ok(asAlice("1.33", ["auth", "whoami"]));
    assert.match(out, /Username\s+alice\n/);
    assert.match(out, /Groups\s+\[team-a system:authenticated\]/);
  });

  for (const version of ["1.27", "1.33"]) {
    const pod = `web-${version.replace(".", "-")}`;

    test(`kubectl ${version}: alice runs a pod in team-a and it gets scheduled and runs`, async () => {
      await ok(asAlice(version, ["run", pod, "--image=nginx", "-n", "team-a"]));
      await eventually(
        async () => {
          const phase = await ok(
            asAlice(version, ["get", "pod", pod, "-n", "team-a", "-o", "jsonpath={.status.phase}"]),
          );
          assert.equal(phase, "Running", `pod ${pod} runs`);
        },
        30_000,
        200,
      );
    });

    const denied: { name: string; args: string[]; stderr: string }[] = [
      {
        name: "pods in another team's namespace",
        args: ["run", pod, "--image=nginx", "-n", "team-b"],
        stderr:
          'Error from server (Forbidden): pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "team-b"\n',
      },
      {
        name: "nodes",
        args: ["get", "nodes"],
        stderr:
          'Error from server (Forbidden): nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope\n',
      },
      {
        name: "ClusterQueues",
        args: ["get", "clusterqueues"],
        stderr:
          'Error from server (Forbidden): clusterqueues.kueue.x-k8s.io is forbidden: User "alice" cannot list resource "clusterqueues" in API group "kueue.x-k8s.io" at the cluster scope\n',
      },
    ];
    for (const c of denied) {
      test(`kubectl ${version}: 403 for alice, as kube-apiserver words it: ${c.name}`, async () => {
        const result = await asAlice(version, c.args);
        assert.equal(result.code, 1);
        assert.equal(result.stderr, c.stderr);
      });
    }
  }

  test("kubectl 1.33: alice queues a pod in her namespace's LocalQueue and Kueue admits it", async () => {
    // The admin sets up Kueue's single ClusterQueue, its LocalQueue living in team-a.
    const setup = singleClusterQueueSetup(4).map((object) =>
      (object as { kind: string }).kind === "LocalQueue"
        ? { ...object, metadata: { namespace: "team-a", name: "user-queue" } }
        : object,
    );
    await ok(
      kubectl(gantry, "1.33", ["apply", "-f", "-"], {
        input: setup.map((object) => stringify(object)).join("---\n"),
      }),
    );
    const pod = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: "queued",
        namespace: "team-a",
        labels: { "kueue.x-k8s.io/queue-name": "user-queue" },
      },
      spec: {
        containers: [{ name: "c", image: "nginx", resources: { requests: { cpu: "1" } } }],
      },
    };
    await ok(asAlice("1.33", ["create", "-f", "-"], alice, stringify(pod)));
    await eventually(
      async () => {
        const out = await ok(
          asAlice("1.33", [
            "get",
            "pod",
            "queued",
            "-n",
            "team-a",
            "-o",
            "jsonpath={.spec.schedulingGates}|{.status.phase}",
          ]),
        );
        assert.equal(out, "|Running", "Kueue removed the admission gate and the pod runs");
      },
      30_000,
      200,
    );
    // The ClusterQueue itself stays the admin's.
    const result = await asAlice("1.33", ["delete", "clusterqueue", "cluster-queue"]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      'Error from server (Forbidden): clusterqueues.kueue.x-k8s.io "cluster-queue" is forbidden: User "alice" cannot delete resource "clusterqueues" in API group "kueue.x-k8s.io" at the cluster scope\n',
    );
  });

  test("kubectl 1.33: an expired certificate of the cluster CA is refused (401)", async () => {
    const ca = {
      certPem: readFileSync(join(gantry.dataDir, "pki", "ca.crt"), "utf8"),
      keyPem: readFileSync(join(gantry.dataDir, "pki", "ca.key"), "utf8"),
    };
    const hour = 60 * 60 * 1000;
    const expired = makeCertificate({
      commonName: "alice",
      organizations: ["team-a"],
      issuer: ca,
      notBefore: new Date(Date.now() - 48 * hour),
      notAfter: new Date(Date.now() - hour),
    });
    const base64 = (text: string) => Buffer.from(text).toString("base64");
    const path = join(scratch, "expired.kubeconfig");
    writeFileSync(
      path,
      readFileSync(alice, "utf8")
        .replace(
          /client-certificate-data: .*/,
          `client-certificate-data: ${base64(expired.certPem)}`,
        )
        .replace(/client-key-data: .*/, `client-key-data: ${base64(expired.keyPem)}`),
    );
    const result = await asAlice("1.33", ["get", "pods", "-n", "team-a"], path);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      // client-go words a 401 on discovery differently from one on the list (discovery cached).
      /^error: You must be logged in to the server \((Unauthorized|the server has asked for the client to provide credentials)\)$/m,
    );
  });
});
