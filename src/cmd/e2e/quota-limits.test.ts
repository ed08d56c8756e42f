import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Pod, ResourceQuota } from "../../api/index.ts";
import {
  eventually,
  type GantryProcess,
  singleClusterQueueSetup,
  startGantry,
} from "../../testing/index.ts";
import { type Cli, cliFor, current, oldest } from "../../testing/kubectl-scenarios.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// LimitRange and ResourceQuota against the real `gantry up` (admission in the API server, the
// resource quota controller in the controller manager), driven by the oldest and newest kubectl.

const limitRange = (namespace: string) => ({
  apiVersion: "v1",
  kind: "LimitRange",
  metadata: { name: "limits", namespace },
  spec: {
    limits: [
      {
        type: "Container",
        default: { cpu: "500m", memory: "256Mi" },
        defaultRequest: { cpu: "250m", memory: "128Mi" },
        max: { cpu: "1" },
      },
    ],
  },
});

/** Waits until the controller has counted the quota (admission ignores it until then). */
function waitCounted(cli: Cli, namespace: string, name: string): Promise<ResourceQuota> {
  return eventually(
    async () => {
      const quota = await cli.get<ResourceQuota>(["quota", name, "-n", namespace]);
      assert.deepEqual(quota.status?.hard, quota.spec?.hard, "status.hard is set");
      assert.ok(quota.status?.used !== undefined, "status.used is set");
      return quota;
    },
    20_000,
    200,
  );
}

describe("LimitRange and ResourceQuota with kubectl", { concurrency: 1 }, () => {
  let gantry: GantryProcess;

  before(async () => {
    gantry = await startGantry({
      storage: "memory",
      extraArgs: ["--nodes", "1"],
      timeoutMs: 60_000,
    });
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  for (const version of [oldest, current]) {
    const cli = cliFor(() => gantry, version);
    const ns = `quota-${version.replace(".", "-")}`;

    test(`kubectl ${version}: create quota, apply a LimitRange, defaults, the exact 403s, describe, release`, async () => {
      await cli.ok(["create", "namespace", ns]);
      assert.equal(
        (await cli.ok(["create", "quota", "q", "--hard=cpu=1,memory=1Gi,pods=2", "-n", ns])).trim(),
        "resourcequota/q created",
      );
      await cli.apply([limitRange(ns)]);
      await waitCounted(cli, ns, "q");

      // A pod without requests gets the LimitRange's defaults, and says so.
      await cli.ok(["run", "p1", "--image=nginx", "-n", ns]);
      const p1 = await cli.get<Pod>(["pod", "p1", "-n", ns]);
      assert.deepEqual(p1.spec.containers[0]?.resources, {
        limits: { cpu: "500m", memory: "256Mi" },
        requests: { cpu: "250m", memory: "128Mi" },
      });
      assert.equal(
        p1.metadata.annotations?.["kubernetes.io/limit-ranger"],
        "LimitRanger plugin set: cpu, memory request for container p1; cpu, memory limit for container p1",
      );
      assert.equal(p1.status?.qosClass, "Burstable");

      // Over the LimitRange's max.
      const big = await cli.run([
        "run",
        "big",
        "--image=nginx",
        "-n",
        ns,
        `--overrides={"spec":{"containers":[{"name":"big","image":"nginx","resources":{"limits":{"cpu":"2"}}}]}}`,
      ]);
      assert.notEqual(big.code, 0, "a pod over the max is refused");
      assert.equal(
        big.stderr.trim(),
        'Error from server (Forbidden): pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
      );

      // The third pod of `pods: 2`.
      await cli.ok(["run", "p2", "--image=nginx", "-n", ns]);
      const p3 = await cli.run(["run", "p3", "--image=nginx", "-n", ns]);
      assert.notEqual(p3.code, 0, "the third pod is refused");
      assert.equal(
        p3.stderr.trim(),
        'Error from server (Forbidden): pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
      );

      const described = await cli.ok(["describe", "quota", "q", "-n", ns]);
      assert.match(described, /Resource\s+Used\s+Hard\n/);
      assert.match(described, /\ncpu\s+500m\s+1\n/);
      assert.match(described, /\nmemory\s+256Mi\s+1Gi\n/);
      assert.match(described, /\npods\s+2\s+2/);
      const table = await cli.ok(["get", "quota", "-n", ns]);
      assert.match(table, /^NAME\s+AGE\s+REQUEST\s+LIMIT\n/);
      assert.match(table, /\nq\s+\S+\s+cpu: 500m\/1, memory: 256Mi\/1Gi, pods: 2\/2\s*\n/);
      assert.match(
        await cli.ok(["get", "limits", "-n", ns]),
        /^NAME\s+CREATED AT\nlimits\s+\d{4}-/,
      );
      const limits = await cli.ok(["describe", "limits", "limits", "-n", ns]);
      assert.match(limits, /Container\s+cpu\s+-\s+1\s+250m\s+500m\s+-/);

      // Deleting a pod gives its share back.
      await cli.ok(["delete", "pod", "p1", "-n", ns, "--wait=true"]);
      await eventually(
        async () => {
          assert.match(await cli.ok(["describe", "quota", "q", "-n", ns]), /\npods\s+1\s+2/);
        },
        20_000,
        200,
      );
      await cli.ok(["run", "p3", "--image=nginx", "-n", ns]);
    });
  }

  test("Kueue: gated pods count toward ResourceQuota, so a `pods: 2` quota refuses the third", async () => {
    const cli = cliFor(() => gantry, current);
    const ns = "queued";
    await eventually(() => cli.ok(["get", "clusterqueues"]), 20_000, 200);
    await cli.ok(["create", "namespace", ns]);
    // No quota in the ClusterQueue: every pod stays gated.
    const setup = singleClusterQueueSetup(0).map((o) => {
      const object = o as { kind: string; metadata: { namespace?: string } };
      if (object.kind === "LocalQueue") object.metadata.namespace = ns;
      return object;
    });
    await cli.apply(setup);
    await cli.ok(["create", "quota", "q", "--hard=pods=2", "-n", ns]);
    await waitCounted(cli, ns, "q");
    const queued = (name: string) => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: ns, labels: { "kueue.x-k8s.io/queue-name": "user-queue" } },
      spec: { containers: [{ name: "c", image: "nginx", resources: { requests: { cpu: "1" } } }] },
    });
    await cli.apply([queued("w1"), queued("w2")]);
    const gates = await cli.ok([
      "get",
      "pods",
      "-n",
      ns,
      "-o",
      "jsonpath={range .items[*]}{.metadata.name}={.spec.schedulingGates[*].name} {end}",
    ]);
    assert.equal(gates.trim(), "w1=kueue.x-k8s.io/admission w2=kueue.x-k8s.io/admission");
    const third = await cli.run(["create", "-f", "-"], JSON.stringify(queued("w3")));
    assert.notEqual(third.code, 0, "the third gated pod is refused");
    assert.equal(
      third.stderr.trim(),
      'Error from server (Forbidden): error when creating "STDIN": pods "w3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    );
  });
});
