import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Lease, ObjectReference } from "../../api/index.ts";
import { type ClusterHarness, startClusterHarness } from "../../testing/cluster-harness.ts";
import { eventually } from "../../testing/eventually.ts";
import { FakeClock, settle } from "../../testing/fake-clock.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { discardLogger, type Random, rfc3339Micro } from "../../util/index.ts";
import { type Client, leasesResource } from "../client.ts";
import { TransportError } from "../errors.ts";
import type { EventRecorder } from "../events/broadcaster.ts";
import { newLeaderHealthzAdaptor } from "./healthz-adaptor.ts";
import {
  type LeaderElectionConfig,
  type LeaderElectionDeps,
  runLeaderElection,
  validateLeaderElectionConfig,
} from "./leader-election.ts";

/** Retries exactly every retry period: no jitter, so expiry times are exact. */
const noJitter: Random = { float: () => 0, int: () => 0, uuid: () => "0" };

const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** The harness client, counting requests in flight and able to lose its connection. */
interface TestClient {
  readonly client: Client;
  inFlight(): number;
  /** While true every request fails as if the API server could not be reached. */
  partitioned: boolean;
}

function countingClient(inner: Client): TestClient {
  let inFlight = 0;
  const state = { partitioned: false };
  const client = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        inFlight++;
        try {
          if (state.partitioned) {
            throw new TransportError("connect ECONNREFUSED 127.0.0.1", "ECONNREFUSED");
          }
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          inFlight--;
        }
      };
    },
  });
  return {
    client,
    inFlight: () => inFlight,
    get partitioned() {
      return state.partitioned;
    },
    set partitioned(value: boolean) {
      state.partitioned = value;
    },
  };
}

interface Candidate {
  readonly identity: string;
  readonly stop: AbortController;
  leading: boolean;
  startedCount: number;
  stoppedCount: number;
  readonly leaders: string[];
  readonly done: Promise<void>;
}

let harness: ClusterHarness;
let leaseNames = 0;

