import assert from "node:assert/strict";
import { setMaxListeners } from "node:events";
import { after, before, test } from "node:test";
import type { Lease } from "../api/index.ts";
import { isNotFound, leasesResource } from "../client/index.ts";
import { type ClusterHarness, eventually, startClusterHarness } from "../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../testing/leak-check.ts";
import { runApiServerCommand } from "./apiserver-command.ts";
import type { CommandIo } from "./component-command.ts";
import { runControllerManagerCommand } from "./controller-manager-command.ts";
import { runKubeletCommand } from "./kubelet-command.ts";
import { runQueueingCommand } from "./queueing-command.ts";
import { runSchedulerCommand } from "./scheduler-command.ts";
import { UsageError } from "./usage-error.ts";

type Command = (argv: readonly string[], io: CommandIo, signal: AbortSignal) => Promise<number>;

function buffers(): CommandIo & { stdout(): string; stderr(): string } {
  let out = "";
  let err = "";
  return {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    stdout: () => out,
    stderr: () => err,
  };
}

const helpCases: { name: string; run: Command; flags: string[] }[] = [
  {
    name: "apiserver",
    run: runApiServerCommand,
    flags: ["--storage KIND", "--etcd-endpoints", "--etcd-prefix", "--config FILE", "--tls"],
  },
  {
    name: "scheduler",
    run: runSchedulerCommand,
    flags: [
      "--kubeconfig FILE",
      "--leader-elect=true|false",
      "--leader-elect-lease-duration",
      "--leader-elect-renew-deadline",
      "--leader-elect-retry-period",
      "--leader-elect-resource-name",
      "(default kube-scheduler)",
      "--leader-elect-resource-namespace",
      "(default kube-system)",
    ],
  },
  {
    name: "controller-manager",
    run: runControllerManagerCommand,
    flags: ["--kubeconfig FILE", "--config FILE", "(default kube-controller-manager)"],
  },
  {
    name: "queueing",
    run: runQueueingCommand,
    flags: ["--config FILE", "(default c1f6bfd2.kueue.x-k8s.io)", "(default kueue-system)"],
  },
  {
    name: "kubelet",
    run: runKubeletCommand,
    flags: ["--kubeconfig FILE", "--config FILE", "--port P", "--root-dir DIR", "--fleet-name"],
  },
];

for (const c of helpCases) {
  test(`gantry ${c.name} --help: documents its flags`, async () => {
    const io = buffers();
    assert.equal(await c.run(["--help"], io, new AbortController().signal), 0);
    for (const flag of c.flags) {
      assert.ok(io.stdout().includes(flag), `the usage should mention ${flag}:\n${io.stdout()}`);
    }
  });
}

const usageCases: { name: string; run: Command; argv: string[]; want: string }[] = [
  {
    name: "scheduler without a kubeconfig",
    run: runSchedulerCommand,
    argv: [],
    want: "Missing --kubeconfig: gantry scheduler reaches the API server through a kubeconfig (gantry apiserver writes one to DATA_DIR/kubeconfig)",
  },
  {
    name: "scheduler with a lease duration not above the renew deadline",
    run: runSchedulerCommand,
    argv: ["--kubeconfig", "k", "--leader-elect-lease-duration", "5s"],
    want: "Cannot use the leader election flags: leaseDuration must be greater than renewDeadline",
  },
  {
    name: "scheduler with a duration Go would not parse",
    run: runSchedulerCommand,
    argv: ["--kubeconfig", "k", "--leader-elect-retry-period", "2"],
    want: 'Cannot use --leader-elect-retry-period "2": give a positive Go duration such as 15s, 1m30s or 500ms',
  },
  {
    name: "controller-manager with a bool flag that is not one",
    run: runControllerManagerCommand,
    argv: ["--kubeconfig", "k", "--leader-elect=maybe"],
    want: 'Cannot use --leader-elect "maybe": give true or false',
  },
  {
    name: "controller-manager with another lock kind",
    run: runControllerManagerCommand,
    argv: ["--kubeconfig", "k", "--leader-elect-resource-lock", "endpoints"],
    want: 'Cannot use --leader-elect-resource-lock "endpoints": only leases is supported',
  },
  {
    name: "apiserver on etcd without endpoints",
    run: runApiServerCommand,
    argv: ["--storage", "etcd"],
    want: "Cannot use --storage etcd without --etcd-endpoints: give the members' client URLs, such as http://127.0.0.1:2379",
  },
  {
    name: "apiserver with endpoints but no etcd",
    run: runApiServerCommand,
    argv: ["--etcd-endpoints", "http://127.0.0.1:2379"],
    want: "Cannot use --etcd-endpoints or --etcd-prefix without --storage etcd",
  },
  {
    name: "apiserver with an unknown store",
    run: runApiServerCommand,
    argv: ["--storage", "postgres"],
    want: 'Cannot use storage "postgres": choose memory, sqlite or etcd',
  },
  {
    name: "kubelet with both a config and a node count",
    run: runKubeletCommand,
    argv: ["--kubeconfig", "k", "--config", "c.yaml", "--nodes", "2"],
    want: "Cannot use --nodes with --config: set the pools' counts in the file",
  },
  {
    name: "kubelet with an unknown flag",
    run: runKubeletCommand,
    argv: ["--kubeconfig", "k", "--pods", "3"],
    want: "Unknown option '--pods'",
  },
];

