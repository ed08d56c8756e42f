import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { stringify } from "yaml";
import type { Deployment, Event, Job, Node, Pod, ReplicaSet } from "../../api/index.ts";
import {
  eventually,
  type GantryProcess,
  type KubectlResult,
  kubectl,
  startGantry,
} from "../../testing/index.ts";

// The living cluster driven the way a user drives it: the real `gantry up` (scheduler,
// controllers, emulated kubelets) and the real kubectl, unmodified. Each group of scenarios
// shares one `gantry up`; the groups run side by side, the scenarios of a group one after the
// other (each in its own namespace, undoing what it did to the nodes). Every wait is bounded.

/** The kubectl the scenarios use; `oldest` drives one scenario to cover the oldest client. */
const current = "1.33";
const oldest = "1.27";
/** How often a wait polls through kubectl. */
const pollMs = 250;

interface List<T> {
  readonly items: readonly T[];
}

/** kubectl bound to one gantry and one version. */
interface Cli {
  readonly version: string;
  run(args: readonly string[], input?: string): Promise<KubectlResult>;
  /** Runs kubectl and asserts it succeeded; returns its stdout. */
  ok(args: readonly string[], input?: string): Promise<string>;
  /** `kubectl get ARGS -o json`, parsed. */
  get<T>(args: readonly string[]): Promise<T>;
  /** `kubectl apply -f -` of these objects. */
  apply(objects: readonly object[]): Promise<string>;
}

function cliFor(gantry: () => GantryProcess, version: string): Cli {
  const run = (args: readonly string[], input?: string): Promise<KubectlResult> =>
    kubectl(gantry(), version, args, input === undefined ? {} : { input });
  const ok = async (args: readonly string[], input?: string): Promise<string> => {
    const result = await run(args, input);
    assert.equal(
      result.code,
      0,
      `kubectl ${version} ${args.join(" ")} failed (exit ${result.code}):\n${result.stderr}${result.stdout}`,
    );
    return result.stdout;
  };
  return {
    version,
    run,
    ok,
    get: async <T>(args: readonly string[]) =>
      JSON.parse(await ok(["get", ...args, "-o", "json"])) as T,
    apply: (objects) =>
      ok(
        // kubectl 1.27 and 1.28 validate through /openapi/v2 (protobuf), which gantry does not serve.
        [
          "apply",
          "-f",
          "-",
          ...(version === "1.27" || version === "1.28" ? ["--validate=false"] : []),
        ],
        objects.map((o) => `---\n${stringify(o)}`).join(""),
      ),
  };
}

/** The pods matching `selector` that are not being deleted. */
async function livePods(cli: Cli, namespace: string, selector: string): Promise<Pod[]> {
  const pods = await cli.get<List<Pod>>(["pods", "-n", namespace, "-l", selector]);
  return pods.items.filter((p) => p.metadata.deletionTimestamp === undefined);
}

function describePods(pods: readonly Pod[]): string {
  return pods
    .map(
      (p) =>
        `${p.metadata.name} ${p.status?.phase ?? "?"} on ${p.spec.nodeName ?? "-"} (${p.spec.containers.map((c) => c.image).join(",")})`,
    )
    .join("; ");
}