describe("leader election against an API server", { timeout: 60_000 }, () => {
  before(async () => {
    harness = await startClusterHarness();
  });
  after(async () => {
    await harness[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  /** A fresh lease name, a fake clock and a way to start candidates on them. */
  function election(extra: Partial<LeaderElectionConfig> = {}) {
    const name = `lease-${++leaseNames}`;
    const clock = new FakeClock();
    const clients: TestClient[] = [];
    const candidates: Candidate[] = [];
    const start = (
      identity: string,
      events?: EventRecorder,
      observers: Pick<LeaderElectionDeps, "metrics" | "watchDog"> = {},
    ): Candidate => {
      const test = countingClient(harness.client);
      clients.push(test);
      const stop = new AbortController();
      const candidate: Candidate = {
        identity,
        stop,
        leading: false,
        startedCount: 0,
        stoppedCount: 0,
        leaders: [],
        done: Promise.resolve(),
      };
      const done = runLeaderElection(
        {
          client: test.client,
          clock,
          logger: discardLogger,
          random: noJitter,
          ...(events === undefined ? {} : { events }),
          ...observers,
        },
        { namespace: "default", name, identity, ...timings, ...extra },
        {
          onStartedLeading: async (signal) => {
            candidate.leading = true;
            candidate.startedCount++;
            await new Promise<void>((resolve) =>
              signal.addEventListener("abort", () => resolve(), { once: true }),
            );
            candidate.leading = false;
          },
          onStoppedLeading: () => {
            candidate.stoppedCount++;
          },
          onNewLeader: (leader) => candidate.leaders.push(leader),
        },
        stop.signal,
      );
      Object.assign(candidate, { done });
      candidates.push(candidate);
      return candidate;
    };
    /** Waits (in real time) until no request is in flight and woken code has run. */
    const quiet = async (): Promise<void> => {
      await eventually(() => {
        assert.equal(
          clients.reduce((n, c) => n + c.inFlight(), 0),
          0,
          "requests still in flight",
        );
      });
      await settle();
    };
    /** Moves the clock `ms` in one-second steps, letting each step's requests finish. */
    const advance = async (ms: number): Promise<void> => {
      for (let left = ms; left > 0; left -= 1000) {
        await clock.advance(Math.min(1000, left));
        await quiet();
      }
    };
    const lease = () => harness.client.get<Lease>(leasesResource, "default", name);
    const stopAll = async (): Promise<void> => {
      for (const c of candidates) c.stop.abort();
      await Promise.allSettled(candidates.map((c) => c.done));
    };
    return { name, clock, clients, start, quiet, advance, lease, stopAll };
  }

  test("runLeaderElection: acquires a lease nobody holds and writes client-go's record", async () => {
    const e = election();
    const a = e.start("host-a_1");
    await eventually(() => assert.ok(a.leading, "candidate a should lead"));
    const lease = await e.lease();
    const now = rfc3339Micro(e.clock.now());
    assert.deepEqual(lease.spec, {
      holderIdentity: "host-a_1",
      leaseDurationSeconds: 15,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    });
    assert.deepEqual(a.leaders, ["host-a_1"]);
    await e.stopAll();
  });

  test("runLeaderElection: the leader renews every retry period, keeping acquireTime", async () => {
    const e = election({ releaseOnCancel: false });
    const a = e.start("host-a_1");
    await eventually(() => assert.ok(a.leading, "candidate a should lead"));
    await e.quiet();
    const acquired = rfc3339Micro(e.clock.now());
    await e.advance(2000);
    const lease = await e.lease();
    assert.equal(lease.spec?.renewTime, rfc3339Micro(e.clock.now()));
    assert.equal(lease.spec?.acquireTime, acquired);
    assert.equal(lease.spec?.leaseTransitions, 0);
    await e.stopAll();
  });

  test("runLeaderElection: of two candidates starting together exactly one leads", async () => {
    const e = election();
    const a = e.start("host-a_1");
    const b = e.start("host-b_2");
    await eventually(() => assert.ok(a.leading || b.leading, "someone should lead"));
    await e.advance(6000);
    assert.equal([a, b].filter((c) => c.leading).length, 1);
    const holder = (await e.lease()).spec?.holderIdentity;
    assert.equal(holder, a.leading ? a.identity : b.identity);
    await e.stopAll();
  });

  test("runLeaderElection: a follower takes over only once the dead leader's lease expired", async () => {
    const e = election({ releaseOnCancel: false });
    const a = e.start("host-a_1");
    await eventually(() => assert.ok(a.leading, "candidate a should lead"));
    const b = e.start("host-b_2");
    await e.quiet();
    await e.advance(4000);
    assert.equal(b.leading, false, "b must not take a lease that is being renewed");
    // a dies without releasing: its record stops changing.
    a.stop.abort();
    await a.done;
    await e.advance(14_000);
    assert.equal(b.leading, false, "b must wait out the lease duration");
    await e.advance(4000);
    assert.ok(b.leading, "b should lead once the lease expired");
    const lease = await e.lease();
    assert.equal(lease.spec?.holderIdentity, "host-b_2");
    assert.equal(lease.spec?.leaseTransitions, 1);
    assert.deepEqual(b.leaders, ["host-a_1", "host-b_2"]);
    await e.stopAll();
  });

  test("runLeaderElection: a clean shutdown releases the lease so a follower need not wait", async () => {
    const e = election();
    const a = e.start("host-a_1");
    await eventually(() => assert.ok(a.leading, "candidate a should lead"));
    const b = e.start("host-b_2");
    await e.quiet();
    a.stop.abort();
    await a.done;
    const released = await e.lease();
    assert.equal(released.spec?.holderIdentity, "");
    assert.equal(released.spec?.leaseDurationSeconds, 1);
    assert.equal(a.stoppedCount, 1);
    await e.advance(2000);
    assert.ok(b.leading, "b should take the released lease at its next retry");
    assert.equal((await e.lease()).spec?.leaseTransitions, 1);
    await e.stopAll();
  });

  test("runLeaderElection: the leading work may hang many listeners on its signal without a warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on("warning", onWarning);
    const stop = new AbortController();
    let listening = 0;
    try {
      const done = runLeaderElection(
        { client: harness.client, clock: new FakeClock(), logger: discardLogger, random: noJitter },
        { namespace: "default", name: `lease-${++leaseNames}`, identity: "host-a_1", ...timings },
        {
          // As a controller manager does: every controller and informer waits on the signal.
          onStartedLeading: async (signal) => {
            const stopped = Array.from(
              { length: 20 },
              () =>
                new Promise<void>((resolve) => {
                  signal.addEventListener("abort", () => resolve(), { once: true });
                  listening++;
                }),
            );
            await Promise.all(stopped);
          },
          onStoppedLeading: () => undefined,
        },
        stop.signal,
      );
      await eventually(() => assert.equal(listening, 20, "the leading work should be listening"));
      // Node reports MaxListenersExceededWarning on the next turn.
      await new Promise((resolve) => setImmediate(resolve));
      stop.abort();
      await done;
    } finally {
      process.off("warning", onWarning);
    }
    assert.deepEqual(warnings, [], "no process warning while leading");
  });

  test("runLeaderElection: a leader that cannot renew within the deadline stops leading", async () => {
    const e = election();
    const a = e.start("host-a_1");
    await eventually(() => assert.ok(a.leading, "candidate a should lead"));
    await e.quiet();
    const client = e.clients[0];
    assert.ok(client !== undefined, "the candidate has a client");
    client.partitioned = true;
    await e.advance(8000);
    assert.ok(a.leading, "a keeps leading while the renew deadline has not passed");
    await e.advance(6000);
    await a.done;
    assert.equal(a.leading, false);
    assert.equal(a.startedCount, 1);
    assert.equal(a.stoppedCount, 1);
    assert.equal(a.stop.signal.aborted, false, "the election ended by itself");
    await e.stopAll();
  });

  test("runLeaderElection: records LeaderElection events on the Lease", async () => {
    const e = election();
    const recorded: { involved: ObjectReference; reason: string; message: string }[] = [];
    const events: EventRecorder = {
      event: (involved, _type, reason, message) => recorded.push({ involved, reason, message }),
    };
    const a = e.start("host-a_1", events);
    await eventually(() => assert.ok(a.leading, "candidate a should lead"));
    a.stop.abort();
    await a.done;
    assert.deepEqual(
      recorded.map((r) => [r.involved.kind, r.involved.name, r.reason, r.message]),
      [
        ["Lease", e.name, "LeaderElection", "host-a_1 became leader"],
        ["Lease", e.name, "LeaderElection", "host-a_1 stopped leading"],
      ],
    );
  });

  test("runLeaderElection: switches the leader metric off at start, on when leading, off when leading ends", async () => {
    const e = election();
    const recorder = () => {
      const switched: string[] = [];
      return {
        switched,
        metrics: {
          leaderOn: (name: string) => switched.push(`on ${name}`),
          leaderOff: (name: string) => switched.push(`off ${name}`),
        },
      };
    };
    const leader = recorder();
    const follower = recorder();
    const a = e.start("host-a_1", undefined, { metrics: leader.metrics });
    await eventually(() => assert.ok(a.leading, "candidate a should lead"));
    const b = e.start("host-b_2", undefined, { metrics: follower.metrics });
    await e.quiet();
    assert.deepEqual(leader.switched, [`off ${e.name}`, `on ${e.name}`]);
    assert.deepEqual(follower.switched, [`off ${e.name}`], "a follower reports 0");
    a.stop.abort();
    await a.done;
    assert.deepEqual(leader.switched, [`off ${e.name}`, `on ${e.name}`, `off ${e.name}`]);
    b.stop.abort();
    await e.stopAll();
  });

  test("runLeaderElection: the leaderElection check fails only on a leader whose renewals are overdue", async () => {
    const e = election({ releaseOnCancel: false });
    const leaderCheck = newLeaderHealthzAdaptor(1000);
    const followerCheck = newLeaderHealthzAdaptor(1000);
    assert.equal(leaderCheck.check(), undefined, "healthy before the election starts");
    const a = e.start("host-a_1", undefined, { watchDog: leaderCheck });
    await eventually(() => assert.ok(a.leading, "candidate a should lead"));
    const b = e.start("host-b_2", undefined, { watchDog: followerCheck });
    await e.quiet();
    await e.advance(4000);
    assert.equal(b.leading, false, "b follows");
    assert.equal(followerCheck.check(), undefined, "a follower is healthy");
    assert.equal(leaderCheck.check(), undefined, "a leader that renews is healthy");
    const client = e.clients[0];
    assert.ok(client !== undefined, "the leader has a client");
    client.partitioned = true;
    // The renew deadline (10 s) ends a's leading, but its last renewal stays the one it saw.
    await e.advance(15_000);
    assert.equal(leaderCheck.check(), undefined, "within the lease duration plus tolerance");
    await e.advance(2000);
    assert.equal(
      leaderCheck.check(),
      `failed election to renew leadership on lease ${e.name}`,
      "overdue past 15 s + 1 s",
    );
    await e.stopAll();
  });

  test("runLeaderElection: ends without leading when stopped while another holds the lease", async () => {
    const e = election();
    const a = e.start("host-a_1");
    await eventually(() => assert.ok(a.leading, "candidate a should lead"));
    const b = e.start("host-b_2");
    await e.quiet();
    b.stop.abort();
    await b.done;
    assert.equal(b.startedCount, 0);
    assert.equal(b.stoppedCount, 1);
    assert.equal((await e.lease()).spec?.holderIdentity, "host-a_1");
    await e.stopAll();
  });
});

const invalidCases = [
  {
    name: "a lease duration not above the renew deadline",
    config: { leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 },
    want: "leaseDuration must be greater than renewDeadline",
  },
  {
    name: "a renew deadline within 1.2 retry periods",
    config: { leaseDurationMs: 15_000, renewDeadlineMs: 2_400, retryPeriodMs: 2_000 },
    want: "renewDeadline must be greater than retryPeriod*JitterFactor",
  },
  {
    name: "a zero retry period",
    config: { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 0 },
    want: "retryPeriod must be greater than zero",
  },
  {
    name: "a lease shorter than the one second a Lease can record",
    config: { leaseDurationMs: 900, renewDeadlineMs: 600, retryPeriodMs: 100 },
    want: "leaseDuration must be at least one second",
  },
] as const;

for (const c of invalidCases) {
  test(`validateLeaderElectionConfig: rejects ${c.name}`, () => {
    assert.throws(
      () =>
        validateLeaderElectionConfig({
          namespace: "default",
          name: "l",
          identity: "id",
          ...c.config,
        }),
      new RangeError(c.want),
    );
  });
}