for (const c of usageCases) {
  test(`gantry ${c.name}: refused as a usage error`, async () => {
    await assert.rejects(
      c.run(c.argv, buffers(), new AbortController().signal),
      (error: unknown) => {
        assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
        assert.equal(error.message, c.want);
        return true;
      },
    );
  });
}

let harness: ClusterHarness;
before(async () => {
  harness = await startClusterHarness();
});
after(async () => {
  await harness[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

const fastElection = [
  "--leader-elect-lease-duration",
  "2s",
  "--leader-elect-renew-deadline",
  "1500ms",
  "--leader-elect-retry-period",
  "500ms",
];

test("gantry scheduler: leads through the kube-scheduler Lease and releases it when stopped", async () => {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const io = buffers();
  const running = runSchedulerCommand(
    ["--kubeconfig", harness.kubeconfigPath, "--secure-port", "0", ...fastElection],
    io,
    stop.signal,
  );
  const held = await eventually(async () => {
    const lease = await harness.client.get<Lease>(leasesResource, "kube-system", "kube-scheduler");
    assert.notEqual(lease.spec?.holderIdentity ?? "", "", "the scheduler should hold the lease");
    return lease;
  });
  assert.match(held.spec?.holderIdentity ?? "", /^.+_[0-9a-f-]{36}$/);
  assert.equal(held.spec?.leaseDurationSeconds, 2);
  stop.abort();
  assert.equal(await running, 0);
  const released = await harness.client.get<Lease>(leasesResource, "kube-system", "kube-scheduler");
  assert.equal(released.spec?.holderIdentity, "", io.stderr());
  assert.match(io.stderr(), /attempting to acquire leader lease kube-system\/kube-scheduler\.\.\./);
  assert.match(io.stderr(), /successfully acquired lease kube-system\/kube-scheduler/);
  assert.match(io.stderr(), /Requested to terminate, exiting/);
});

test("gantry controller-manager --leader-elect=false: runs without taking a lease", async () => {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const io = buffers();
  const running = runControllerManagerCommand(
    ["--kubeconfig", harness.kubeconfigPath, "--secure-port", "0", "--leader-elect=false"],
    io,
    stop.signal,
  );
  // The namespace controller at work proves the controllers run: it empties and removes a
  // deleted namespace.
  await harness.client.create(
    { group: "", version: "v1", resource: "namespaces", kind: "Namespace", namespaced: false },
    { apiVersion: "v1", kind: "Namespace", metadata: { name: "cm-no-election" } },
  );
  await harness.client.delete(
    { group: "", version: "v1", resource: "namespaces", kind: "Namespace", namespaced: false },
    undefined,
    "cm-no-election",
  );
  await eventually(async () => {
    await assert.rejects(
      harness.client.get(
        { group: "", version: "v1", resource: "namespaces", kind: "Namespace", namespaced: false },
        undefined,
        "cm-no-election",
      ),
      (error: unknown) => isNotFound(error),
    );
  });
  await assert.rejects(
    harness.client.get(leasesResource, "kube-system", "kube-controller-manager"),
    (error: unknown) => isNotFound(error),
  );
  stop.abort();
  assert.equal(await running, 0);
});