function podCondition(pod: Pod, type: string) {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** Waits until exactly `count` live pods match, all Running and passing `check`; returns them. */
function waitForRunning(
  cli: Cli,
  namespace: string,
  selector: string,
  count: number,
  check: (pods: Pod[]) => void = () => undefined,
  timeoutMs = 45_000,
): Promise<Pod[]> {
  return eventually(
    async () => {
      const pods = await livePods(cli, namespace, selector);
      const running = pods.filter((p) => p.status?.phase === "Running");
      assert.equal(running.length, count, `${count} Running pods: ${describePods(pods)}`);
      assert.equal(pods.length, count, `only ${count} live pods: ${describePods(pods)}`);
      check(pods);
      return pods;
    },
    timeoutMs,
    pollMs,
  );
}

/** Waits until the pod's PodScheduled condition says Unschedulable; returns its message. */
function waitForUnschedulable(cli: Cli, namespace: string, name: string): Promise<string> {
  return eventually(
    async () => {
      const pod = await cli.get<Pod>(["pod", name, "-n", namespace]);
      const scheduled = podCondition(pod, "PodScheduled");
      assert.equal(
        scheduled?.status,
        "False",
        `${name}: PodScheduled=False, got ${JSON.stringify(pod.status)}`,
      );
      assert.equal(scheduled?.reason, "Unschedulable", `${name}: reason Unschedulable`);
      assert.equal(pod.status?.phase, "Pending", `${name} stays Pending`);
      assert.equal(pod.spec.nodeName, undefined, `${name} is not bound`);
      return scheduled?.message ?? "";
    },
    20_000,
    pollMs,
  );
}

/** Waits until the pod is Running; returns it. */
function waitForPodRunning(cli: Cli, namespace: string, name: string): Promise<Pod> {
  return eventually(
    async () => {
      const pod = await cli.get<Pod>(["pod", name, "-n", namespace]);
      assert.equal(pod.status?.phase, "Running", `${name} Running, got ${describePods([pod])}`);
      return pod;
    },
    30_000,
    pollMs,
  );
}

function pod(
  name: string,
  namespace: string,
  spec: Partial<Pod["spec"]> = {},
  annotations?: Record<string, string>,
): object {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace,
      labels: { scenario: name },
      ...(annotations === undefined ? {} : { annotations }),
    },
    spec: { containers: [{ name: "c", image: "nginx" }], ...spec },
  };
}

function requiredNode(node: string): Partial<Pod["spec"]> {
  return {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [node] }],
            },
          ],
        },
      },
    },
  };
}

const cpuRequest = (cpu: string) => [
  { name: "c", image: "nginx", resources: { requests: { cpu } } },
];

/** `"<revision> <image> <replicas>"` per ReplicaSet, sorted. */
function revisions(sets: readonly ReplicaSet[]): string[] {
  return sets
    .map(
      (rs) =>
        `${rs.metadata.annotations?.["deployment.kubernetes.io/revision"] ?? "?"} ${rs.spec.template?.spec?.containers[0]?.image ?? "?"} ${rs.spec.replicas ?? "?"}`,
    )
    .sort();
}

