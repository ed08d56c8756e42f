import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type GantryProcess, requestGantry, startGantry } from "../../testing/index.ts";
import { cliFor, current, describePods, waitForRunning } from "../../testing/kubectl-scenarios.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// `gantry up --component-threads`: the scheduler, controllers and kubelets in worker threads,
// driven with the real kubectl as users drive `gantry up`.

describe("gantry up --component-threads", { concurrency: 1 }, () => {
  let gantry: GantryProcess;
  const cli = cliFor(() => gantry, current);

  before(async () => {
    gantry = await startGantry({ extraArgs: ["--component-threads"] });
  });
  after(async () => {
    await gantry?.[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("a Deployment's replicas are spread over the 3 nodes and roll out", {
    timeout: 120_000,
  }, async () => {
    const ns = "threads";
    await cli.ok(["create", "namespace", ns]);
    await cli.ok(["create", "deployment", "web", "--image=nginx", "--replicas=3", "-n", ns]);
    const pods = await waitForRunning(cli, ns, "app=web", 3);
    assert.deepEqual(
      pods.map((p) => p.spec.nodeName).sort(),
      ["node-0", "node-1", "node-2"],
      `one replica per node: ${describePods(pods)}`,
    );
    const status = await cli.ok(["rollout", "status", "deployment/web", "--timeout=60s", "-n", ns]);
    assert.match(status, /deployment "web" successfully rolled out/);
  });

  test("the components' metrics are on the API server's /metrics", {
    timeout: 30_000,
  }, async () => {
    const metrics = await requestGantry(`${gantry.url}/metrics`, { token: gantry.token });
    assert.equal(metrics.status, 200);
    assert.match(metrics.body, /^scheduler_schedule_attempts_total\{result="scheduled",/m);
    assert.match(metrics.body, /^# TYPE kueue_pending_workloads gauge$/m);
    assert.match(metrics.body, /^# TYPE apiserver_request_total counter$/m);
  });

  test("SIGTERM stops the threads and the process exits 0", { timeout: 30_000 }, async () => {
    await gantry.stop("SIGTERM");
    assert.equal(gantry.child.signalCode, null, "exited by itself, not killed");
    assert.equal(gantry.child.exitCode, 0);
  });
});
