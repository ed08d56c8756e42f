import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "yaml";
import type { Pod } from "../../api/index.ts";
import {
  eventually,
  type KubectlResult,
  kubectl,
  makeQueuedPod,
  kubectlOk as ok,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

const kueue = "kueue.x-k8s.io/v1beta1";
const clusterQueue = (name: string, preemption: object) => ({
  apiVersion: kueue,
  kind: "ClusterQueue",
  metadata: { name },
  spec: {
    cohort: "team",
    namespaceSelector: {},
    preemption,
    resourceGroups: [
      {
        coveredResources: ["cpu"],
        flavors: [{ name: "default-flavor", resources: [{ name: "cpu", nominalQuota: 1 }] }],
      },
    ],
  },
});
const localQueue = (name: string, cq: string) => ({
  apiVersion: kueue,
  kind: "LocalQueue",
  metadata: { namespace: "default", name },
  spec: { clusterQueue: cq },
});
const priorityClass = (name: string, value: number) => ({
  apiVersion: kueue,
  kind: "WorkloadPriorityClass",
  metadata: { name },
  value,
});

// Kueue's manifests: two ClusterQueues of one CPU each in cohort "team"; cq-a reclaims what
// cq-b borrows and preempts lower priorities in its own queue.
const setup = [
  { apiVersion: kueue, kind: "ResourceFlavor", metadata: { name: "default-flavor" } },
  priorityClass("low", 100),
  priorityClass("high", 1000),
  clusterQueue("cq-a", { withinClusterQueue: "LowerPriority", reclaimWithinCohort: "Any" }),
  clusterQueue("cq-b", {}),
  localQueue("lq-a", "cq-a"),
  localQueue("lq-b", "cq-b"),
];

/** A pod of `cpu` CPUs in LocalQueue `queue` at WorkloadPriorityClass `priority`. */
const pod = (name: string, queue: string, cpu: string, priority: string): Pod =>
  makeQueuedPod(name, { queue, priorityClass: priority, requests: { cpu }, runFor: "300s" });

interface RecordedWorkload {
  readonly metadata?: { readonly ownerReferences?: readonly { readonly name?: string }[] };
  readonly status?: {
    readonly conditions?: readonly {
      readonly type: string;
      readonly status?: string;
      readonly reason?: string;
      readonly message?: string;
    }[];
  };
}

/** Watches the default namespace's Workloads and keeps every version it is sent. */
function recordWorkloads(gantry: { url: string; token: string }): {
  readonly seen: RecordedWorkload[];
} & AsyncDisposable {
  const seen: RecordedWorkload[] = [];
  const stop = new AbortController();
  const done = (async () => {
    const response = await fetch(
      `${gantry.url}/apis/kueue.x-k8s.io/v1beta1/namespaces/default/workloads?watch=true`,
      { headers: { Authorization: `Bearer ${gantry.token}` }, signal: stop.signal },
    );
    let buffered = "";
    for await (const chunk of response.body ?? []) {
      buffered += Buffer.from(chunk).toString("utf8");
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.trim() !== "")
          seen.push((JSON.parse(line) as { object: RecordedWorkload }).object);
      }
    }
  })().catch((error: unknown) => {
    if (!stop.signal.aborted) throw error;
  });
  return {
    seen,
    [Symbol.asyncDispose]: async () => {
      stop.abort();
      await done;
    },
  };
}

