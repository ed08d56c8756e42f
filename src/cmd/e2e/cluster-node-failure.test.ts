import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Node, Pod } from "../../api/index.ts";
import type { GantryProcess } from "../../testing/index.ts";
import {
  cliFor,
  current,
  describePods,
  startGantryWithConfig,
  waitForRunning,
} from "../../testing/kubectl-scenarios.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// A node whose kubelet stops, driven with kubectl against the real `gantry up`.

describe("a failed node (gantry.dev/fail)", { concurrency: 1 }, () => {
  let gantry: GantryProcess;
  const cli = cliFor(() => gantry, current);

  before(async () => {
    // Upstream's node-monitor grace period is 50 s; a 1 s Lease renewal and a 5 s grace
    // period keep the scenario short without changing what happens.
    gantry = await startGantryWithConfig({
      nodePools: [{ name: "node", count: 3, kubelet: { nodeLeaseDurationSeconds: 4 } }],
      controllerManager: { nodeMonitorPeriod: "1s", nodeMonitorGracePeriod: "5s" },
    });
  });
  after(async () => {
    await gantry?.[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("NodeLifecycle: a node whose kubelet stops is marked Unknown and tainted, its pods are evicted and replaced", {
    timeout: 180_000,
  }, async () => {
    const ns = "failover";
    await cli.ok(["create", "namespace", ns]);
    // tolerationSeconds 0 instead of the default 300 s, so eviction follows the taint at once.
    const tolerations = ["node.kubernetes.io/unreachable", "node.kubernetes.io/not-ready"].map(
      (key) => ({ key, operator: "Exists", effect: "NoExecute", tolerationSeconds: 0 }),
    );
    await cli.apply([
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "survivor", namespace: ns },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: "survivor" } },
          template: {
            metadata: { labels: { app: "survivor" } },
            spec: { tolerations, containers: [{ name: "c", image: "nginx" }] },
          },
        },
      },
    ]);
    const placed = await waitForRunning(cli, ns, "app=survivor", 3);
    const doomed = placed[0] as Pod;
    const failed = doomed.spec.nodeName ?? "";
    await cli.ok(["annotate", "node", failed, "gantry.dev/fail=true"]);

    // The node-monitor grace period passes before the node is Unknown.
    const replaced = await waitForRunning(
      cli,
      ns,
      "app=survivor",
      3,
      (pods) => {
        assert.deepEqual(
          pods.filter((p) => p.spec.nodeName === failed).map((p) => p.metadata.name),
          [],
          `no live pod on the failed node ${failed}: ${describePods(pods)}`,
        );
      },
      150_000,
    );
    assert.ok(
      replaced.every((p) => p.metadata.name !== doomed.metadata.name),
      `${doomed.metadata.name} was replaced: ${describePods(replaced)}`,
    );
    const node = await cli.get<Node>(["node", failed]);
    const ready = node.status?.conditions?.find((c) => c.type === "Ready");
    assert.equal(ready?.status, "Unknown", `Ready=Unknown: ${JSON.stringify(ready)}`);
    assert.equal(ready?.message, "Kubelet stopped posting node status.");
    assert.ok(
      (node.spec?.taints ?? []).some(
        (t) => t.key === "node.kubernetes.io/unreachable" && t.effect === "NoExecute",
      ),
      `unreachable NoExecute taint: ${JSON.stringify(node.spec?.taints)}`,
    );
    const evicted = await cli.run([
      "get",
      "pod",
      doomed.metadata.name ?? "",
      "-n",
      ns,
      "-o",
      "json",
    ]);
    if (evicted.code === 0) {
      const p = JSON.parse(evicted.stdout) as Pod;
      assert.notEqual(
        p.metadata.deletionTimestamp,
        undefined,
        `${doomed.metadata.name} is being deleted`,
      );
    } else {
      assert.match(evicted.stderr, /NotFound/);
    }
  });
});
