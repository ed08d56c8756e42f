/**
 * client-go's `HealthzAdaptor`: the `leaderElection` health check of a component that campaigns
 * for a Lease. It fails only while this process leads but has not renewed the lease for longer
 * than the lease duration plus a tolerance (a leader stuck without exiting); a follower, or a
 * process whose election has not started yet, is healthy.
 */

/** What the adaptor asks of a running election (client-go's `LeaderElector.Check`). */
export interface LeaderElectionChecker {
  /**
   * A failure message when this candidate leads but last saw its renewal more than the lease
   * duration plus `maxTolerableExpiredLeaseMs` ago; undefined otherwise.
   */
  check(maxTolerableExpiredLeaseMs: number): string | undefined;
}

export interface LeaderHealthzAdaptor {
  /** The check's name in `/healthz` and `/readyz`, as upstream: `leaderElection`. */
  readonly name: "leaderElection";
  /** Undefined when healthy, else why not. Cheap; reads no API. */
  check(): string | undefined;
  /** Ties the adaptor to the election (`runLeaderElection` calls it); the last call wins. */
  setLeaderElection(election: LeaderElectionChecker): void;
}

/**
 * An adaptor that tolerates `timeoutMs` past the lease duration before failing
 * (kube-scheduler and kube-controller-manager use 20 s).
 */
export function newLeaderHealthzAdaptor(timeoutMs: number): LeaderHealthzAdaptor {
  let election: LeaderElectionChecker | undefined;
  return {
    name: "leaderElection",
    check: () => election?.check(timeoutMs),
    setLeaderElection: (next) => {
      election = next;
    },
  };
}