test("queueing: preemption reclaims borrowed quota within the cohort, then a higher-priority pod preempts a lower one in its ClusterQueue; the victims' pods are stopped", async () => {
  await using gantry = await startGantry({ storage: "memory", extraArgs: ["--nodes", "2"] });
  const run = (args: string[], input?: string): Promise<KubectlResult> =>
    kubectl(gantry, "", args, input === undefined ? {} : { input });
  const get = async (args: string[]): Promise<string> =>
    ok(await run(["get", ...args]), `get ${args.join(" ")}`);
  const create = async (o: object): Promise<void> => {
    ok(await run(["create", "-f", "-"], stringify(o)), "create");
  };
  /** `pod=QuotaReserved status|Evicted reason|Preempted reason|Preempted message` per Workload. */
  const workloads = async (): Promise<Map<string, string[]>> => {
    const out = await get([
      "workloads.kueue.x-k8s.io",
      "-o",
      "jsonpath={range .items[*]}{.metadata.ownerReferences[0].name}|{.status.conditions[?(@.type=='QuotaReserved')].status}|{.status.conditions[?(@.type=='Evicted')].reason}|{.status.conditions[?(@.type=='Preempted')].reason}|{.status.conditions[?(@.type=='Preempted')].message}{\"\\n\"}{end}",
    ]);
    return new Map(
      out
        .trim()
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => {
          const [owner = "", ...rest] = l.split("|");
          return [owner, rest];
        }),
    );
  };
  const uidOf = async (kind: string, name: string): Promise<string> =>
    get([kind, name, "-o", "jsonpath={.metadata.uid}"]);
  const workloadOf = async (podName: string): Promise<{ name: string; uid: string }> => {
    const out = await get([
      "workloads.kueue.x-k8s.io",
      "-o",
      `jsonpath={range .items[?(@.metadata.ownerReferences[0].name=='${podName}')]}{.metadata.name} {.metadata.uid}{end}`,
    ]);
    const [name = "", uid = ""] = out.split(" ");
    assert.ok(name !== "", `a Workload for pod ${podName}`);
    return { name, uid };
  };
  const ungated = async (name: string): Promise<void> => {
    await eventually(async () => {
      const gates = await get(["pod", name, "-o", "jsonpath={.spec.schedulingGates}"]);
      assert.equal(gates, "", `pod ${name} is ungated`);
    }, 30_000);
  };

  // A preempted pod's Workload is deleted with the pod soon after, often before a poll of
  // `kubectl get` would see it: every version of every Workload is recorded from a watch.
  await using recorded = recordWorkloads(gantry);
  const preemptedAs = (owner: string): string[] | undefined => {
    for (const workload of recorded.seen) {
      if (workload.metadata?.ownerReferences?.[0]?.name !== owner) continue;
      const preempted = workload.status?.conditions?.find((c) => c.type === "Preempted");
      const evicted = workload.status?.conditions?.find((c) => c.type === "Evicted");
      if (preempted?.status === "True") {
        return [evicted?.reason ?? "", preempted.reason ?? "", preempted.message ?? ""];
      }
    }
    return undefined;
  };
  await eventually(async () => get(["clusterqueues"]), 20_000);
  ok(await run(["apply", "-f", "-"], setup.map((o) => stringify(o)).join("---\n")), "apply setup");

  // cq-b borrows cq-a's idle CPU.
  await create(pod("b-borrow", "lq-b", "2", "low"));
  await ungated("b-borrow");

  // cq-a wants its own quota back: b-borrow is preempted (reclamation within the cohort), its
  // pod stopped, and a-owner admitted once the quota is released.
  await create(pod("a-owner", "lq-a", "1", "low"));
  const aOwner = await eventually(async () => workloadOf("a-owner"), 20_000);
  const aOwnerPod = await uidOf("pod", "a-owner");
  await eventually(async () => {
    assert.deepEqual(preemptedAs("b-borrow"), [
      "Preempted",
      "InCohortReclamation",
      `Preempted to accommodate a workload (UID: ${aOwner.uid}, JobUID: ${aOwnerPod}) due to reclamation within the cohort`,
    ]);
  }, 30_000);
  await ungated("a-owner");
  await eventually(async () => {
    const gone = await run(["get", "pod", "b-borrow", "-o", "name"]);
    assert.notEqual(gone.code, 0, "the preempted pod is deleted");
  }, 30_000);

  // cq-b takes its own CPU; the cohort is full. A high-priority pod in cq-a preempts a-owner.
  await create(pod("b-own", "lq-b", "1", "low"));
  await ungated("b-own");
  await create(pod("a-high", "lq-a", "1", "high"));
  const aHigh = await eventually(async () => workloadOf("a-high"), 20_000);
  const aHighPod = await uidOf("pod", "a-high");
  await eventually(async () => {
    assert.deepEqual(preemptedAs("a-owner"), [
      "Preempted",
      "InClusterQueue",
      `Preempted to accommodate a workload (UID: ${aHigh.uid}, JobUID: ${aHighPod}) due to prioritization in the ClusterQueue`,
    ]);
    assert.equal(
      (await workloads()).get("b-own")?.[0],
      "True",
      "cq-b's own workload is left alone",
    );
  }, 30_000);
  await ungated("a-high");
  const stopped = await run([
    "get",
    "pod",
    "a-owner",
    "-o",
    "jsonpath={.status.conditions[?(@.type=='TerminationTarget')].reason}",
  ]);
  assert.ok(
    stopped.code !== 0 || stopped.stdout === "WorkloadEvictedDueToPreempted",
    `the preempted pod is stopped: ${stopped.stdout}${stopped.stderr}`,
  );

  const events = await get([
    "events",
    "--field-selector",
    `involvedObject.name=${aOwner.name},reason=Preempted`,
    "-o",
    "jsonpath={.items[*].message}",
  ]);
  assert.match(events, /due to prioritization in the ClusterQueue/);

  const metrics = ok(await run(["get", "--raw", "/metrics"]), "get /metrics");
  assert.match(
    metrics,
    /^kueue_preempted_workloads_total\{preempting_cluster_queue="cq-a",reason="InCohortReclamation"\} 1$/m,
  );
  assert.match(
    metrics,
    /^kueue_preempted_workloads_total\{preempting_cluster_queue="cq-a",reason="InClusterQueue"\} 1$/m,
  );
  assert.match(
    metrics,
    /^kueue_evicted_workloads_total\{cluster_queue="cq-b",reason="Preempted",underlying_cause="",priority_class="low"\} 1$/m,
  );
  assert.match(metrics, /^kueue_pending_workloads\{cluster_queue="cq-a",status="active"\} 0$/m);
  assert.match(
    metrics,
    /^kueue_pending_workloads\{cluster_queue="cq-a",status="inadmissible"\} \d+$/m,
  );
});
