import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  eventually,
  type GantryProcess,
  kubectl,
  requestGantry,
  runGantry,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

type AuditEvent = Record<string, unknown> & {
  readonly stage: string;
  readonly verb: string;
  readonly auditID: string;
  readonly user: { readonly username?: string };
  readonly objectRef?: Record<string, string>;
  readonly responseStatus?: { readonly code: number; readonly reason?: string };
  readonly annotations?: Record<string, string>;
};

function readEvents(path: string): AuditEvent[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as AuditEvent);
}

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: RequestResponse
    users: [alice]
    resources:
      - group: ""
        resources: [pods]
  - level: Metadata
    users: [alice]
  - level: None
`;

// Who did what: `gantry up --tls` with a token user, RBAC and an audit policy, driven by kubectl.
describe("gantry up --audit-policy-file --audit-log-path", () => {
  let gantry: GantryProcess;
  const scratch = mkdtempSync(join(tmpdir(), "gantry-audit-e2e-"));
  const tokens = join(scratch, "tokens.csv");
  const policyFile = join(scratch, "policy.yaml");
  const log = join(scratch, "logs", "audit.log");
  writeFileSync(tokens, 'alice-token,alice,u-alice,"team-a"\n');
  writeFileSync(policyFile, policy);

  /** alice's kubeconfig: the admin's cluster with her token as the user. */
  const aliceKubeconfig = (): string => {
    const path = join(scratch, "alice.kubeconfig");
    writeFileSync(
      path,
      readFileSync(gantry.kubeconfig, "utf8").replace(
        /client-certificate-data: .*\n\s*client-key-data: .*/,
        "token: alice-token",
      ),
    );
    return path;
  };
  const alice = async (args: string[], version = "1.33") => {
    const result = await kubectl(
      { kubeconfig: aliceKubeconfig(), dataDir: gantry.dataDir },
      version,
      args,
    );
    return result;
  };
  const admin = async (args: string[]) => {
    const result = await kubectl(gantry, "1.33", args);
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };

  before(async () => {
    gantry = await startGantry({
      tls: true,
      storage: "memory",
      extraArgs: [
        "--token-auth-file",
        tokens,
        "--audit-policy-file",
        policyFile,
        "--audit-log-path",
        log,
        "--nodes",
        "1",
      ],
      timeoutMs: 60_000,
    });
    await admin(["create", "namespace", "team-a"]);
    await admin([
      "create",
      "rolebinding",
      "team-a-edit",
      "--clusterrole=edit",
      "--group=team-a",
      "-n",
      "team-a",
    ]);
    await eventually(async () => {
      const result = await alice(["auth", "can-i", "create", "pods", "-n", "team-a"]);
      assert.equal(result.stdout.trim(), "yes", "the binding is in the watch cache");
    });
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
    rmSync(scratch, { recursive: true, force: true });
  });
  ensureNoLeaksAfterSuite();

  test("kubectl create, get and delete of a pod are in the log with user, verb, objectRef and codes", async () => {
    const pod = JSON.stringify({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "audited", namespace: "team-a" },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    });
    const created = await kubectl(
      { kubeconfig: aliceKubeconfig(), dataDir: gantry.dataDir },
      "1.33",
      ["create", "-f", "-"],
      { input: pod },
    );
    assert.equal(created.code, 0, created.stderr);
    assert.equal((await alice(["get", "pod", "audited", "-n", "team-a"], "1.27")).code, 0);
    const deleted = await alice(["delete", "pod", "audited", "-n", "team-a", "--wait=false"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const forbidden = await alice(["get", "nodes"]);
    assert.notEqual(forbidden.code, 0);

    const events = await eventually(() => {
      const found = readEvents(log).filter((e) => e.user.username === "alice");
      const verbs = found.map((e) => `${e.verb} ${e.objectRef?.["resource"] ?? ""}`);
      for (const want of ["create pods", "get pods", "delete pods", "list nodes"]) {
        assert.ok(verbs.includes(want), `${want} in ${verbs.join(", ")}`);
      }
      return found;
    });
    assert.ok(
      events.every((e) => e.stage === "ResponseComplete"),
      "RequestReceived is omitted by the policy",
    );
    const one = (verb: string, resource: string): AuditEvent => {
      const matching = events.filter(
        (e) => e.verb === verb && e.objectRef?.["resource"] === resource,
      );
      assert.equal(matching.length, 1, `one ${verb} ${resource}`);
      return matching[0] as AuditEvent;
    };
    const podRef = { resource: "pods", namespace: "team-a", name: "audited", apiVersion: "v1" };
    const create = one("create", "pods");
    assert.deepEqual(
      [create["level"], create.objectRef, create.responseStatus?.code],
      ["RequestResponse", podRef, 201],
    );
    assert.deepEqual(create["user"], {
      username: "alice",
      uid: "u-alice",
      groups: ["team-a", "system:authenticated"],
    });
    assert.equal((create["requestObject"] as { kind?: string }).kind, "Pod");
    assert.equal(
      (create["responseObject"] as { metadata?: { name?: string } }).metadata?.name,
      "audited",
    );
    assert.match(String(create["userAgent"]), /^kubectl/);
    assert.deepEqual(create.annotations?.["authorization.k8s.io/decision"], "allow");

    const get = one("get", "pods");
    assert.deepEqual([get.objectRef, get.responseStatus?.code], [podRef, 200]);
    assert.match(String(get["userAgent"]), /^kubectl[^/]*\/v1\.27\./, "kubectl 1.27's own agent");

    const remove = one("delete", "pods");
    assert.deepEqual([remove.objectRef, remove.responseStatus?.code], [podRef, 200]);
    assert.equal((remove["requestObject"] as { kind?: string }).kind, "DeleteOptions");

    const nodes = one("list", "nodes");
    assert.deepEqual(
      [nodes["level"], nodes.responseStatus?.code, nodes.responseStatus?.reason],
      ["Metadata", 403, "Forbidden"],
    );
    assert.equal(nodes.annotations?.["authorization.k8s.io/decision"], "forbid");
    assert.equal(nodes["requestObject"], undefined, "no objects at Metadata");
  });

  test("the Audit-Id response header is the event's auditID", async () => {
    const res = await requestGantry(`${gantry.url}/api/v1/namespaces/team-a/pods`, {
      token: "alice-token",
      ...(gantry.caPem === undefined ? {} : { caPem: gantry.caPem }),
    });
    assert.equal(res.status, 200);
    const id = String(res.headers["audit-id"]);
    const event = await eventually(() => {
      const found = readEvents(log).find((e) => e.auditID === id);
      assert.ok(found !== undefined, `event ${id}`);
      return found;
    });
    assert.deepEqual([event.verb, event.user.username], ["list", "alice"]);
  });
});

describe("gantry apiserver --audit-*", () => {
  test("a policy with an error stops start-up with a message naming the file and field", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "gantry-audit-bad-"));
    try {
      const bad = join(scratch, "bad.yaml");
      writeFileSync(bad, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Loud\n");
      const run = await runGantry([
        "apiserver",
        "--data-dir",
        scratch,
        "--port",
        "0",
        "--audit-policy-file",
        bad,
        "--audit-log-path",
        join(scratch, "audit.log"),
      ]);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(
        run.stderr.split("\n")[0],
        `gantry: Cannot use --audit-policy-file: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${bad}`,
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  test("the API server alone audits anonymous requests and flushes the log on shutdown", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "gantry-audit-apiserver-"));
    const policyFile = join(scratch, "policy.yaml");
    const log = join(scratch, "audit.log");
    writeFileSync(
      policyFile,
      "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n    userGroups: [system:unauthenticated]\n",
    );
    try {
      const gantry = await startGantry({
        command: "apiserver",
        storage: "memory",
        extraArgs: ["--audit-policy-file", policyFile, "--audit-log-path", log],
      });
      const listed = await kubectl(gantry, "1.33", ["get", "namespaces"]);
      assert.equal(listed.code, 0, listed.stderr);
      await gantry[Symbol.asyncDispose]();
      const events = readEvents(log).filter((e) => e.objectRef?.["resource"] === "namespaces");
      assert.deepEqual(
        events.map((e) => [e.stage, e.verb, e.user.username, e.responseStatus?.code]),
        [
          ["RequestReceived", "list", "system:anonymous", undefined],
          ["ResponseComplete", "list", "system:anonymous", 200],
        ],
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
