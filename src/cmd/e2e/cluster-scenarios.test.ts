import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { CronJob, Deployment, Event, Job, Node, Pod, ReplicaSet } from "../../api/index.ts";
import { eventually, type GantryProcess, startGantry } from "../../testing/index.ts";
import {
  cliFor,
  cpuRequest,
  current,
  describePods,
  type List,
  oldest,
  pod,
  pollMs,
  requiredNode,
  revisions,
  waitForPodRunning,
  waitForRunning,
  waitForUnschedulable,
} from "../../testing/kubectl-scenarios.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// The living cluster driven the way a user drives it: the real `gantry up` (scheduler,
// controllers, emulated kubelets) and the real kubectl, unmodified. Each group of scenarios
// shares one `gantry up`; the groups run side by side, the scenarios of a group one after the
// other (each in its own namespace, undoing what it did to the nodes). Every wait is bounded.

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

    test("CronJob: at the next minute a Job of 1 s pods runs and completes; the CronJob records it", {
      timeout: 120_000,
    }, async () => {
      const ns = "cron";
      await cli.ok(["create", "namespace", ns]);
      await cli.apply([
        {
          apiVersion: "batch/v1",
          kind: "CronJob",
          metadata: { name: "tick", namespace: ns },
          spec: {
            schedule: "* * * * *",
            jobTemplate: {
              spec: {
                template: {
                  metadata: { annotations: { "gantry.dev/run-for": "1s" } },
                  spec: {
                    restartPolicy: "Never",
                    containers: [{ name: "work", image: "busybox" }],
                  },
                },
              },
            },
          },
        },
      ]);
      const cronJob = await eventually(
        async () => {
          const got = await cli.get<CronJob>(["cronjob", "tick", "-n", ns]);
          assert.ok(
            got.status?.lastSuccessfulTime !== undefined,
            `a run succeeded: ${JSON.stringify(got.status)}`,
          );
          return got;
        },
        100_000,
        pollMs,
      );
      const scheduled = Date.parse(cronJob.status?.lastScheduleTime ?? "");
      assert.equal(scheduled % 60_000, 0, "runs start on a whole minute");
      const jobs = await cli.get<List<Job>>(["jobs", "-n", ns]);
      const job = jobs.items.find((j) => j.metadata.name === `tick-${scheduled / 60_000}`);
      assert.ok(
        job !== undefined,
        `the Job is named after its minute: ${jobs.items.map((j) => j.metadata.name)}`,
      );
      assert.equal(job.status?.succeeded, 1, "its pod succeeded");
      assert.match(
        await cli.ok(["describe", "cronjob", "tick", "-n", ns]),
        /SuccessfulCreate\s+\S+\s+cronjob-controller\s+Created job tick-\d+/,
      );
    });
  });

  // The groups run side by side, so one group's gantry is still up while the other's after hook
  // runs: the whole file is checked once, after both groups have stopped theirs.
  ensureNoLeaksAfterSuite();
});
