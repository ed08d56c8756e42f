/**
 * Least-privilege identities: `gantry apiserver --tls` (RBAC) with the scheduler, the
 * controller-manager, the queueing component and a kubelet as their own processes, each with
 * the client certificate of its own user (the kubeconfigs `--tls` writes, and one
 * `gantry certs issue` signs for the kubelet). Everything they do goes through RBAC with the
 * bootstrap roles: pods of a Deployment get scheduled and run, a gang is bound together and
 * its PodGroup's status written, a queued pod is admitted,
 * budgets, aggregation, garbage collection and namespace deletion work, and an identity is
 * refused what its role does not grant.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { stringify } from "yaml";
import { loadKubeconfig } from "../../client/index.ts";
import { type ComponentProcess, startComponentProcess } from "../../testing/gantry-process.ts";
import {
  eventually,
  type KubectlResult,
  kubectl,
  requestGantry,
  runGantry,
  singleClusterQueueSetup,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

function ok(result: KubectlResult, what: string): string {
  assert.equal(result.code, 0, `${what} failed (exit ${result.code}):\n${result.stderr}`);
  return result.stdout;
}

test("components as separate processes with their own identities under RBAC do their work, and no more", {
  timeout: 300_000,
}, async () => {
  await using api = await startGantry({
    command: "apiserver",
    tls: true,
    storage: "memory",
    timeoutMs: 60_000,
  });
  const dir = api.dataDir;
  const admin = (args: string[], input?: string) =>
    kubectl(api, "1.33", args, input === undefined ? {} : { input });
  const as = (kubeconfig: string, args: string[]) =>
    kubectl({ kubeconfig: join(dir, kubeconfig), dataDir: dir }, "1.33", args);

  const kubelet = "kubelet.kubeconfig";
  const issued = await runGantry([
    "certs",
    "issue",
    "--user",
    "system:node:gantry-kubelets",
    "--group",
    "system:nodes",
    "--data-dir",
    dir,
    "--out",
    join(dir, kubelet),
  ]);
  assert.equal(issued.code, 0, issued.stderr);
  // Kueue's install manifests create its namespace; its manager may not create namespaces.
  ok(await admin(["create", "namespace", "kueue-system"]), "create kueue-system");

  const components: ComponentProcess[] = [];
  try {
    const start = (...args: Parameters<typeof startComponentProcess>) => {
      const process = startComponentProcess(...args);
      components.push(process);
      return process;
    };
    const scheduler = start("scheduler", join(dir, "scheduler.kubeconfig"));
    const controllers = start("controller-manager", join(dir, "controller-manager.kubeconfig"));
    const queueing = start("queueing", join(dir, "queueing.kubeconfig"));
    const nodes = start("kubelet", join(dir, kubelet), ["--nodes", "2", "--port", "0"]);
    await nodes.waitForLog(/Kubelets are running/, 60_000);
    await scheduler.waitForLog(/successfully acquired lease kube-system\/kube-scheduler/, 60_000);
    await controllers.waitForLog(
      /successfully acquired lease kube-system\/kube-controller-manager/,
      60_000,
    );
    await queueing.waitForLog(/successfully acquired lease kueue-system\//, 60_000);

    // Who each kubeconfig is, as the API server sees it.
    const whoami = async (kubeconfig: string) =>
      /Username\s+(\S+)/.exec(ok(await as(kubeconfig, ["auth", "whoami"]), "whoami"))?.[1];
    assert.deepEqual(
      await Promise.all(
        [
          "scheduler.kubeconfig",
          "controller-manager.kubeconfig",
          "queueing.kubeconfig",
          kubelet,
        ].map(whoami),
      ),
      [
        "system:kube-scheduler",
        "system:kube-controller-manager",
        "system:gantry-queueing",
        "system:node:gantry-kubelets",
      ],
    );

    // The kubelet registered its nodes; a Deployment's pods get a ReplicaSet, nodes, and run.
    const nodeNames = await eventually(async () => {
      const names = ok(await admin(["get", "nodes", "-o", "name"]), "get nodes").trim();
      assert.equal(names.split("\n").length, 2, "two nodes registered");
      return names.split("\n").map((name) => name.replace(/^node\//, ""));
    }, 30_000);
    ok(
      await admin(["create", "deployment", "web", "--image=nginx", "--replicas=3"]),
      "create deployment",
    );
    await eventually(
      async () => {
        const phases = ok(
          await admin(["get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].status.phase}"]),
          "get pods",
        );
        assert.equal(phases, "Running Running Running", "the Deployment's pods run");
      },
      60_000,
      250,
    );

    // A gang: the scheduler binds both members together and writes the PodGroup's status.
    const gang = [
      {
        apiVersion: "scheduling.k8s.io/v1alpha1",
        kind: "Workload",
        metadata: { name: "pair", namespace: "default" },
        spec: { podGroupTemplates: [{ name: "worker", policy: { gang: { minCount: 2 } } }] },
      },
      {
        apiVersion: "scheduling.k8s.io/v1alpha1",
        kind: "PodGroup",
        metadata: { name: "pair", namespace: "default" },
        spec: { workloadRef: { name: "pair" }, podGroupTemplateName: "worker" },
      },
      ...["pair-0", "pair-1"].map((name) => ({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name, namespace: "default" },
        spec: {
          workloadRef: { name: "pair", podGroupName: "pair" },
          containers: [{ name: "c", image: "pause" }],
        },
      })),
    ];
    ok(
      await admin(["apply", "-f", "-"], gang.map((o) => `---\n${stringify(o)}`).join("")),
      "apply gang",
    );
    await eventually(
      async () => {
        const scheduled = ok(
          await admin([
            "get",
            "podgroup",
            "pair",
            "-o",
            'jsonpath={.status.conditions[?(@.type=="PodGroupScheduled")].status}',
          ]),
          "get podgroup",
        );
        assert.equal(scheduled, "True", "the scheduler wrote PodGroupScheduled");
        const phases = ok(
          await admin([
            "get",
            "pods",
            "pair-0",
            "pair-1",
            "-o",
            "jsonpath={.items[*].status.phase}",
          ]),
          "get gang pods",
        );
        assert.equal(phases, "Running Running", "both members run");
      },
      60_000,
      250,
    );

    // The disruption controller computes the budget's status.
    ok(
      await admin(["create", "pdb", "web", "--selector=app=web", "--min-available=1"]),
      "create pdb",
    );
    await eventually(async () => {
      const status = ok(
        await admin([
          "get",
          "pdb",
          "web",
          "-o",
          "jsonpath={.status.currentHealthy}/{.status.disruptionsAllowed}",
        ]),
        "get pdb",
      );
      assert.equal(status, "3/2", "the PDB's status is computed");
    }, 30_000);

    // A queued pod: the webhook gates it, the queueing component admits it, then it runs.
    ok(
      await admin(
        ["apply", "-f", "-"],
        singleClusterQueueSetup(2)
          .map((o) => stringify(o))
          .join("---\n"),
      ),
      "apply queueing setup",
    );
    const queued = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: "queued",
        namespace: "default",
        labels: { "kueue.x-k8s.io/queue-name": "user-queue" },
      },
      spec: {
        containers: [{ name: "c", image: "busybox", resources: { requests: { cpu: "1" } } }],
      },
    };
    ok(await admin(["create", "-f", "-"], JSON.stringify(queued)), "create queued pod");
    await eventually(
      async () => {
        const phase = ok(
          await admin(["get", "pod", "queued", "-o", "jsonpath={.status.phase}"]),
          "get queued pod",
        );
        assert.equal(phase, "Running", "the queued pod is admitted, scheduled and runs");
      },
      60_000,
      250,
    );

    // The clusterrole-aggregation controller writes rules it does not hold (escalate).
    const aggregated = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: {
        name: "widget-viewer",
        labels: { "rbac.authorization.k8s.io/aggregate-to-view": "true" },
      },
      rules: [{ apiGroups: ["example.com"], resources: ["widgets"], verbs: ["get"] }],
    };
    ok(await admin(["create", "-f", "-"], JSON.stringify(aggregated)), "create widget-viewer");
    await eventually(async () => {
      const rules = ok(
        await admin(["get", "clusterrole", "admin", "-o", "jsonpath={.rules[*].resources}"]),
        "get admin role",
      );
      assert.match(rules, /"widgets"/, "view's new rule is aggregated up into admin");
    }, 30_000);

    // The garbage collector deletes the Deployment's dependents; the namespace controller
    // empties and removes a namespace.
    ok(await admin(["delete", "deployment", "web"]), "delete deployment");
    await eventually(async () => {
      const left = ok(
        await admin(["get", "replicasets,pods", "-l", "app=web", "-o", "name"]),
        "get dependents",
      );
      assert.equal(left, "", "the ReplicaSet and pods are collected");
    }, 60_000);
    ok(await admin(["create", "namespace", "doomed"]), "create doomed");
    ok(await admin(["create", "configmap", "c", "-n", "doomed"]), "create configmap");
    ok(await admin(["delete", "namespace", "doomed", "--timeout=60s"]), "delete namespace");

    // What each role does not grant: upstream's 403.
    const node = nodeNames[0] ?? "";
    const refusals = [
      {
        kubeconfig: "scheduler.kubeconfig",
        args: ["delete", "node", node],
        stderr: `Error from server (Forbidden): nodes "${node}" is forbidden: User "system:kube-scheduler" cannot delete resource "nodes" in API group "" at the cluster scope\n`,
      },
      {
        kubeconfig: "queueing.kubeconfig",
        args: ["get", "secrets", "-n", "default"],
        stderr:
          'Error from server (Forbidden): secrets is forbidden: User "system:gantry-queueing" cannot list resource "secrets" in API group "" in the namespace "default"\n',
      },
      {
        kubeconfig: kubelet,
        args: ["delete", "namespace", "default"],
        stderr:
          'Error from server (Forbidden): namespaces "default" is forbidden: User "system:node:gantry-kubelets" cannot delete resource "namespaces" in API group "" in the namespace "default"\n',
      },
      {
        kubeconfig: "controller-manager.kubeconfig",
        args: ["create", "clusterrolebinding", "root", "--clusterrole=cluster-admin", "--user=x"],
        stderr:
          'error: failed to create clusterrolebinding: clusterrolebindings.rbac.authorization.k8s.io is forbidden: User "system:kube-controller-manager" cannot create resource "clusterrolebindings" in API group "rbac.authorization.k8s.io" at the cluster scope\n',
      },
    ];
    for (const r of refusals) {
      const result = await as(r.kubeconfig, r.args);
      assert.equal(result.code, 1, `${r.kubeconfig} ${r.args.join(" ")}`);
      assert.equal(result.stderr, r.stderr);
    }

    // The same refusal at the HTTP level, presenting the scheduler's certificate.
    const schedulerConfig = loadKubeconfig(readFileSync(join(dir, "scheduler.kubeconfig"), "utf8"));
    const pem = (data: string | undefined) => Buffer.from(data ?? "", "base64").toString();
    const res = await requestGantry(`${api.url}/api/v1/nodes/${node}`, {
      method: "DELETE",
      ...(api.caPem === undefined ? {} : { caPem: api.caPem }),
      cert: pem(schedulerConfig.clientCertificateData),
      key: pem(schedulerConfig.clientKeyData),
    });
    assert.equal(res.status, 403);
    assert.deepEqual(JSON.parse(res.body), {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `nodes "${node}" is forbidden: User "system:kube-scheduler" cannot delete resource "nodes" in API group "" at the cluster scope`,
      reason: "Forbidden",
      details: { name: node, kind: "nodes" },
      code: 403,
    });

    // Nothing any component did on its own was refused.
    for (const [name, process] of [
      ["scheduler", scheduler],
      ["controller-manager", controllers],
      ["queueing", queueing],
      ["kubelet", nodes],
    ] as const) {
      const refused = process
        .logs()
        .split("\n")
        .filter((line) => /forbidden/i.test(line));
      assert.deepEqual(refused, [], `${name} was refused something under RBAC`);
      assert.equal(process.exited(), false, `${name} keeps running`);
    }
  } finally {
    await Promise.all(components.map((c) => c.stop()));
  }
});
