import assert from "node:assert/strict";
import { createServer } from "node:net";
import { test } from "node:test";
import { Counter, Registry } from "prom-client";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { startComponentServer } from "./component-server.ts";
import { servingSettings } from "./component-serving-flags.ts";
import type { HealthCheck } from "./health-checks.ts";
import { newLeaderElectionMetrics } from "./leader-election-metrics.ts";
import { UsageError } from "./usage-error.ts";

ensureNoLeaksInEachTest();

async function get(url: string): Promise<{ status: number; type: string; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return {
    status: res.status,
    type: res.headers.get("content-type") ?? "",
    body: await res.text(),
  };
}

test("startComponentServer: serves the health paths, /metrics in Prometheus text, and 404 elsewhere", async () => {
  const registry = new Registry();
  new Counter({ name: "demo_total", help: "A demo counter.", registers: [registry] }).inc(3);
  const leader = newLeaderElectionMetrics(registry);
  leader.leaderOff("kube-scheduler");
  let synced = false;
  const readyz: HealthCheck[] = [
    {
      name: "sched-handler-sync",
      check: () => (synced ? undefined : "waiting for handlers to sync"),
    },
  ];
  const server = await startComponentServer({
    address: "127.0.0.1",
    port: 0,
    healthz: () => [],
    livez: () => [],
    readyz: () => readyz,
    metrics: registry,
  });
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(server.url, `http://127.0.0.1:${server.port}`);
    assert.deepEqual(await get(`${server.url}/healthz`), {
      status: 200,
      type: "text/plain; charset=utf-8",
      body: "ok",
    });
    assert.deepEqual(
      (await get(`${server.url}/livez?verbose`)).body,
      "[+]ping ok\nlivez check passed\n",
    );
    const notReady = await get(`${server.url}/readyz`);
    assert.equal(notReady.status, 500);
    assert.equal(
      notReady.body,
      "[-]sched-handler-sync failed: reason withheld\nreadyz check failed\n",
    );
    synced = true;
    assert.equal((await get(`${server.url}/readyz`)).body, "ok");

    leader.leaderOn("kube-scheduler");
    const metrics = await get(`${server.url}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(metrics.type, /^text\/plain; version=0\.0\.4/);
    assert.match(metrics.body, /^demo_total 3$/m);
    assert.match(metrics.body, /^# TYPE leader_election_master_status gauge$/m);
    assert.match(metrics.body, /^leader_election_master_status\{name="kube-scheduler"\} 1$/m);

    assert.deepEqual(await get(`${server.url}/configz`), {
      status: 404,
      type: "text/plain; charset=utf-8",
      body: "404 page not found\n",
    });
  } finally {
    await server.close();
  }
});

test("startComponentServer: a port in use fails with an error naming the address", async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", () => resolve()));
  const address = taken.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  try {
    await assert.rejects(
      startComponentServer({
        address: "127.0.0.1",
        port,
        healthz: () => [],
        livez: () => [],
        readyz: () => [],
        metrics: new Registry(),
      }),
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
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
});

test("servingSettings: upstream's default port and 127.0.0.1, a port of 0 turns serving off", () => {
  assert.deepEqual(servingSettings({}, 10259), { address: "127.0.0.1", port: 10259 });
  assert.deepEqual(servingSettings({ "secure-port": "12345", "bind-address": "0.0.0.0" }, 10257), {
    address: "0.0.0.0",
    port: 12345,
  });
  assert.deepEqual(servingSettings({ "bind-address": "[::1]" }, 10257), {
    address: "::1",
    port: 10257,
  });
  assert.equal(servingSettings({ "secure-port": "0" }, 10259), undefined);
});

const refusals = [
  {
    values: { "secure-port": "70000" },
    want: 'Cannot use --secure-port "70000": give a port from 0 to 65535 (0 turns the health and metrics endpoints off)',
  },
  {
    values: { "secure-port": "ten" },
    want: 'Cannot use --secure-port "ten": give a port from 0 to 65535 (0 turns the health and metrics endpoints off)',
  },
  {
    values: { "bind-address": "localhost" },
    want: 'Cannot use --bind-address "localhost": give an IP address such as 127.0.0.1 or 0.0.0.0',
  },
] as const;

for (const c of refusals) {
  test(`servingSettings: ${JSON.stringify(c.values)} is a usage error`, () => {
    assert.throws(
      () => servingSettings(c.values, 10259),
      (error: unknown) => {
        assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
        assert.equal(error.message, c.want);
        return true;
      },
    );
  });
}
