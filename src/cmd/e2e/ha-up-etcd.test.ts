/**
 * `gantry up --storage etcd` end to end with kubectl: the all-in-one control plane on a real
 * etcd runs a Deployment's pods, and kubectl creates, gets and watches it as on SQLite.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { startEtcd } from "../../testing/etcd.ts";
import {
  type KubectlResult,
  kubectl,
  kubectlOk as ok,
  startGantry,
} from "../../testing/gantry-process.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

test("gantry up --storage etcd: kubectl creates a deployment, watches it become available and its pods run", {
  timeout: 180_000,
}, async () => {
  await using etcd = await startEtcd({ members: 1 });
  await using gantry = await startGantry({
    storage: "etcd",
    etcdEndpoints: etcd.endpoints,
    etcdPrefix: "/gantry-e2e",
  });
  const run = (args: string[]): Promise<KubectlResult> => kubectl(gantry, "", args);
  ok(await run(["create", "deployment", "web", "--image=nginx", "--replicas=2"]), "create");
  // kubectl wait watches the deployment until its Available condition is True.
  ok(
    await run(["wait", "--for=condition=Available", "deployment/web", "--timeout=90s"]),
    "wait for Available",
  );
  ok(await run(["rollout", "status", "deployment/web", "--timeout=60s"]), "rollout status");
  const phases = ok(
    await run(["get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].status.phase}"]),
    "get pods",
  );
  assert.deepEqual(phases.trim().split(" "), ["Running", "Running"]);
  const ready = ok(
    await run(["get", "deployment", "web", "-o", "jsonpath={.status.readyReplicas}"]),
    "get deployment",
  );
  assert.equal(ready.trim(), "2");
});
