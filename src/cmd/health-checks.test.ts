import assert from "node:assert/strict";
import { test } from "node:test";
import { newLeaderHealthzAdaptor } from "../client/index.ts";
import { newComponentHealth } from "./component-health.ts";
import { answerHealth, type HealthCheck, pingCheck, shutdownCheck } from "./health-checks.ts";

const failing = (name: string, why: string): HealthCheck => ({ name, check: () => why });
const passing = (name: string): HealthCheck => ({ name, check: () => undefined });

const cases = [
  {
    name: "every check passes: ok",
    path: "healthz",
    checks: [passing("leaderElection")],
    url: "/healthz",
    want: { status: 200, body: "ok" },
  },
  {
    name: "?verbose lists each check",
    path: "readyz",
    checks: [passing("leaderElection"), passing("shutdown")],
    url: "/readyz?verbose",
    want: {
      status: 200,
      body: "[+]leaderElection ok\n[+]shutdown ok\nreadyz check passed\n",
    },
  },
  {
    name: "a failing check fails the path, its reason withheld",
    path: "readyz",
    checks: [passing("shutdown"), failing("sched-handler-sync", "waiting for handlers to sync")],
    url: "/readyz",
    want: {
      status: 500,
      body: "[+]shutdown ok\n[-]sched-handler-sync failed: reason withheld\nreadyz check failed\n",
    },
  },
  {
    name: "?exclude skips a check, and names the ones that match nothing",
    path: "readyz",
    checks: [failing("sched-handler-sync", "waiting for handlers to sync")],
    url: "/readyz?verbose&exclude=sched-handler-sync&exclude=nope",
    want: {
      status: 200,
      body: '[+]sched-handler-sync excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n',
    },
  },
  {
    name: "one check by its path: ok",
    path: "healthz",
    checks: [passing("leaderElection")],
    url: "/healthz/leaderElection",
    want: { status: 200, body: "ok" },
  },
  {
    name: "one failing check by its path shows the reason",
    path: "healthz",
    checks: [failing("leaderElection", "failed election to renew leadership on lease l")],
    url: "/healthz/leaderElection",
    want: {
      status: 500,
      body: "internal server error: failed election to renew leadership on lease l\n",
    },
  },
  {
    name: "no checks installed: ping, as upstream installs it",
    path: "livez",
    checks: [],
    url: "/livez/ping",
    want: { status: 200, body: "ok" },
  },
] as const;

for (const c of cases) {
  test(`answerHealth: ${c.name}`, () => {
    const url = new URL(c.url, "http://component");
    assert.deepEqual(
      answerHealth(c.path, () => c.checks, url.pathname, url.searchParams),
      c.want,
    );
  });
}

test("answerHealth: another path, or a check that is not installed, is not answered (a 404)", () => {
  const none = new URLSearchParams();
  assert.equal(
    answerHealth("healthz", () => [pingCheck], "/readyz", none),
    undefined,
  );
  assert.equal(
    answerHealth("healthz", () => [pingCheck], "/healthz/log", none),
    undefined,
  );
  assert.equal(
    answerHealth("healthz", () => [pingCheck], "/healthzz", none),
    undefined,
  );
});

test("shutdownCheck: fails once the process is stopping", () => {
  const stop = new AbortController();
  const check = shutdownCheck(stop.signal);
  assert.equal(check.check(), undefined);
  stop.abort();
  assert.equal(check.check(), "process is shutting down");
});

test("newComponentHealth: a follower is ready; a candidate is not; a leader is once its informers synced", () => {
  const stop = new AbortController();
  const health = newComponentHealth({
    syncCheck: "kcm-handler-sync",
    watchDog: newLeaderHealthzAdaptor(20_000),
    signal: stop.signal,
  });
  const names = (checks: readonly HealthCheck[]): string[] => checks.map((c) => c.name);
  const failures = (checks: readonly HealthCheck[]): string[] =>
    checks.flatMap((c) => {
      const why = c.check();
      return why === undefined ? [] : [`${c.name}: ${why}`];
    });
  assert.deepEqual(names(health.healthz()), ["leaderElection"]);
  assert.deepEqual(names(health.livez()), []);
  assert.deepEqual(names(health.readyz()), ["leaderElection", "shutdown", "kcm-handler-sync"]);
  assert.deepEqual(
    failures(health.readyz()),
    ["kcm-handler-sync: waiting for handlers to sync"],
    "a candidate that has not seen the lease yet is not ready",
  );
  health.following();
  assert.deepEqual(failures(health.readyz()), [], "a follower is ready");

  health.startedLeading(["garbagecollector", "namespace"]);
  assert.deepEqual(names(health.healthz()), ["leaderElection", "garbagecollector", "namespace"]);
  assert.deepEqual(failures(health.readyz()), ["kcm-handler-sync: waiting for handlers to sync"]);
  health.synced();
  assert.deepEqual(failures(health.readyz()), []);

  stop.abort();
  assert.deepEqual(failures(health.readyz()), ["shutdown: process is shutting down"]);
  health.stoppedLeading();
  assert.deepEqual(names(health.healthz()), ["leaderElection"]);
});

test("newComponentHealth: without leader election /healthz runs ping alone", () => {
  const health = newComponentHealth({
    syncCheck: "sched-handler-sync",
    watchDog: undefined,
    signal: new AbortController().signal,
  });
  const url = new URL("/healthz?verbose", "http://component");
  assert.deepEqual(answerHealth("healthz", health.healthz, url.pathname, url.searchParams), {
    status: 200,
    body: "[+]ping ok\nhealthz check passed\n",
  });
  assert.deepEqual(
    health.readyz().map((c) => c.name),
    ["shutdown", "sched-handler-sync"],
  );
});
