import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "yaml";
import {
  eventually,
  type KubectlResult,
  kubectl,
  singleClusterQueueSetup,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { kueueCrds } from "./kueue.ts";

ensureNoLeaksInEachTest();

function ok(result: KubectlResult, what: string): string {
  assert.equal(
    result.code,
    0,
    `${what} failed (exit ${result.code}):\n${result.stderr}${result.stdout}`,
  );
  return result.stdout;
}

// Kueue's own single-ClusterQueue setup (site/static/examples/admin/single-clusterqueue-setup.yaml).
const setup = singleClusterQueueSetup(9);

function workload(podSets: number): object {
  return {
    apiVersion: "kueue.x-k8s.io/v1beta1",
    kind: "Workload",
    metadata: { name: `wl-${podSets}`, namespace: "default" },
    spec: {
      queueName: "user-queue",
      podSets: Array.from({ length: podSets }, (_, i) => ({
        name: `ps${i}`,
        count: 1,
        template: { spec: { containers: [{ name: "c", image: "busybox" }] } },
      })),
    },
  };
}

test("kueueCrds: every CRD is structural with one served v1beta1 version", () => {
  const crds = kueueCrds();
  assert.deepEqual(
    crds.map((c) => c.metadata.name),
    [
      "resourceflavors.kueue.x-k8s.io",
      "clusterqueues.kueue.x-k8s.io",
      "localqueues.kueue.x-k8s.io",
      "workloads.kueue.x-k8s.io",
      "workloadpriorityclasses.kueue.x-k8s.io",
    ],
  );
  for (const crd of crds) {
    assert.deepEqual(
      crd.spec.versions.map((v) => [v.name, v.served, v.storage]),
      [["v1beta1", true, true]],
      `${crd.metadata.name} versions`,
    );
  }
});

test("kueueCrds: gantry serves Kueue's manifests, defaults, printer columns and schema limits", async () => {
  await using gantry = await startGantry({ storage: "memory", extraArgs: ["--nodes", "0"] });
  const run = (args: string[], input?: string): Promise<KubectlResult> =>
    kubectl(gantry, "", args, input === undefined ? {} : { input });
  await eventually(async () => ok(await run(["get", "clusterqueues"]), "get cq"), 20_000);
  ok(await run(["apply", "-f", "-"], setup.map((o) => stringify(o)).join("---\n")), "apply setup");
  const strategy = ok(
    await run([
      "get",
      "cq",
      "cluster-queue",
      "-o",
      "jsonpath={.spec.queueingStrategy} {.spec.preemption.withinClusterQueue} {.spec.stopPolicy}",
    ]),
    "get cq defaults",
  );
  assert.equal(strategy, "BestEffortFIFO Never None");
  const wide = ok(await run(["get", "cq", "-o", "wide"]), "get cq -o wide");
  assert.match(
    wide.split("\n")[0] ?? "",
    /^NAME\s+COHORT\s+STRATEGY\s+PENDING WORKLOADS\s+ADMITTED WORKLOADS$/,
  );
  const queues = ok(await run(["get", "queues"]), "get queues");
  assert.match(queues, /^NAME\s+CLUSTERQUEUE\s+PENDING WORKLOADS\s+ADMITTED WORKLOADS\n/);
  assert.match(queues, /\nuser-queue\s+cluster-queue\s/);
  ok(await run(["create", "-f", "-"], stringify(workload(1))), "create workload");
  const wl = ok(await run(["get", "wl"]), "get wl");
  assert.match(wl, /^NAME\s+QUEUE\s+RESERVED IN\s+ADMITTED\s+FINISHED\s+AGE\n/);
  const tooMany = await run(["create", "-f", "-"], stringify(workload(9)));
  assert.notEqual(tooMany.code, 0, "a Workload with 9 podSets must be rejected");
  assert.match(tooMany.stderr, /spec\.podSets: Too many: 9: must have at most 8 items/);
  const badStrategy = await run([
    "patch",
    "cq",
    "cluster-queue",
    "--type=merge",
    "-p",
    '{"spec":{"queueingStrategy":"LIFO"}}',
  ]);
  assert.match(badStrategy.stderr, /spec\.queueingStrategy: Unsupported value: "LIFO"/);
});
