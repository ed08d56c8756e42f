import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { Deployment, Node, Pod, Toleration } from "../api/index.ts";
import { deploymentsResource, newClient, nodesResource, podsResource } from "../client/index.ts";
import {
  eventually,
  makeDeployment,
  makePod,
  readKubeconfig,
  runGantry,
  startGantry,
} from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { runNodeCommand } from "./node-command.ts";

ensureNoLeaksInEachTest();

// Two nodes whose kubelets renew their Lease every 500 ms, and a node controller that gives
// up on a node after 3 s of silence, so a failure plays out in seconds.
const clusterConfig = `apiVersion: gantry.dev/v1alpha1
kind: ClusterConfig
nodePools:
- name: node
  count: 2
  kubelet:
    nodeLeaseDurationSeconds: 2
    nodeStatusUpdateFrequency: 1s
controllerManager:
  nodeMonitorPeriod: 200ms
  nodeMonitorGracePeriod: 3s
  nodeStartupGracePeriod: 3s
`;

const unreachableFor = (seconds: number): Toleration => ({
  key: "node.kubernetes.io/unreachable",
  operator: "Exists",
  effect: "NoExecute",
  tolerationSeconds: seconds,
});

/** Runs the command in this process, collecting what it prints. */
async function nodeCommand(args: readonly string[]) {
  let out = "";
  let err = "";
  const code = await runNodeCommand(args, {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

const isActive = (pod: Pod): boolean => pod.metadata.deletionTimestamp === undefined;

test("gantry node fail: the node goes Unknown and tainted, its pods are evicted and replaced elsewhere; recover brings it back", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gantry-node-"));
  const configFile = join(dir, "cluster.yaml");
  writeFileSync(configFile, clusterConfig);
  try {
    await using gantry = await startGantry({
      storage: "memory",
      extraArgs: ["--config", configFile],
    });
    const { url, token } = readKubeconfig(gantry.kubeconfig);
    await using client = newClient({ server: url, token, userAgent: "gantry/test" });
    await client.create<Deployment>(
      deploymentsResource,
      makeDeployment("web").replicas(2).toleration(unreachableFor(1)).forCreate(),
    );
    const running = await eventually(async () => {
      const pods = (await client.list<Pod>(podsResource, "default")).items;
      assert.deepEqual(
        pods.map((p) => p.status?.phase),
        ["Running", "Running"],
      );
      return pods;
    });
    const victim = running[0];
    const failing = victim?.spec.nodeName ?? "";
    const other = failing === "node-0" ? "node-1" : "node-0";
    // A pod with the API server's default tolerations (300 s) stays through the test.
    const patient = makePod("patient").nodeName(failing).obj();
    delete patient.metadata.uid;
    await client.create<Pod>(podsResource, patient);

    const failed = await runGantry(["node", "fail", failing, "--kubeconfig", gantry.kubeconfig]);
    assert.deepEqual({ code: failed.code, stderr: failed.stderr }, { code: 0, stderr: "" });
    assert.match(failed.stdout, new RegExp(`^node/${failing} failed: its kubelet stopped`));

    const unknown = await eventually(async () => {
      const node = await client.get<Node>(nodesResource, undefined, failing);
      const ready = node.status?.conditions?.find((c) => c.type === "Ready");
      assert.equal(ready?.status, "Unknown");
      assert.deepEqual((node.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort(), [
        "node.kubernetes.io/unreachable:NoExecute",
        "node.kubernetes.io/unreachable:NoSchedule",
      ]);
      return ready;
    });
    assert.equal(unknown?.message, "Kubelet stopped posting node status.");

    // The evicted pod stays Terminating (its kubelet is down); its ReplicaSet replaces it on
    // the healthy node.
    const replaced = await eventually(async () => {
      const pods = (await client.list<Pod>(podsResource, "default")).items;
      const evicted = pods.find((p) => p.metadata.name === victim?.metadata.name);
      assert.ok(evicted !== undefined && !isActive(evicted), "the victim is Terminating");
      const web = pods.filter((p) => p.metadata.name !== "patient" && isActive(p));
      assert.deepEqual(
        web.map((p) => [p.spec.nodeName, p.status?.phase]),
        [
          [other, "Running"],
          [other, "Running"],
        ],
      );
      return evicted;
    }, 20_000);
    assert.equal(
      replaced.status?.conditions?.find((c) => c.type === "DisruptionTarget")?.reason,
      "DeletionByTaintManager",
    );
    const waiting = await client.get<Pod>(podsResource, "default", "patient");
    assert.equal(waiting.metadata.deletionTimestamp, undefined, "300 s have not passed");

    assert.deepEqual(await nodeCommand(["fail", failing, "--kubeconfig", gantry.kubeconfig]), {
      code: 0,
      out: `node/${failing} is already failed\n`,
      err: "",
    });
    assert.deepEqual(await nodeCommand(["fail", "nope", "--kubeconfig", gantry.kubeconfig]), {
      code: 1,
      out: "",
      err: 'gantry node: nodes "nope" not found\n',
    });

    const recovered = await runGantry([
      "node",
      "recover",
      failing,
      "--kubeconfig",
      gantry.kubeconfig,
    ]);
    assert.deepEqual(
      { code: recovered.code, stdout: recovered.stdout },
      {
        code: 0,
        stdout: `node/${failing} recovered: its kubelet posts status again; the node controller marks it Ready and removes the unreachable taints\n`,
      },
    );
    await eventually(async () => {
      const node = await client.get<Node>(nodesResource, undefined, failing);
      const ready = node.status?.conditions?.find((c) => c.type === "Ready");
      assert.deepEqual(
        { ready: ready?.status, taints: node.spec?.taints },
        { ready: "True", taints: undefined },
      );
      // Back at work, the kubelet finishes the deletion of the evicted pod.
      const pods = (await client.list<Pod>(podsResource, "default")).items;
      assert.equal(
        pods.some((p) => p.metadata.name === victim?.metadata.name),
        false,
      );
    });

    await gantry.stop();
    const down = await nodeCommand(["fail", failing, "--kubeconfig", gantry.kubeconfig]);
    assert.equal(down.code, 1);
    assert.match(
      down.err,
      /^gantry node: cannot reach the API server at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): is the cluster running\? Start it with `gantry up`\n$/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const usageCases = [
  {
    name: "no subcommand",
    args: [],
    want: "gantry node: Missing a subcommand: fail or recover\n",
  },
  {
    name: "an unknown subcommand",
    args: ["crash", "node-0"],
    want: 'gantry node: Unknown subcommand "crash": use fail or recover\n',
  },
  { name: "no node name", args: ["fail"], want: "gantry node: Missing the node name\n" },
] as const;

for (const c of usageCases) {
  test(`runNodeCommand: ${c.name} is a usage error`, async () => {
    assert.deepEqual(await nodeCommand(c.args), {
      code: 2,
      out: "",
      err: `${c.want}Run 'gantry node --help' for usage.\n`,
    });
  });
}

test("runNodeCommand: without a kubeconfig it says to run gantry up", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gantry-node-"));
  try {
    const result = await nodeCommand(["fail", "node-0", "--data-dir", dir]);
    assert.deepEqual(result, {
      code: 1,
      out: "",
      err: `gantry node: Cannot find the kubeconfig ${join(dir, "kubeconfig")}: start the cluster with \`gantry up\` first (or point --data-dir or --kubeconfig at it)\n`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
