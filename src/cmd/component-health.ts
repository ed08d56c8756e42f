/**
 * The health checks of a leader-elected component, as kube-scheduler wires them:
 * - `/healthz`: `leaderElection` (with leader election; `ping` without), plus a `ping` check
 *   per controller once they run (kube-controller-manager's named checks);
 * - `/livez`: `ping`;
 * - `/readyz`: `leaderElection`, `shutdown` and the component's handler-sync check
 *   (`sched-handler-sync`, `kcm-handler-sync`, …), which waits for the informers to sync.
 *
 * gantry starts a component's informers only while it leads (upstream's scheduler starts them
 * before the election), so a follower has nothing to sync: its sync check passes once it has
 * seen another process hold the lease, and its `leaderElection` check passes as upstream's does
 * for a non-leader. Until then (the first attempts at the lease), the sync check fails.
 */
import type { LeaderHealthzAdaptor } from "../client/index.ts";
import { type HealthCheck, shutdownCheck } from "./health-checks.ts";

export interface ComponentHealthOptions {
  /** The readyz check waiting for informers: `sched-handler-sync`. */
  readonly syncCheck: string;
  /** The election's `leaderElection` check; undefined with `--leader-elect=false`. */
  readonly watchDog: LeaderHealthzAdaptor | undefined;
  /** The command's signal: once it aborts, `shutdown` fails. */
  readonly signal: AbortSignal;
}

/** The checks of each path, and the transitions that change them. */
export interface ComponentHealth {
  readonly healthz: () => readonly HealthCheck[];
  readonly livez: () => readonly HealthCheck[];
  readonly readyz: () => readonly HealthCheck[];
  /** Another process was seen holding the lease: a follower is ready (until it leads). */
  following(): void;
  /** The work started (it leads): not ready until `synced`; `controllers` get healthz checks. */
  startedLeading(controllers: readonly string[]): void;
  /** The work's informers have synced. */
  synced(): void;
  /** The work stopped. */
  stoppedLeading(): void;
}

export function newComponentHealth(options: ComponentHealthOptions): ComponentHealth {
  let role: "candidate" | "follower" | "leader" = "candidate";
  let synced = false;
  let controllers: readonly HealthCheck[] = [];
  const election: readonly HealthCheck[] =
    options.watchDog === undefined
      ? []
      : [{ name: options.watchDog.name, check: () => options.watchDog?.check() }];
  const sync: HealthCheck = {
    name: options.syncCheck,
    check: () =>
      role === "follower" || (role === "leader" && synced)
        ? undefined
        : "waiting for handlers to sync",
  };
  const shutdown = shutdownCheck(options.signal);
  return {
    healthz: () => [...election, ...controllers],
    livez: () => [],
    readyz: () => [...election, shutdown, sync],
    following: () => {
      if (role === "candidate") role = "follower";
    },
    startedLeading: (names) => {
      role = "leader";
      synced = false;
      controllers = names.map((name) => ({ name, check: () => undefined }));
    },
    synced: () => {
      synced = true;
    },
    stoppedLeading: () => {
      role = "candidate";
      controllers = [];
    },
  };
}
