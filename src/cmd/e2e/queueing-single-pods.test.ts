import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "yaml";
import {
  eventually,
  type KubectlResult,
  kubectl,
  makeQueuedPod,
  kubectlOk as ok,
  singleClusterQueueSetup,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

// Kueue's single ClusterQueue setup, with one CPU of quota so that two pods queue one at a time.
const setup = singleClusterQueueSetup(1, { "kubernetes.io/os": "linux" });

test("queueing: single pods are gated, queued in their ClusterQueue, admitted in turn as quota frees, and finish with their Workloads", async () => {
  await using gantry = await startGantry({ storage: "memory", extraArgs: ["--nodes", "1"] });
  const run = (args: string[], input?: string): Promise<KubectlResult> =>
    kubectl(gantry, "", args, input === undefined ? {} : { input });
  const get = async (args: string[]): Promise<string> =>
    ok(await run(["get", ...args]), `get ${args.join(" ")}`);
  await eventually(async () => get(["clusterqueues"]), 20_000);
  ok(await run(["apply", "-f", "-"], setup.map((o) => stringify(o)).join("---\n")), "apply setup");
  ok(
    await run(
      ["create", "-f", "-"],
      `${stringify(makeQueuedPod("first", { runFor: "2s" }))}---\n${stringify(makeQueuedPod("second", { runFor: "1s" }))}`,
    ),
    "create pods",
  );

  const webhook = await get([
    "pod",
    "first",
    "-o",
    `jsonpath={.metadata.labels.kueue\\.x-k8s\\.io/managed} {.metadata.finalizers} {.metadata.annotations.kueue\\.x-k8s\\.io/role-hash}`,
  ]);
  // cpu: 1 after the API server's defaults (priority 0, the two NoExecute tolerations).
  assert.equal(webhook, 'true ["kueue.x-k8s.io/managed"] 4b0469f7');

  // One CPU of quota: the first pod is admitted and runs; the second waits, still gated.
  const firstWl = await eventually(async () => {
    const out = await get([
      "pod",
      "first",
      "-o",
      "jsonpath={.metadata.labels.kueue\\.x-k8s\\.io/podset} {.spec.nodeSelector.kubernetes\\.io/os} {.spec.schedulingGates}",
    ]);
    assert.equal(
      out,
      "main linux ",
      "the first pod is ungated with podset main and the flavor's node labels",
    );
    return out;
  }, 20_000);
  assert.ok(firstWl.length > 0, "first pod ungated");
  const pending = await eventually(async () => {
    const out = await get([
      "workloads.kueue.x-k8s.io",
      "-o",
      "jsonpath={range .items[*]}{.metadata.ownerReferences[0].name}|{.status.conditions[?(@.type=='QuotaReserved')].status}|{.status.conditions[?(@.type=='QuotaReserved')].message}{\"\\n\"}{end}",
    ]);
    assert.match(
      out,
      /^second\|False\|couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 1 more needed$/m,
      out,
    );
    return out;
  }, 20_000);
  assert.match(pending, /^first\|True\|Quota reserved in ClusterQueue cluster-queue$/m);
  assert.equal(
    await get(["pod", "second", "-o", "jsonpath={.spec.schedulingGates[*].name}"]),
    "kueue.x-k8s.io/admission",
  );

  // Both run in turn; each Workload finishes with its pod and the finalizers come off.
  await eventually(async () => {
    const out = await get([
      "workloads.kueue.x-k8s.io",
      "-o",
      "jsonpath={range .items[*]}{.metadata.ownerReferences[0].name}={.status.conditions[?(@.type=='Finished')].reason} {end}",
    ]);
    assert.equal(out.trim().split(" ").sort().join(" "), "first=Succeeded second=Succeeded", out);
  }, 30_000);
  await eventually(async () => {
    const out = await get([
      "pods",
      "-o",
      "jsonpath={range .items[*]}{.metadata.name}={.status.phase}:{.metadata.finalizers} {end}",
    ]);
    assert.equal(out.trim(), "first=Succeeded: second=Succeeded:", out);
  }, 20_000);
  await eventually(async () => {
    const cq = await get([
      "cq",
      "cluster-queue",
      "-o",
      "jsonpath={.status.pendingWorkloads} {.status.admittedWorkloads} {.status.conditions[0].reason}",
    ]);
    assert.equal(cq, "0 0 Ready");
  }, 20_000);

  // The mutating webhook sets the label to "true" on pods it manages; an unmanaged pod cannot
  // claim another value.
  const unmanaged = makeQueuedPod("bad", {
    runFor: "1s",
    labels: { "kueue.x-k8s.io/managed": "false" },
  });
  delete unmanaged.metadata.labels?.["kueue.x-k8s.io/queue-name"];
  const rejected = await run(["create", "-f", "-"], stringify(unmanaged));
  assert.match(
    rejected.stderr,
    /admission webhook "vpod\.kb\.io" denied the request: metadata\.labels\[kueue\.x-k8s\.io\/managed\]: Forbidden: managed label value can only be 'true'/,
  );
  const metrics = ok(await run(["get", "--raw", "/metrics"]), "get /metrics");
  assert.match(
    metrics,
    /^kueue_admitted_workloads_total\{cluster_queue="cluster-queue",priority_class=""\} 2$/m,
  );
  assert.match(metrics, /^pods_rejected_total 1$/m);
});