describe("cluster scenarios with kubectl against gantry up", { concurrency: true }, () => {
  describe("three default nodes", { concurrency: 1 }, () => {
    let gantry: GantryProcess;
    const cli = cliFor(() => gantry, current);
    const oldCli = cliFor(() => gantry, oldest);

    before(async () => {
      gantry = await startGantry();
    });
    after(async () => {
      await gantry?.[Symbol.asyncDispose]();
    });

    test("Deployment.rollout: created with kubectl, spread over the 3 nodes, scaled, updated and undone", {
      timeout: 180_000,
    }, async () => {
      const ns = "rollout";
      await cli.ok(["create", "namespace", ns]);
      await cli.ok(["create", "deployment", "web", "--image=nginx", "--replicas=3", "-n", ns]);
      const first = await waitForRunning(cli, ns, "app=web", 3);
      assert.deepEqual(
        first.map((p) => p.spec.nodeName).sort(),
        ["node-0", "node-1", "node-2"],
        `one replica per node: ${describePods(first)}`,
      );
      const status = await cli.ok([
        "rollout",
        "status",
        "deployment/web",
        "--timeout=60s",
        "-n",
        ns,
      ]);
      assert.match(status, /deployment "web" successfully rolled out/);

      assert.match(
        await cli.ok(["scale", "deployment/web", "--replicas=5", "-n", ns]),
        /deployment.apps\/web scaled/,
      );
      await waitForRunning(cli, ns, "app=web", 5);
      await eventually(
        async () => {
          const d = await cli.get<Deployment>(["deployment", "web", "-n", ns]);
          assert.equal(d.status?.availableReplicas, 5, `5 available: ${JSON.stringify(d.status)}`);
        },
        30_000,
        pollMs,
      );

      await cli.ok(["set", "image", "deployment/web", "nginx=nginx:1.27", "-n", ns]);
      assert.match(
        await cli.ok(["rollout", "status", "deployment/web", "--timeout=60s", "-n", ns]),
        /successfully rolled out/,
      );
      await waitForRunning(cli, ns, "app=web", 5, (pods) => {
        assert.deepEqual(
          new Set(pods.map((p) => p.spec.containers[0]?.image)),
          new Set(["nginx:1.27"]),
        );
      });
      await eventually(
        async () => {
          const sets = await cli.get<List<ReplicaSet>>(["replicasets", "-n", ns, "-l", "app=web"]);
          assert.deepEqual(revisions(sets.items), ["1 nginx 0", "2 nginx:1.27 5"]);
        },
        30_000,
        pollMs,
      );

      assert.match(
        await cli.ok(["rollout", "undo", "deployment/web", "-n", ns]),
        /deployment.apps\/web rolled back/,
      );
      assert.match(
        await cli.ok(["rollout", "status", "deployment/web", "--timeout=60s", "-n", ns]),
        /successfully rolled out/,
      );
      await waitForRunning(cli, ns, "app=web", 5, (pods) => {
        assert.deepEqual(new Set(pods.map((p) => p.spec.containers[0]?.image)), new Set(["nginx"]));
      });
      await eventually(
        async () => {
          const sets = await cli.get<List<ReplicaSet>>(["replicasets", "-n", ns, "-l", "app=web"]);
          // The undo reuses revision 1's ReplicaSet as revision 3 and remembers it was 1.
          assert.deepEqual(revisions(sets.items), ["2 nginx:1.27 0", "3 nginx 5"]);
          const reused = sets.items.find(
            (rs) => rs.spec.template?.spec?.containers[0]?.image === "nginx",
          );
          assert.equal(
            reused?.metadata.annotations?.["deployment.kubernetes.io/revision-history"],
            "1",
          );
        },
        30_000,
        pollMs,
      );
      const deployment = await cli.get<Deployment>(["deployment", "web", "-n", ns]);
      assert.equal(deployment.metadata.annotations?.["deployment.kubernetes.io/revision"], "3");
      assert.equal(deployment.spec.template.spec?.containers[0]?.image, "nginx");
      const history = await cli.ok(["rollout", "history", "deployment/web", "-n", ns]);
      assert.match(history, /^2\s/m, `revision 2 in the history:\n${history}`);
      assert.match(history, /^3\s/m, `revision 3 in the history:\n${history}`);
      assert.doesNotMatch(history, /^1\s/m, `revision 1 became 3:\n${history}`);
    });

    test("Scheduler.schedule: a pod requesting 1000 CPUs stays Pending, Unschedulable, with a FailedScheduling event", {
      timeout: 60_000,
    }, async () => {
      const ns = "pending";
      await cli.ok(["create", "namespace", ns]);
      await cli.apply([pod("huge", ns, { containers: cpuRequest("1000") })]);
      // Since 1.31 NodeResourcesFit marks a request larger than a node's allocatable as
      // UnschedulableAndUnresolvable, so preemption calls every node "not helpful".
      const want =
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
      assert.equal(await waitForUnschedulable(cli, ns, "huge"), want);
      const events = await eventually(
        async () => {
          const list = await cli.get<List<Event>>([
            "events",
            "-n",
            ns,
            "--field-selector",
            "involvedObject.name=huge,reason=FailedScheduling",
          ]);
          assert.ok(list.items.length > 0, "a FailedScheduling event for huge");
          return list.items;
        },
        20_000,
        pollMs,
      );
      for (const event of events) {
        assert.equal(event.type, "Warning");
        assert.equal(event.message, want);
        assert.equal(event.involvedObject.kind, "Pod");
        assert.equal(event.reportingComponent ?? event.source?.component, "default-scheduler");
      }
      const describe = await cli.ok(["describe", "pod", "huge", "-n", ns]);
      assert.match(
        describe,
        /Warning\s+FailedScheduling\s+.*default-scheduler\s+0\/3 nodes are available: 3 Insufficient cpu\./,
      );
    });

    test("Node.cordon (kubectl 1.27): new pods avoid the cordoned node, and run on it after uncordon", {
      timeout: 90_000,
    }, async () => {
      const ns = "cordon";
      await oldCli.ok(["create", "namespace", ns]);
      assert.match(await oldCli.ok(["cordon", "node-0"]), /node\/node-0 cordoned/);
      const node = await oldCli.get<Node>(["node", "node-0"]);
      assert.equal(node.spec?.unschedulable, true);
      assert.match(
        await oldCli.ok(["get", "node", "node-0"]),
        /node-0\s+Ready,SchedulingDisabled\s/,
      );

      await oldCli.ok([
        "create",
        "deployment",
        "spread",
        "--image=nginx",
        "--replicas=4",
        "-n",
        ns,
      ]);
      const pods = await waitForRunning(oldCli, ns, "app=spread", 4);
      assert.deepEqual(
        pods.filter((p) => p.spec.nodeName === "node-0").map((p) => p.metadata.name),
        [],
        `no pod on the cordoned node: ${describePods(pods)}`,
      );

      await oldCli.apply([
        pod("pinned", ns, { nodeSelector: { "kubernetes.io/hostname": "node-0" } }),
      ]);
      assert.equal(
        await waitForUnschedulable(oldCli, ns, "pinned"),
        "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
      );

      assert.match(await oldCli.ok(["uncordon", "node-0"]), /node\/node-0 uncordoned/);
      const pinned = await waitForPodRunning(oldCli, ns, "pinned");
      assert.equal(pinned.spec.nodeName, "node-0");
    });

    test("Node.taint: untolerating pods avoid a NoSchedule taint, a tolerating pod lands on the node", {
      timeout: 90_000,
    }, async () => {
      const ns = "taint";
      await cli.ok(["create", "namespace", ns]);
      assert.match(
        await cli.ok(["taint", "nodes", "node-1", "k=v:NoSchedule"]),
        /node\/node-1 tainted/,
      );
      try {
        await cli.ok(["create", "deployment", "plain", "--image=nginx", "--replicas=4", "-n", ns]);
        const pods = await waitForRunning(cli, ns, "app=plain", 4);
        assert.deepEqual(
          pods.filter((p) => p.spec.nodeName === "node-1").map((p) => p.metadata.name),
          [],
          `no untolerating pod on the tainted node: ${describePods(pods)}`,
        );

        const toleration = {
          key: "k",
          operator: "Equal",
          value: "v",
          effect: "NoSchedule",
        } as const;
        await cli.apply([
          pod("tolerating", ns, { ...requiredNode("node-1"), tolerations: [toleration] }),
          pod("untolerating", ns, requiredNode("node-1")),
        ]);
        const tolerating = await waitForPodRunning(cli, ns, "tolerating");
        assert.equal(tolerating.spec.nodeName, "node-1");
        assert.equal(
          await waitForUnschedulable(cli, ns, "untolerating"),
          "0/3 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        );
      } finally {
        await cli.ok(["taint", "nodes", "node-1", "k=v:NoSchedule-"]);
      }
      // Removing the taint requeues the pod that wanted the node.
      const untolerating = await waitForPodRunning(cli, ns, "untolerating");
      assert.equal(untolerating.spec.nodeName, "node-1");
    });
  });

  describe("pod lifecycle and Jobs on three default nodes", { concurrency: 1 }, () => {
    let gantry: GantryProcess;
    const cli = cliFor(() => gantry, current);

    before(async () => {
      gantry = await startGantry();
    });
    after(async () => {
      await gantry?.[Symbol.asyncDispose]();
    });

    test("Kubelet.runPod: gantry.dev/run-for and gantry.dev/exit-code end pods Succeeded, Failed, or restarting", {
      timeout: 90_000,
    }, async () => {
      const ns = "lifecycle";
      await cli.ok(["create", "namespace", ns]);
      await cli.apply([
        pod("finishes", ns, { restartPolicy: "Never" }, { "gantry.dev/run-for": "1s" }),
        pod(
          "fails",
          ns,
          { restartPolicy: "Never" },
          { "gantry.dev/run-for": "1s", "gantry.dev/exit-code": "1" },
        ),
        pod("crashes", ns, { restartPolicy: "Always" }, { "gantry.dev/exit-code": "1" }),
      ]);
      const ended = async (name: string, phase: string, exitCode: number, reason: string) => {
        const p = await eventually(
          async () => {
            const got = await cli.get<Pod>(["pod", name, "-n", ns]);
            assert.equal(
              got.status?.phase,
              phase,
              `${name} ${phase}: ${JSON.stringify(got.status)}`,
            );
            return got;
          },
          30_000,
          pollMs,
        );
        const terminated = p.status?.containerStatuses?.[0]?.state?.terminated;
        assert.equal(terminated?.exitCode, exitCode, `${name} exit code`);
        assert.equal(terminated?.reason, reason, `${name} reason`);
        assert.equal(p.status?.containerStatuses?.[0]?.restartCount, 0, `${name} never restarted`);
      };
      await ended("finishes", "Succeeded", 0, "Completed");
      await ended("fails", "Failed", 1, "Error");

      const restarts = async (atLeast: number): Promise<number> =>
        eventually(
          async () => {
            const got = await cli.get<Pod>(["pod", "crashes", "-n", ns]);
            const status = got.status?.containerStatuses?.[0];
            const count = status?.restartCount ?? 0;
            assert.ok(
              count >= atLeast,
              `crashes restarted ${atLeast}+ times: ${JSON.stringify(status)}`,
            );
            assert.equal(got.status?.phase, "Running", "a restarting pod stays Running");
            assert.equal(status?.lastState?.terminated?.exitCode, 1);
            return count;
          },
          40_000,
          pollMs,
        );
      const once = await restarts(1);
      // The next restart waits out CrashLoopBackOff (10 s), then the count grows.
      const later = await restarts(once + 1);
      assert.ok(later > once, `restartCount grew from ${once} to ${later}`);
      assert.match(
        await cli.ok(["get", "pod", "crashes", "-n", ns]),
        /crashes\s+0\/1\s+(CrashLoopBackOff|Error|Running)\s+\d+/,
      );
    });

    test("Job.complete: a Job of two 1 s pods completes and kubectl wait sees condition=complete", {
      timeout: 90_000,
    }, async () => {
      const ns = "jobs";
      await cli.ok(["create", "namespace", ns]);
      await cli.apply([
        {
          apiVersion: "batch/v1",
          kind: "Job",
          metadata: { name: "twice", namespace: ns },
          spec: {
            completions: 2,
            parallelism: 1,
            template: {
              metadata: { annotations: { "gantry.dev/run-for": "1s" } },
              spec: { restartPolicy: "Never", containers: [{ name: "work", image: "busybox" }] },
            },
          },
        },
      ]);
      const waited = await cli.run([
        "wait",
        "--for=condition=complete",
        "job/twice",
        "--timeout=60s",
        "-n",
        ns,
      ]);
      assert.equal(waited.code, 0, `kubectl wait succeeded:\n${waited.stderr}${waited.stdout}`);
      assert.match(waited.stdout, /job.batch\/twice condition met/);
      const job = await cli.get<Job>(["job", "twice", "-n", ns]);
      assert.equal(job.status?.succeeded, 2);
      const pods = await cli.get<List<Pod>>(["pods", "-n", ns, "-l", "job-name=twice"]);
      assert.deepEqual(
        pods.items.map((p) => p.status?.phase),
        ["Succeeded", "Succeeded"],
        `the Job's pods: ${describePods(pods.items)}`,
      );
    });
  });

  describe("preemption on two small nodes (--config)", { concurrency: 1 }, () => {
    let gantry: GantryProcess;
    let configDir: string;
    const cli = cliFor(() => gantry, current);

    before(async () => {
      configDir = mkdtempSync(join(tmpdir(), "gantry-scenario-config-"));
      const config = join(configDir, "cluster.yaml");
      writeFileSync(
        config,
        stringify({
          apiVersion: "gantry.dev/v1alpha1",
          kind: "ClusterConfig",
          nodePools: [{ name: "small", count: 2, capacity: { cpu: "2", memory: "4Gi" } }],
        }),
      );
      gantry = await startGantry({ extraArgs: ["--config", config] });
    });
    after(async () => {
      await gantry?.[Symbol.asyncDispose]();
      rmSync(configDir, { recursive: true, force: true });
    });

    test("DefaultPreemption.postFilter: a high-priority pod evicts one low-priority pod and runs in its place", {
      timeout: 120_000,
    }, async () => {
      const ns = "preempt";
      await cli.ok(["create", "namespace", ns]);
      await cli.apply([
        {
          apiVersion: "scheduling.k8s.io/v1",
          kind: "PriorityClass",
          metadata: { name: "high" },
          value: 1000,
        },
        {
          apiVersion: "scheduling.k8s.io/v1",
          kind: "PriorityClass",
          metadata: { name: "low" },
          value: 10,
        },
      ]);
      // Four 1-CPU low-priority pods fill both 2-CPU nodes. A victim takes 3 s to stop, the
      // window in which the preemptor is nominated but not yet bound.
      const lows = ["low-0", "low-1", "low-2", "low-3"];
      await cli.apply(
        lows.map((name) =>
          pod(
            name,
            ns,
            { priorityClassName: "low", containers: cpuRequest("1") },
            { "gantry.dev/stop-delay": "3s" },
          ),
        ),
      );
      for (const name of lows) await waitForPodRunning(cli, ns, name);
      const placed = await cli.get<List<Pod>>(["pods", "-n", ns]);
      assert.deepEqual(
        placed.items.map((p) => p.spec.nodeName).sort(),
        ["small-0", "small-0", "small-1", "small-1"],
        `two low pods per node: ${describePods(placed.items)}`,
      );

      // A pod of the same priority finds nothing it may evict.
      await cli.apply([pod("peer", ns, { priorityClassName: "low", containers: cpuRequest("1") })]);
      assert.equal(
        await waitForUnschedulable(cli, ns, "peer"),
        "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
      );
      await cli.ok(["delete", "pod", "peer", "-n", ns, "--timeout=30s"]);

      await cli.apply([
        pod("high", ns, { priorityClassName: "high", containers: cpuRequest("1") }),
      ]);
      const nominated = await eventually(
        async () => {
          const high = await cli.get<Pod>(["pod", "high", "-n", ns]);
          const node = high.status?.nominatedNodeName ?? "";
          assert.notEqual(node, "", `high is nominated: ${JSON.stringify(high.status)}`);
          assert.equal(high.spec.nodeName, undefined, "high waits for its victim to stop");
          return node;
        },
        20_000,
        50,
      );
      const victims = (await cli.get<List<Pod>>(["pods", "-n", ns, "-l", "scenario"])).items.filter(
        (p) => p.metadata.deletionTimestamp !== undefined,
      );
      assert.deepEqual(
        victims.map((p) => p.spec.nodeName),
        [nominated],
        `one victim, on the nominated node: ${describePods(victims)}`,
      );
      const victim = victims[0] as Pod;
      const disruption = podCondition(victim, "DisruptionTarget");
      assert.equal(disruption?.status, "True");
      assert.equal(disruption?.reason, "PreemptionByScheduler");

      const high = await waitForPodRunning(cli, ns, "high");
      assert.equal(high.spec.nodeName, nominated);
      await eventually(
        async () => {
          const gone = await cli.run(["get", "pod", victim.metadata.name ?? "", "-n", ns]);
          assert.equal(gone.code, 1, `the victim is deleted: ${gone.stdout}`);
          assert.match(gone.stderr, /NotFound/);
        },
        20_000,
        pollMs,
      );
      const survivors = await livePods(cli, ns, "scenario");
      assert.deepEqual(
        survivors.map((p) => p.metadata.name).sort(),
        ["high", ...lows.filter((name) => name !== victim.metadata.name)].sort(),
        `only the victim went: ${describePods(survivors)}`,
      );
      const preempted = await cli.get<List<Event>>([
        "events",
        "-n",
        ns,
        "--field-selector",
        `involvedObject.name=${victim.metadata.name ?? ""},reason=Preempted`,
      ]);
      assert.deepEqual(
        preempted.items.map((e) => e.message),
        [`Preempted by pod ${high.metadata.uid ?? ""} on node ${nominated}`],
      );
    });
  });

  describe("a failed node (gantry.dev/fail)", { concurrency: 1 }, () => {
    let gantry: GantryProcess;
    let configDir: string;
    const cli = cliFor(() => gantry, current);

    before(async () => {
      // Upstream's node-monitor grace period is 50 s; a 1 s Lease renewal and a 5 s grace
      // period keep the scenario short without changing what happens.
      configDir = mkdtempSync(join(tmpdir(), "gantry-scenario-config-"));
      const config = join(configDir, "cluster.yaml");
      writeFileSync(
        config,
        stringify({
          apiVersion: "gantry.dev/v1alpha1",
          kind: "ClusterConfig",
          nodePools: [{ name: "node", count: 3, kubelet: { nodeLeaseDurationSeconds: 4 } }],
          controllerManager: { nodeMonitorPeriod: "1s", nodeMonitorGracePeriod: "5s" },
        }),
      );
      gantry = await startGantry({ extraArgs: ["--config", config] });
    });
    after(async () => {
      await gantry?.[Symbol.asyncDispose]();
      rmSync(configDir, { recursive: true, force: true });
    });

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
});
