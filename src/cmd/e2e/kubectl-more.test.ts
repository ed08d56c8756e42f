import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { stringify } from "yaml";
import {
  type GantryProcess,
  type KubectlResult,
  kubectl,
  kubectlDir,
  kubectlOk as ok,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// More kubectl coverage against the real `gantry up`: output formats, watches, describe with
// Events, edit, secrets and /metrics. The cluster is alive: the scheduler binds `p1` and a
// kubelet runs it, and controllers may give the Deployments ReplicaSets and pods, so the cases
// assert what they created and wait (bounded) for what the cluster does. `parked` is a pod
// nobody touches (no scheduler serves its schedulerName), for output that must not change.

/** A running `kubectl get -w`, read line by line. */
interface LineWatch {
  readonly lines: readonly string[];
  /** Resolves with the first line (seen or to come) matching `pattern`; fails after 15 s. */
  next(pattern: RegExp): Promise<string>;
  stop(): Promise<void>;
}

function watchLines(gantry: GantryProcess, version: string, args: readonly string[]): LineWatch {
  const binary = join(kubectlDir(), `kubectl.${version}`);
  const child = spawn(
    binary,
    [
      "--kubeconfig",
      gantry.kubeconfig,
      "--cache-dir",
      join(gantry.dataDir, `kubectl-cache-${version}`),
      ...args,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const lines: string[] = [];
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const waiters = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const waiter of waiters) {
      if (waiter.pattern.test(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  });
  return {
    lines,
    next: (pattern) => {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = {
          pattern,
          resolve: (line: string) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(`no line matched ${pattern} in 15 s:\n${lines.join("\n")}\nstderr:${stderr}`),
          );
        }, 15_000);
        waiters.add(waiter);
      });
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs `attempt` until it returns a value, every 200 ms, failing with `what` after 20 s. */
async function eventually<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `metav1.Time` for now, as kubectl and the server write it. */
function now(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

for (const version of ["1.27", "1.30", "1.33"]) {
  describe(`kubectl ${version}: formats, watch, describe, edit, secrets, metrics`, () => {
    let gantry: GantryProcess;
    const ns = `more-${version.replace(".", "-")}`;
    const run = (
      args: string[],
      options: { input?: string; env?: Record<string, string> } = {},
    ): Promise<KubectlResult> => kubectl(gantry, version, args, options);
    const file = (name: string, text: string): string => {
      const path = join(gantry.dataDir, `${ns}-${name}`);
      writeFileSync(path, text);
      return path;
    };

    before(async () => {
      gantry = await startGantry();
      ok(await run(["create", "namespace", ns]), "create namespace");
      const deployment = (name: string, replicas: number, image: string): object => ({
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name, namespace: ns, labels: { app: name } },
        spec: {
          replicas,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: { containers: [{ name: image.split(":")[0], image }] },
          },
        },
      });
      // Multi-document YAML (a `kind: List` would do as well: kubectl.test.ts covers it).
      const documents = [
        deployment("web", 2, "nginx:1.25"),
        deployment("api", 1, "busybox:1.36"),
        {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "p1", namespace: ns, labels: { app: "p1" } },
          spec: { containers: [{ name: "c", image: "busybox:1.36" }] },
        },
        {
          // No scheduler serves this name: the pod stays Pending, unbound, with no events.
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "parked", namespace: ns, labels: { app: "parked" } },
          spec: {
            schedulerName: "gantry-e2e-unscheduled",
            containers: [{ name: "c", image: "busybox:1.36" }],
          },
        },
      ];
      ok(
        await run([
          "create",
          "-f",
          file("objects.yaml", documents.map((d) => stringify(d)).join("---\n")),
        ]),
        "create objects",
      );
    });
    after(async () => {
      await gantry[Symbol.asyncDispose]();
    });
    ensureNoLeaksAfterSuite();

    test("get deployments -o wide, yaml, json, jsonpath and name", async () => {
      const wide = ok(await run(["-n", ns, "get", "deployments", "-o", "wide"]), "-o wide");
      assert.match(
        wide,
        /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/m,
      );
      // READY, UP-TO-DATE and AVAILABLE are the deployment controller's to fill in.
      assert.match(wide, /^web\s+\d+\/2\s+\d+\s+\d+\s+\S+\s+nginx\s+nginx:1\.25\s+app=web$/m);
      assert.match(wide, /^api\s+\d+\/1\s+\d+\s+\d+\s+\S+\s+busybox\s+busybox:1\.36\s+app=api$/m);

      const yaml = ok(await run(["-n", ns, "get", "deployment", "web", "-o", "yaml"]), "-o yaml");
      assert.match(yaml, /^apiVersion: apps\/v1$/m);
      assert.match(yaml, /^kind: Deployment$/m);
      assert.match(yaml, /^ {2}replicas: 2$/m);
      assert.match(yaml, /^ {4}type: RollingUpdate$/m, "defaults are applied");

      const json = JSON.parse(
        ok(await run(["-n", ns, "get", "deployments", "-o", "json"]), "json"),
      );
      assert.equal(json.kind, "List");
      assert.deepEqual(
        json.items.map((d: { metadata: { name: string } }) => d.metadata.name),
        ["api", "web"],
      );

      assert.equal(
        ok(
          await run(["-n", ns, "get", "deployments", "-o", "jsonpath={.items[*].metadata.name}"]),
          "jsonpath",
        ),
        "api web",
      );
      assert.equal(
        ok(await run(["-n", ns, "get", "deployments", "-o", "name"]), "-o name"),
        "deployment.apps/api\ndeployment.apps/web\n",
      );
    });

    test("get -A and -l select across namespaces and by label", async () => {
      const all = ok(await run(["get", "deployments", "-A", "-l", "app=web"]), "-A -l");
      assert.match(all, /^NAMESPACE\s+NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/m);
      assert.match(all, new RegExp(`^${ns}\\s+web\\s+\\d+/2\\s+`, "m"));
      assert.doesNotMatch(all, /\sapi\s/);
      const notWeb = ok(
        await run(["-n", ns, "get", "deployments", "-l", "app notin (web)", "-o", "name"]),
        "-l notin",
      );
      assert.equal(notWeb, "deployment.apps/api\n");
      ok(
        await run(["-n", ns, "wait", "--for=condition=Ready", "pod/p1", "--timeout=30s"]),
        "wait p1 Ready",
      );
      // The label selector keeps out pods the cluster makes (a Deployment's, when controllers run).
      const pods = ok(
        await run(["get", "pods", "-A", "-l", "app in (p1,parked)", "-o", "wide"]),
        "pods -A -l -o wide",
      );
      assert.match(
        pods,
        /^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/m,
      );
      assert.match(
        pods,
        new RegExp(
          `^${ns}\\s+p1\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+\\d+\\.\\d+\\.\\d+\\.\\d+\\s+node-\\d+\\s+<none>\\s+<none>$`,
          "m",
        ),
      );
      assert.match(
        pods,
        new RegExp(
          `^${ns}\\s+parked\\s+0/1\\s+Pending\\s+0\\s+\\S+\\s+<none>\\s+<none>\\s+<none>\\s+<none>$`,
          "m",
        ),
      );
      assert.equal(pods.trim().split("\n").length, 3, "the header and the two selected pods");
    });

    test("get -w prints added, modified and deleted configmaps", { timeout: 60_000 }, async () => {
      ok(await run(["-n", ns, "create", "configmap", "w0", "--from-literal=a=1"]), "create w0");
      const watch = watchLines(gantry, version, [
        "-n",
        ns,
        "get",
        "configmaps",
        "-w",
        "--output-watch-events",
      ]);
      try {
        await watch.next(/^ADDED\s+w0\s+1\s/);
        ok(await run(["-n", ns, "create", "configmap", "w1", "--from-literal=a=1"]), "create w1");
        await watch.next(/^ADDED\s+w1\s+1\s/);
        ok(
          await run([
            "-n",
            ns,
            "patch",
            "configmap",
            "w1",
            "--type=merge",
            "-p",
            '{"data":{"b":"2"}}',
          ]),
          "patch w1",
        );
        await watch.next(/^MODIFIED\s+w1\s+2\s/);
        ok(await run(["-n", ns, "delete", "configmap", "w1"]), "delete w1");
        await watch.next(/^DELETED\s+w1\s+2\s/);
        assert.match(watch.lines[0] ?? "", /^EVENT\s+NAME\s+DATA\s+AGE$/);
      } finally {
        await watch.stop();
      }
    });

    test("describe pod and deployment show their Events", async () => {
      // p1's Scheduled event is the scheduler's own; it records events asynchronously, so describe
      // is read again until the event is there (bounded).
      const pod = await eventually("p1's Scheduled event in describe", async () => {
        const out = ok(await run(["-n", ns, "describe", "pod", "p1"]), "describe pod");
        return /^\s+Normal\s+Scheduled\s/m.test(out) ? out : undefined;
      });
      assert.match(pod, /^Name:\s+p1$/m);
      assert.match(pod, new RegExp(`^Namespace:\\s+${ns}$`, "m"));
      const node = /^Node:\s+(node-\d+)\/127\.0\.0\.1$/m.exec(pod)?.[1];
      assert.ok(node !== undefined, `describe shows the node p1 is bound to:\n${pod}`);
      assert.match(pod, /^Status:\s+Running$/m);
      assert.match(pod, /^Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message\n\s+----/m);
      assert.match(
        pod,
        new RegExp(
          `^\\s+Normal\\s+Scheduled\\s+\\S+\\s+default-scheduler\\s+Successfully assigned ${ns}/p1 to ${node}$`,
          "m",
        ),
      );

      // Nothing schedules, runs or reports on `parked`.
      const parked = ok(await run(["-n", ns, "describe", "pod", "parked"]), "describe parked");
      assert.match(parked, /^Name:\s+parked$/m);
      assert.match(parked, /^Node:\s+<none>$/m);
      assert.match(parked, /^Status:\s+Pending$/m);
      assert.match(parked, /^Events:\s+<none>$/m);

      // An Event written through the API shows under the object its involvedObject names.
      const uid = ok(
        await run(["-n", ns, "get", "deployment", "web", "-o", "jsonpath={.metadata.uid}"]),
        "uid",
      );
      const event = {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name: "web.scaled-by-e2e", namespace: ns },
        involvedObject: {
          apiVersion: "apps/v1",
          kind: "Deployment",
          name: "web",
          namespace: ns,
          uid,
        },
        reason: "ScalingReplicaSet",
        message: "Scaled up replica set web-5d4b8c to 2",
        type: "Normal",
        source: { component: "deployment-controller" },
        firstTimestamp: now(),
        lastTimestamp: now(),
        count: 1,
      };
      ok(await run(["create", "-f", file("events.yaml", stringify(event))]), "create event");
      const deploy = ok(
        await run(["-n", ns, "describe", "deployment", "web"]),
        "describe deployment",
      );
      assert.match(deploy, /^Selector:\s+app=web$/m);
      // Only `desired` is ours; the deployment controller counts the rest.
      assert.match(
        deploy,
        /^Replicas:\s+2 desired \| \d+ updated \| \d+ total \| \d+ available \| \d+ unavailable$/m,
      );
      assert.match(deploy, /^StrategyType:\s+RollingUpdate$/m);
      assert.match(
        deploy,
        /^\s+Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-5d4b8c to 2$/m,
      );
    });

    test("edit rewrites a field through KUBE_EDITOR", async () => {
      const editor = file("editor.sh", '#!/bin/sh\nsed -i "s/nginx:1.25/nginx:1.26/" "$1"\n');
      chmodSync(editor, 0o755);
      const edited = ok(
        await run(["-n", ns, "edit", "deployment", "web"], {
          env: { KUBE_EDITOR: editor, EDITOR: editor },
        }),
        "edit",
      );
      assert.match(edited, /^deployment\.apps\/web edited$/m);
      assert.equal(
        ok(
          await run([
            "-n",
            ns,
            "get",
            "deployment",
            "web",
            "-o",
            "jsonpath={.spec.template.spec.containers[0].image}",
          ]),
          "image",
        ),
        "nginx:1.26",
      );
      const generation = ok(
        await run(["-n", ns, "get", "deployment", "web", "-o", "jsonpath={.metadata.generation}"]),
        "generation",
      );
      assert.equal(generation, "2");
    });

    test("create secret generic stores base64 data and prints TYPE and DATA", async () => {
      assert.match(
        ok(
          await run([
            "-n",
            ns,
            "create",
            "secret",
            "generic",
            "creds",
            "--from-literal=user=admin",
            "--from-literal=password=s3cr3t",
          ]),
          "create secret",
        ),
        /^secret\/creds created$/m,
      );
      const table = ok(await run(["-n", ns, "get", "secret", "creds"]), "get secret");
      assert.match(table, /^NAME\s+TYPE\s+DATA\s+AGE$/m);
      assert.match(table, /^creds\s+Opaque\s+2\s+\S+$/m);
      const user = ok(
        await run(["-n", ns, "get", "secret", "creds", "-o", "jsonpath={.data.user}"]),
        "data",
      );
      assert.equal(Buffer.from(user, "base64").toString(), "admin");
    });

    test("get --raw /metrics exposes apiserver_request_total", async () => {
      const metrics = ok(await run(["get", "--raw", "/metrics"]), "metrics");
      assert.match(metrics, /^# TYPE apiserver_request_total counter$/m);
      assert.match(
        metrics,
        /^apiserver_request_total\{verb="GET",resource="deployments",subresource="",code="200"\} \d+$/m,
      );
    });
  });
}
