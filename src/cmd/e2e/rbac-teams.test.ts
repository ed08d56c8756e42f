import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { eventually, type GantryProcess, kubectl, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// Two teams on one cluster: `gantry up --tls --token-auth-file` with RBAC, driven by kubectl.
describe("gantry up --tls with RBAC and a token file", () => {
  let gantry: GantryProcess;
  const scratch = mkdtempSync(join(tmpdir(), "gantry-rbac-e2e-"));
  const tokens = join(scratch, "tokens.csv");
  writeFileSync(
    tokens,
    'alice-token,alice,u-alice,"team-a"\nbob-token,bob,u-bob,"team-b"\ncarol-token,carol,u-carol\n',
  );

  const admin = (args: string[], version = "1.33") => kubectl(gantry, version, args);
  /**
   * A token user's kubeconfig: the admin's cluster with the token as the user. (`--token` beside
   * the admin kubeconfig would not do: kubectl would still present the admin's client
   * certificate, which the API server's x509 authenticator checks before any token.)
   */
  const tokenKubeconfig = (token: string): string => {
    const path = join(scratch, `${token}.kubeconfig`);
    const admin = readFileSync(gantry.kubeconfig, "utf8");
    writeFileSync(
      path,
      admin.replace(/client-certificate-data: .*\n\s*client-key-data: .*/, `token: ${token}`),
    );
    return path;
  };
  const as = (token: string, args: string[], version = "1.33") =>
    kubectl({ kubeconfig: tokenKubeconfig(token), dataDir: gantry.dataDir }, version, args);
  const ok = async (run: Promise<{ code: number; stdout: string; stderr: string }>) => {
    const result = await run;
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };
  /** Waits until the watch cache has the policy: `can-i` answers `want`. */
  const canI = (token: string, args: string[], want: "yes" | "no") =>
    eventually(async () => {
      const result = await as(token, ["auth", "can-i", ...args]);
      assert.equal(result.stdout.trim(), want, `can-i ${args.join(" ")}`);
    });

  before(async () => {
    gantry = await startGantry({
      tls: true,
      storage: "memory",
      extraArgs: ["--token-auth-file", tokens, "--nodes", "1"],
      timeoutMs: 60_000,
    });
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
    await ok(
      admin([
        "create",
        "rolebinding",
        "bob-admin",
        "--clusterrole=admin",
        "--user=bob",
        "-n",
        "team-b",
      ]),
    );
    await canI("alice-token", ["create", "pods", "-n", "team-a"], "yes");
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
    rmSync(scratch, { recursive: true, force: true });
  });
  ensureNoLeaksAfterSuite();

  test("kubectl auth whoami: the token file's user, uid and groups", async () => {
    const out = await ok(as("alice-token", ["auth", "whoami"]));
    assert.match(out, /Username\s+alice\n/);
    assert.match(out, /UID\s+u-alice\n/);
    assert.match(out, /Groups\s+\[team-a system:authenticated\]/);
  });

  test("a team user runs pods in its namespace and they get scheduled and run", async () => {
    await ok(as("alice-token", ["run", "web", "--image=nginx", "-n", "team-a"]));
    await eventually(
      async () => {
        const phase = await ok(
          admin(["get", "pod", "web", "-n", "team-a", "-o", "jsonpath={.status.phase}"]),
        );
        assert.equal(phase, "Running", "the in-process components act as the admin under RBAC");
      },
      30_000,
      200,
    );
  });

  const denied: { name: string; token: string; args: string[]; stderr: string }[] = [
    {
      name: "pods in another team's namespace",
      token: "alice-token",
      args: ["run", "web", "--image=nginx", "-n", "team-b"],
      stderr:
        'Error from server (Forbidden): pods is forbidden: User "alice" cannot create resource "pods" in API group "" in the namespace "team-b"\n',
    },
    {
      name: "nodes",
      token: "alice-token",
      args: ["get", "nodes"],
      stderr:
        'Error from server (Forbidden): nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope\n',
    },
    {
      name: "ClusterQueues",
      token: "alice-token",
      args: ["get", "clusterqueues"],
      stderr:
        'Error from server (Forbidden): clusterqueues.kueue.x-k8s.io is forbidden: User "alice" cannot list resource "clusterqueues" in API group "kueue.x-k8s.io" at the cluster scope\n',
    },
    {
      name: "a pod by name in a namespace with no binding",
      token: "carol-token",
      args: ["get", "pod", "web", "-n", "team-a"],
      stderr:
        'Error from server (Forbidden): pods "web" is forbidden: User "carol" cannot get resource "pods" in API group "" in the namespace "team-a"\n',
    },
    {
      name: "impersonation without the impersonate verb",
      token: "alice-token",
      args: ["get", "pods", "-n", "team-a", "--as", "bob"],
      stderr:
        'Error from server (Forbidden): users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope\n',
    },
  ];

  for (const c of denied) {
    test(`403 as kubectl prints it: ${c.name}`, async () => {
      const result = await as(c.token, c.args);
      assert.equal(result.code, 1);
      assert.equal(result.stderr, c.stderr);
    });
  }

  const matrix: { args: string[]; alice: "yes" | "no"; bob: "yes" | "no" }[] = [
    { args: ["create", "pods", "-n", "team-a"], alice: "yes", bob: "no" },
    { args: ["delete", "deployments.apps", "-n", "team-a"], alice: "yes", bob: "no" },
    { args: ["create", "pods", "-n", "team-b"], alice: "no", bob: "yes" },
    { args: ["create", "rolebindings", "-n", "team-a"], alice: "no", bob: "no" },
    { args: ["create", "rolebindings", "-n", "team-b"], alice: "no", bob: "yes" },
    { args: ["list", "nodes"], alice: "no", bob: "no" },
    { args: ["create", "clusterqueues.kueue.x-k8s.io"], alice: "no", bob: "no" },
    { args: ["create", "pods", "--subresource=eviction", "-n", "team-a"], alice: "yes", bob: "no" },
    { args: ["update", "pods", "--subresource=status", "-n", "team-a"], alice: "no", bob: "no" },
    { args: ["get", "pods", "--subresource=log", "-n", "team-b"], alice: "no", bob: "yes" },
    { args: ["get", "/version"], alice: "yes", bob: "yes" },
  ];

  test("kubectl auth can-i: verb × resource × namespace for two team users", async () => {
    for (const row of matrix) {
      for (const [who, token] of [
        ["alice", "alice-token"],
        ["bob", "bob-token"],
      ] as const) {
        const result = await as(token, ["auth", "can-i", ...row.args]);
        assert.equal(result.stdout.trim(), row[who], `${who} can-i ${row.args.join(" ")}`);
      }
    }
  });

  test("kubectl auth can-i --as: the admin impersonates a user and group", async () => {
    const out = await admin([
      "auth",
      "can-i",
      "create",
      "pods",
      "-n",
      "team-a",
      "--as",
      "dave",
      "--as-group",
      "team-a",
    ]);
    assert.equal(out.stdout.trim(), "yes");
  });

  test("kubectl auth can-i --list: the edit role's rules in the namespace", async () => {
    const out = await ok(as("alice-token", ["auth", "can-i", "--list", "-n", "team-a"]));
    assert.match(out, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
    assert.match(
      out,
      /^pods\s+\[\]\s+\[\]\s+\[create update patch delete deletecollection get list watch\]$/m,
    );
    assert.match(
      out,
      /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m,
    );
  });

  test("a RoleBinding to a custom Role with resourceNames grants only the named object", async () => {
    await ok(admin(["create", "configmap", "settings", "-n", "team-b", "--from-literal=a=1"]));
    await ok(
      admin([
        "create",
        "role",
        "settings-reader",
        "--verb=get",
        "--resource=configmaps",
        "--resource-name=settings",
        "-n",
        "team-b",
      ]),
    );
    await ok(
      admin([
        "create",
        "rolebinding",
        "carol-settings",
        "--role=settings-reader",
        "--user=carol",
        "-n",
        "team-b",
      ]),
    );
    await canI("carol-token", ["get", "configmaps/settings", "-n", "team-b"], "yes");
    assert.equal(
      await ok(
        as("carol-token", [
          "get",
          "configmap",
          "settings",
          "-n",
          "team-b",
          "-o",
          "jsonpath={.data.a}",
        ]),
      ),
      "1",
    );
    const other = await as("carol-token", ["get", "configmaps", "-n", "team-b"]);
    assert.equal(
      other.stderr,
      'Error from server (Forbidden): configmaps is forbidden: User "carol" cannot list resource "configmaps" in API group "" in the namespace "team-b"\n',
    );
  });

  test("escalation: a namespace admin cannot grant rules they do not hold", async () => {
    const role = await as("bob-token", [
      "create",
      "role",
      "node-reader",
      "--verb=get,delete",
      "--resource=nodes,pods",
      "-n",
      "team-b",
    ]);
    assert.equal(
      role.stderr,
      'Error from server (Forbidden): roles.rbac.authorization.k8s.io "node-reader" is forbidden: user "bob" (groups=["team-b" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["get" "delete"]}\n',
    );
    const binding = await as("bob-token", [
      "create",
      "rolebinding",
      "root",
      "--clusterrole=cluster-admin",
      "--user=carol",
      "-n",
      "team-b",
    ]);
    assert.match(
      binding.stderr,
      /^error: failed to create rolebinding: rolebindings\.rbac\.authorization\.k8s\.io "root" is forbidden: user "bob" \(groups=\["team-b" "system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}\n\{NonResourceURLs:\["\*"\], Verbs:\["\*"\]\}\n$/,
    );
    await ok(
      as("bob-token", [
        "create",
        "rolebinding",
        "carol-view",
        "--clusterrole=view",
        "--user=carol",
        "-n",
        "team-b",
      ]),
    );
  });

  test("aggregation: a ClusterRole labelled aggregate-to-edit extends edit", async () => {
    const role = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: {
        name: "localqueue-editor",
        labels: { "rbac.authorization.k8s.io/aggregate-to-edit": "true" },
      },
      rules: [
        { apiGroups: ["kueue.x-k8s.io"], resources: ["localqueues"], verbs: ["create", "delete"] },
      ],
    };
    await ok(kubectl(gantry, "1.33", ["create", "-f", "-"], { input: JSON.stringify(role) }));
    await canI("alice-token", ["create", "localqueues.kueue.x-k8s.io", "-n", "team-a"], "yes");
    await canI("alice-token", ["create", "localqueues.kueue.x-k8s.io", "-n", "team-b"], "no");
  });

  test("kubectl 1.27: create clusterrole, clusterrolebinding and print them as kube-apiserver does", async () => {
    await ok(
      admin(
        ["create", "clusterrole", "pod-watcher", "--verb=watch,list", "--resource=pods"],
        "1.27",
      ),
    );
    await ok(
      admin(
        [
          "create",
          "clusterrolebinding",
          "pod-watcher",
          "--clusterrole=pod-watcher",
          "--serviceaccount=team-a:ci",
          "--group=watchers",
        ],
        "1.27",
      ),
    );
    const roles = await ok(admin(["get", "clusterrole", "pod-watcher"], "1.27"));
    assert.match(roles, /^NAME\s+CREATED AT\npod-watcher\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
    const bindings = await ok(
      admin(["get", "clusterrolebinding", "pod-watcher", "-o", "wide"], "1.27"),
    );
    assert.match(
      bindings,
      /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\npod-watcher\s+ClusterRole\/pod-watcher\s+\S+\s+watchers\s+team-a\/ci\n$/,
    );
  });
});
