/**
 * The health and metrics listener of the elected commands, run in this process against the
 * cluster harness: `gantry controller-manager` (kube-controller-manager's endpoints) and
 * `gantry queueing`, their flags and help, and a port that cannot be bound.
 */
import assert from "node:assert/strict";
import { setMaxListeners } from "node:events";
import { createServer, type Server } from "node:net";
import { after, before, test } from "node:test";
import {
  type ClusterHarness,
  eventually,
  freePort,
  startClusterHarness,
} from "../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../testing/leak-check.ts";
import type { CommandIo } from "./component-command.ts";
import { runControllerManagerCommand } from "./controller-manager-command.ts";
import { runQueueingCommand } from "./queueing-command.ts";
import { runSchedulerCommand } from "./scheduler-command.ts";

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

/** A listener on a free 127.0.0.1 port, and the port. */
async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  return { server, port: typeof address === "object" && address !== null ? address.port : 0 };
}

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.text() };
}

const fastElection = [
  "--leader-elect-lease-duration",
  "2s",
  "--leader-elect-renew-deadline",
  "1500ms",
  "--leader-elect-retry-period",
  "500ms",
];

const helpCases: { name: string; run: Command; port: string }[] = [
  { name: "scheduler", run: runSchedulerCommand, port: "(default 10259; 0 turns them off)" },
  {
    name: "controller-manager",
    run: runControllerManagerCommand,
    port: "(default 10257; 0 turns them off)",
  },
  { name: "queueing", run: runQueueingCommand, port: "(default 8081; 0 turns them off)" },
];

for (const c of helpCases) {
  test(`gantry ${c.name} --help: documents --secure-port and --bind-address`, async () => {
    const io = buffers();
    assert.equal(await c.run(["--help"], io, new AbortController().signal), 0);
    for (const text of ["--secure-port P", c.port, "--bind-address IP", "(default 127.0.0.1;"]) {
      assert.ok(io.stdout().includes(text), `the usage should mention ${text}:\n${io.stdout()}`);
    }
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

/** Runs `command` until the test ends, serving on a free port; returns its URL. */
async function serving(
  command: Command,
  args: readonly string[],
): Promise<{ url: string; io: ReturnType<typeof buffers>; stop(): Promise<number> }> {
  const port = await freePort();
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  const io = buffers();
  const running = command(
    ["--kubeconfig", harness.kubeconfigPath, "--secure-port", String(port), ...args],
    io,
    abort.signal,
  );
  const url = `http://127.0.0.1:${port}`;
  await eventually(() => {
    assert.match(io.stderr(), /Serving health and metrics/, "the command logs its URL");
  });
  return {
    url,
    io,
    stop: async () => {
      abort.abort();
      return running;
    },
  };
}

test("gantry controller-manager --secure-port: healthz names every controller, readyz passes once the informers synced, metrics carry the lease", async () => {
  const cm = await serving(runControllerManagerCommand, fastElection);
  try {
    assert.match(cm.io.stderr(), new RegExp(`"url":"${cm.url}"`));
    await eventually(async () => {
      assert.deepEqual(await get(`${cm.url}/readyz`), { status: 200, body: "ok" });
    }, 30_000);
    const healthz = await get(`${cm.url}/healthz?verbose`);
    assert.equal(healthz.status, 200);
    for (const line of ["[+]leaderElection ok", "[+]garbagecollector ok", "[+]disruption ok"]) {
      assert.ok(healthz.body.includes(`${line}\n`), `${line} in:\n${healthz.body}`);
    }
    assert.deepEqual(await get(`${cm.url}/healthz/namespace`), { status: 200, body: "ok" });
    assert.deepEqual(await get(`${cm.url}/readyz?verbose`), {
      status: 200,
      body: "[+]leaderElection ok\n[+]shutdown ok\n[+]kcm-handler-sync ok\nreadyz check passed\n",
    });
    const metrics = (await get(`${cm.url}/metrics`)).body;
    assert.match(metrics, /^leader_election_master_status\{name="kube-controller-manager"\} 1$/m);
    assert.match(metrics, /^# TYPE disruption_controller_reconciliations_total counter$/m);
  } finally {
    assert.equal(await cm.stop(), 0);
  }
  await assert.rejects(fetch(`${cm.url}/healthz`), "the listener is closed once the command ends");
});

test("gantry queueing --secure-port: ready once synced, with Kueue's metrics and its lease", async () => {
  const queueing = await serving(runQueueingCommand, fastElection);
  try {
    await eventually(async () => {
      assert.deepEqual(await get(`${queueing.url}/readyz?verbose`), {
        status: 200,
        body: "[+]leaderElection ok\n[+]shutdown ok\n[+]queueing-handler-sync ok\nreadyz check passed\n",
      });
    }, 30_000);
    const metrics = (await get(`${queueing.url}/metrics`)).body;
    assert.match(
      metrics,
      /^leader_election_master_status\{name="c1f6bfd2\.kueue\.x-k8s\.io"\} 1$/m,
    );
    assert.match(metrics, /^# TYPE kueue_pending_workloads gauge$/m);
  } finally {
    assert.equal(await queueing.stop(), 0);
  }
});

test("gantry scheduler --leader-elect=false: /healthz runs ping and /metrics has no lease", async () => {
  const scheduler = await serving(runSchedulerCommand, ["--leader-elect=false"]);
  try {
    assert.deepEqual(await get(`${scheduler.url}/healthz?verbose`), {
      status: 200,
      body: "[+]ping ok\nhealthz check passed\n",
    });
    await eventually(async () => {
      assert.deepEqual(await get(`${scheduler.url}/readyz`), { status: 200, body: "ok" });
    }, 30_000);
    const metrics = (await get(`${scheduler.url}/metrics`)).body;
    assert.doesNotMatch(metrics, /leader_election_master_status/);
    assert.match(metrics, /^# TYPE scheduler_schedule_attempts_total counter$/m);
  } finally {
    assert.equal(await scheduler.stop(), 0);
  }
});

test("gantry scheduler: a --secure-port in use fails the command with the address", async () => {
  const { server, port } = await listening();
  try {
    await assert.rejects(
      runSchedulerCommand(
        ["--kubeconfig", harness.kubeconfigPath, "--secure-port", String(port)],
        buffers(),
        new AbortController().signal,
      ),
      (error: unknown) => {
        assert.ok(error instanceof Error, "an Error");
        assert.match(
          error.message,
          new RegExp(`^Cannot serve health and metrics on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
        );
        return true;
      },
    );
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
