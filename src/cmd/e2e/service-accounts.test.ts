/**
 * Service accounts end to end: `gantry up --tls`, then real kubectl 1.27 and 1.33 create bound
 * tokens (`kubectl create token`) and use them (`--kubeconfig` holding only the token), with
 * RBAC deciding what a ServiceAccount may do; pod-bound and expired tokens stop working; pods
 * run as their namespace's `default` ServiceAccount with the projected token volume.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { serviceAccountClaims, signCompact, signingKeyFromPem } from "../../apiserver/index.ts";
import {
  eventually,
  type GantryProcess,
  type KubectlResult,
  kubectl,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

const versions = ["1.27", "1.33"] as const;
const ns = "ci-team";
const issuer = "https://kubernetes.default.svc.cluster.local";
const unauthorized = "error: You must be logged in to the server (Unauthorized)\n";

describe("gantry up --tls: ServiceAccount tokens with kubectl", () => {
  let gantry: GantryProcess;
  const scratch = mkdtempSync(join(tmpdir(), "gantry-sa-e2e-"));
  let kubeconfigs = 0;

  const admin = (args: readonly string[], version = "1.33"): Promise<KubectlResult> =>
    kubectl(gantry, version, args);
  const ok = async (run: Promise<KubectlResult>): Promise<string> => {
    const result = await run;
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };
  /** kubectl with a kubeconfig that holds nothing but the server, its CA and `token`. */
  const withToken = (token: string, version: string, args: readonly string[]) => {
    const path = join(scratch, `token-${kubeconfigs++}.kubeconfig`);
    writeFileSync(
      path,
      JSON.stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [
          {
            name: "gantry",
            cluster: {
              server: gantry.url,
              "certificate-authority-data": Buffer.from(gantry.caPem ?? "").toString("base64"),
            },
          },
        ],
        users: [{ name: "sa", user: { token } }],
        contexts: [{ name: "sa", context: { cluster: "gantry", user: "sa", namespace: ns } }],
        "current-context": "sa",
      }),
    );
    return kubectl({ kubeconfig: path, dataDir: scratch }, version, args);
  };
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());

  before(async () => {
    gantry = await startGantry({
      tls: true,
      storage: "memory",
      extraArgs: ["--nodes", "1"],
      timeoutMs: 60_000,
    });
    await ok(admin(["create", "namespace", ns]));
    await ok(admin(["create", "serviceaccount", "ci", "-n", ns]));
    await ok(
      admin([
        "create",
        "rolebinding",
        "ci-view",
        "--clusterrole=view",
        "--serviceaccount",
        `${ns}:ci`,
        "-n",
        ns,
      ]),
    );
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
    rmSync(scratch, { recursive: true, force: true });
  });
  ensureNoLeaksAfterSuite();

  for (const version of versions) {
    test(`kubectl ${version}: create token, then the ServiceAccount may do what its RoleBinding grants and gets upstream's 403 otherwise`, async () => {
      const token = (await ok(admin(["create", "token", "ci", "-n", ns], version))).trim();
      const claims = claimsOf(token);
      assert.deepEqual(claims.aud, [issuer]);
      assert.equal(claims.exp - claims.iat, 3600);
      assert.equal(claims.sub, `system:serviceaccount:${ns}:ci`);
      await eventually(async () => {
        const allowed = await withToken(token, version, ["get", "configmaps", "-n", ns]);
        assert.equal(allowed.code, 0, allowed.stderr);
        assert.match(allowed.stdout, /^kube-root-ca\.crt\s+1\s+/m);
      });
      const listElsewhere = await withToken(token, version, ["get", "pods", "-n", "default"]);
      assert.equal(listElsewhere.code, 1);
      assert.equal(
        listElsewhere.stderr,
        `Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:${ns}:ci" cannot list resource "pods" in API group "" in the namespace "default"\n`,
      );
      const write = await withToken(token, version, [
        "create",
        "configmap",
        `from-${version.replace(".", "-")}`,
        "-n",
        ns,
      ]);
      assert.equal(write.code, 1);
      assert.equal(
        write.stderr,
        `error: failed to create configmap: configmaps is forbidden: User "system:serviceaccount:${ns}:ci" cannot create resource "configmaps" in API group "" in the namespace "${ns}"\n`,
      );
    });

    test(`kubectl ${version}: create token --duration and --audience shape the token; another audience's token is refused`, async () => {
      const token = (
        await ok(
          admin(
            ["create", "token", "ci", "-n", ns, "--duration", "20m", "--audience", "vault"],
            version,
          ),
        )
      ).trim();
      const claims = claimsOf(token);
      assert.equal(claims.exp - claims.iat, 1200);
      assert.deepEqual(claims.aud, ["vault"]);
      const refused = await withToken(token, version, ["get", "configmaps", "-n", ns]);
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr, unauthorized);
      const tooShort = await admin(
        ["create", "token", "ci", "-n", ns, "--duration", "5m"],
        version,
      );
      assert.equal(tooShort.code, 1);
      assert.equal(
        tooShort.stderr,
        'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes\n',
      );
    });

    test(`kubectl ${version}: a token bound to a pod stops working once the pod is deleted`, async () => {
      const pod = `bound-${version.replace(".", "-")}`;
      await ok(
        admin(
          [
            "run",
            pod,
            "-n",
            ns,
            "--image=nginx",
            "--overrides",
            JSON.stringify({ apiVersion: "v1", spec: { serviceAccountName: "ci" } }),
          ],
          version,
        ),
      );
      const token = (
        await ok(
          admin(
            [
              "create",
              "token",
              "ci",
              "-n",
              ns,
              "--bound-object-kind",
              "Pod",
              "--bound-object-name",
              pod,
            ],
            version,
          ),
        )
      ).trim();
      assert.equal(claimsOf(token)["kubernetes.io"].pod.name, pod);
      await eventually(async () => {
        const allowed = await withToken(token, version, [
          "get",
          "pod",
          pod,
          "-n",
          ns,
          "-o",
          "name",
        ]);
        assert.equal(allowed.stdout, `pod/${pod}\n`, allowed.stderr);
      });
      await ok(admin(["delete", "pod", pod, "-n", ns, "--wait=true"], version));
      await eventually(
        async () => {
          const refused = await withToken(token, version, ["get", "configmaps", "-n", ns]);
          assert.equal(refused.stderr, unauthorized);
        },
        30_000,
        250,
      );
    });
  }

  test("kubectl auth whoami: the bound token's user, groups and credential id", async () => {
    await ok(
      admin([
        "run",
        "whoami",
        "-n",
        ns,
        "--image=nginx",
        "--overrides",
        JSON.stringify({ apiVersion: "v1", spec: { serviceAccountName: "ci" } }),
      ]),
    );
    const token = (
      await ok(
        admin([
          "create",
          "token",
          "ci",
          "-n",
          ns,
          "--bound-object-kind",
          "Pod",
          "--bound-object-name",
          "whoami",
        ]),
      )
    ).trim();
    const out = await ok(withToken(token, "1.33", ["auth", "whoami", "-o", "json"]));
    const userInfo = JSON.parse(out).status.userInfo;
    assert.equal(userInfo.username, `system:serviceaccount:${ns}:ci`);
    assert.deepEqual(userInfo.groups, [
      "system:serviceaccounts",
      `system:serviceaccounts:${ns}`,
      "system:authenticated",
    ]);
    assert.deepEqual(userInfo.extra["authentication.kubernetes.io/credential-id"], [
      `JTI=${claimsOf(token).jti}`,
    ]);
    assert.deepEqual(userInfo.extra["authentication.kubernetes.io/pod-name"], ["whoami"]);
  });

  test("a token stops working after its expiry (signed with DATA_DIR/pki/sa.key as a stand-in for a short TokenRequest)", async () => {
    const uid = await ok(
      admin(["get", "serviceaccount", "ci", "-n", ns, "-o", "jsonpath={.metadata.uid}"]),
    );
    const key = signingKeyFromPem(readFileSync(join(gantry.dataDir, "pki", "sa.key"), "utf8"));
    // TokenRequest cannot go below ten minutes: this token expired 45 s ago, inside the minute
    // of leeway upstream allows, so it works for another 15 s and then never again.
    const expiresAt = Date.now() - 45_000;
    const token = signCompact(
      serviceAccountClaims({
        issuer,
        serviceAccount: { namespace: ns, name: "ci", uid },
        audiences: [issuer],
        now: new Date(expiresAt - 600_000),
        expirationSeconds: 600,
        warnAfterSeconds: 0,
        jti: "stand-in",
      }),
      key,
    );
    const first = await withToken(token, "1.33", ["get", "configmaps", "-n", ns, "-o", "name"]);
    assert.equal(first.code, 0, `still valid within the leeway: ${first.stderr}`);
    await eventually(
      async () => {
        const refused = await withToken(token, "1.33", [
          "get",
          "configmaps",
          "-n",
          ns,
          "-o",
          "name",
        ]);
        assert.equal(refused.stderr, unauthorized);
      },
      60_000,
      1000,
    );
  });

  test("pods run as their namespace's default ServiceAccount with the projected token volume", async () => {
    await ok(admin(["create", "namespace", "fresh"]));
    // Created right after the namespace: admission waits for the controller's default account.
    await ok(admin(["run", "plain", "-n", "fresh", "--image=nginx"]));
    const pod = JSON.parse(await ok(admin(["get", "pod", "plain", "-n", "fresh", "-o", "json"])));
    assert.equal(pod.spec.serviceAccountName, "default");
    const volume = pod.spec.volumes[0];
    assert.match(volume.name, /^kube-api-access-[a-z0-9]{5}$/);
    assert.deepEqual(volume.projected.sources, [
      { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
      { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
      {
        downwardAPI: {
          items: [
            { path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } },
          ],
        },
      },
    ]);
    assert.deepEqual(pod.spec.containers[0].volumeMounts, [
      {
        name: volume.name,
        readOnly: true,
        mountPath: "/var/run/secrets/kubernetes.io/serviceaccount",
      },
    ]);
    const ca = await eventually(() =>
      ok(
        admin([
          "get",
          "configmap",
          "kube-root-ca.crt",
          "-n",
          "fresh",
          "-o",
          "jsonpath={.data.ca\\.crt}",
        ]),
      ),
    );
    assert.equal(ca, gantry.caPem);

    const missing = await admin([
      "run",
      "lost",
      "-n",
      "fresh",
      "--image=nginx",
      "--overrides",
      JSON.stringify({ apiVersion: "v1", spec: { serviceAccountName: "nope" } }),
    ]);
    assert.equal(missing.code, 1);
    assert.equal(
      missing.stderr,
      'Error from server (Forbidden): pods "lost" is forbidden: error looking up service account fresh/nope: serviceaccount "nope" not found\n',
    );
  });

  test("a ServiceAccount reads the issuer's discovery documents; their key verifies its token", async () => {
    const token = (await ok(admin(["create", "token", "ci", "-n", ns]))).trim();
    const config = JSON.parse(
      await ok(withToken(token, "1.33", ["get", "--raw", "/.well-known/openid-configuration"])),
    );
    assert.equal(config.issuer, issuer);
    assert.deepEqual(config.id_token_signing_alg_values_supported, ["RS256"]);
    const jwks = JSON.parse(
      await ok(withToken(token, "1.33", ["get", "--raw", "/openid/v1/jwks"])),
    );
    const header = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString());
    assert.deepEqual(
      jwks.keys.map((k: { kid: string }) => k.kid),
      [header.kid],
    );
  });
});
