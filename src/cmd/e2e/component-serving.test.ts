/**
 * The health and metrics endpoints of a separately run `gantry scheduler` (kube-scheduler's
 * 10259, here on a free port): two copies against one `gantry apiserver`, the leader ready once
 * its informers synced, the follower healthy and reporting `leader_election_master_status` 0,
 * and the leader's `/metrics` counting the pod it scheduled.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { newClient, podsResource } from "../../client/index.ts";
import { eventually } from "../../testing/eventually.ts";
import {
  type ComponentProcess,
  startComponentProcess,
  startGantry,
} from "../../testing/gantry-process.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { freePort } from "../../testing/ports.ts";

ensureNoLeaksInEachTest();

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.text() };
}

const electionFlags = [
  "--leader-elect-lease-duration",
  "2s",
  "--leader-elect-renew-deadline",
  "1500ms",
  "--leader-elect-retry-period",
  "500ms",
];

test("gantry scheduler --secure-port: /healthz, /readyz and /metrics of a leader and a follower", {
  timeout: 180_000,
}, async () => {
  await using api = await startGantry({ command: "apiserver", storage: "sqlite" });
  const client = newClient({ server: api.url, token: api.token, userAgent: "gantry/serving-test" });
  try {
    await using kubelet = startComponentProcess("kubelet", api.kubeconfig, [
      "--nodes",
      "2",
      "--port",
      "0",
    ]);
    await kubelet.waitForLog(/Kubelets are running/);

    const ports = [await freePort(), await freePort()];
    const start = (port: number): ComponentProcess =>
      startComponentProcess("scheduler", api.kubeconfig, [
        "--secure-port",
        String(port),
        ...electionFlags,
      ]);
    await using first = start(ports[0] ?? 0);
    await using second = start(ports[1] ?? 0);
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    for (const [i, process] of [first, second].entries()) {
      const line = await process.waitForLog(/Serving health and metrics/);
      assert.match(line, new RegExp(`"url":"${urls[i]}"`));
    }

    const leaderIndex = await eventually(() => {
      const leading = [first, second].findIndex((p) =>
        p.logs().includes("successfully acquired lease kube-system/kube-scheduler"),
      );
      assert.ok(leading >= 0, "one scheduler should acquire the lease");
      return leading;
    }, 30_000);
    const leaderUrl = urls[leaderIndex] ?? "";
    const followerUrl = urls[1 - leaderIndex] ?? "";

    for (const url of [leaderUrl, followerUrl]) {
      assert.deepEqual(await get(`${url}/healthz`), { status: 200, body: "ok" });
      assert.deepEqual(await get(`${url}/livez`), { status: 200, body: "ok" });
      assert.deepEqual(await get(`${url}/healthz?verbose`), {
        status: 200,
        body: "[+]leaderElection ok\nhealthz check passed\n",
      });
    }
    // The leader is ready once its informers synced; the follower has none to wait for.
    await eventually(async () => {
      assert.deepEqual(await get(`${leaderUrl}/readyz`), { status: 200, body: "ok" });
    }, 30_000);
    // The follower is ready once it has seen the leader hold the lease.
    await eventually(async () => {
      assert.deepEqual(await get(`${followerUrl}/readyz?verbose`), {
        status: 200,
        body: "[+]leaderElection ok\n[+]shutdown ok\n[+]sched-handler-sync ok\nreadyz check passed\n",
      });
    }, 10_000);

    // The default namespace has its ServiceAccount without a controller-manager running.
    await client.create<Pod>(podsResource, {
      metadata: { name: "serving-p", namespace: "default" },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    });
    await eventually(async () => {
      const pod = await client.get<Pod>(podsResource, "default", "serving-p");
      assert.ok((pod.spec.nodeName ?? "") !== "", "the leader should bind the pod");
    }, 30_000);

    const leaderMetrics = await eventually(async () => {
      const metrics = await get(`${leaderUrl}/metrics`);
      assert.match(
        metrics.body,
        /^scheduler_schedule_attempts_total\{result="scheduled",profile="default-scheduler"\} 1$/m,
      );
      return metrics.body;
    }, 10_000);
    assert.match(leaderMetrics, /^leader_election_master_status\{name="kube-scheduler"\} 1$/m);
    assert.match(leaderMetrics, /^scheduler_pending_pods\{queue="active"\} 0$/m);
    const followerMetrics = (await get(`${followerUrl}/metrics`)).body;
    assert.match(followerMetrics, /^leader_election_master_status\{name="kube-scheduler"\} 0$/m);
    assert.doesNotMatch(followerMetrics, /^scheduler_schedule_attempts_total\{/m);

    assert.deepEqual(await get(`${leaderUrl}/debug/pprof`), {
      status: 404,
      body: "404 page not found\n",
    });
  } finally {
    client.close();
  }
});
