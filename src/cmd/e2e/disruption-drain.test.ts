import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { stringify } from "yaml";
import type { Pod, PodDisruptionBudget } from "../../api/index.ts";
import { eventually, type GantryProcess, startGantry } from "../../testing/index.ts";
import { cliFor } from "../../testing/kubectl-scenarios.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// `kubectl drain` against the real `gantry up` (scheduler, controllers with the disruption
// controller, emulated kubelets) with a PodDisruptionBudget in the way, then out of the way.

const version = "1.33";
const ns = "drain";
const node = "node-0";

describe("kubectl drain with a PodDisruptionBudget", { concurrency: 1 }, () => {
  let gantry: GantryProcess;
  const { run, ok, get } = cliFor(() => gantry, version);

  before(async () => {
    gantry = await startGantry({ storage: "memory" });
    await ok(["create", "namespace", ns]);
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: ns },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: {
            nodeSelector: { "kubernetes.io/hostname": node },
            containers: [{ name: "c", image: "nginx", resources: { requests: { cpu: "10m" } } }],
          },
        },
      },
    };
    const pdb = {
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: { name: "web-pdb", namespace: ns },
      spec: { minAvailable: 2, selector: { matchLabels: { app: "web" } } },
    };
    await ok(["apply", "-f", "-"], [deployment, pdb].map((o) => `---\n${stringify(o)}`).join(""));
    await eventually(
      async () => {
        const budget = await get<PodDisruptionBudget>(["pdb", "web-pdb", "-n", ns]);
        assert.equal(budget.status?.currentHealthy, 2, "both pods Ready");
        assert.equal(budget.status?.expectedPods, 2, "two pods expected");
      },
      45_000,
      250,
    );
  });
  after(async () => {
    await gantry?.[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("kubectl drain: a budget with no disruptions allowed makes drain retry and time out", {
    timeout: 60_000,
  }, async () => {
    const result = await run([
      "drain",
      node,
      "--ignore-daemonsets",
      "--delete-emptydir-data",
      "--timeout=6s",
    ]);
    assert.equal(result.code, 1, `drain fails:\n${result.stderr}${result.stdout}`);
    assert.match(result.stdout, new RegExp(`^node/${node} cordoned$`, "m"));
    assert.match(result.stdout, new RegExp(`^evicting pod ${ns}/web-`, "m"));
    assert.match(
      result.stderr,
      new RegExp(
        `error when evicting pods/"web-[^"]+" -n "${ns}" \\(will retry after 5s\\): Cannot evict pod as it would violate the pod's disruption budget\\.`,
      ),
    );
    assert.match(result.stderr, /global timeout reached: 6s/);
    const pods = await get<{ items: Pod[] }>(["pods", "-n", ns, "-l", "app=web"]);
    assert.equal(
      pods.items.filter((p) => p.metadata.deletionTimestamp === undefined).length,
      2,
      "no pod was evicted",
    );
  });

  test("kubectl drain: once the budget allows it, drain evicts every pod and finishes", {
    timeout: 60_000,
  }, async () => {
    await ok([
      "patch",
      "pdb",
      "web-pdb",
      "-n",
      ns,
      "--type=merge",
      "-p",
      '{"spec":{"minAvailable":0}}',
    ]);
    await eventually(
      async () => {
        const budget = await get<PodDisruptionBudget>(["pdb", "web-pdb", "-n", ns]);
        assert.equal(budget.status?.disruptionsAllowed, 2, "the new spec is observed");
      },
      20_000,
      250,
    );
    const stdout = await ok([
      "drain",
      node,
      "--ignore-daemonsets",
      "--delete-emptydir-data",
      "--timeout=30s",
    ]);
    assert.match(stdout, /^pod\/web-\S+ evicted$/m);
    assert.match(stdout, new RegExp(`^node/${node} drained$`, "m"));
    await ok(["uncordon", node]);
  });
});
