/**
 * How a leader-elected component command runs its work: only while it holds the Lease, as
 * kube-scheduler and kube-controller-manager do, with a `<hostname>_<uuid>` identity and the
 * `LeaderElection` events recorded on the Lease.
 */
import { hostname } from "node:os";
import {
  type Client,
  type LeaderHealthzAdaptor,
  type LeaderMetrics,
  newEventBroadcaster,
  runLeaderElection,
} from "../client/index.ts";
import { type Logger, systemClock, systemRandom } from "../util/index.ts";
import type { ElectionSettings } from "./leader-election-flags.ts";

/** Why the component stopped: asked to (`signal`), or it lost the lease. */
export type ElectedOutcome = "stopped" | "lost";

/**
 * Runs `work` at once without an election (`election` undefined), or each time this process
 * leads. The lease is released on a clean stop, once `work` has stopped. Resolves "lost" when
 * leadership was lost (upstream then exits with status 1), "stopped" once `signal` aborted;
 * rejects with `work`'s error.
 */
export async function runElected(
  deps: {
    readonly client: Client;
    readonly logger: Logger;
    readonly component: string;
    /** `leader_election_master_status`. @default none */
    readonly metrics?: LeaderMetrics;
    /** The `leaderElection` health check. @default none */
    readonly watchDog?: LeaderHealthzAdaptor;
    /** Called when another process is seen holding the lease. @default nothing */
    readonly onFollowing?: () => void;
  },
  election: ElectionSettings | undefined,
  work: (signal: AbortSignal) => Promise<void>,
  signal: AbortSignal,
): Promise<ElectedOutcome> {
  if (election === undefined) {
    await work(signal);
    return "stopped";
  }
  const host = hostname();
  const identity = `${host}_${systemRandom.uuid()}`;
  const events = newEventBroadcaster({
    client: deps.client,
    clock: systemClock,
    logger: deps.logger,
  });
  try {
    await runLeaderElection(
      {
        client: deps.client,
        clock: systemClock,
        logger: deps.logger,
        random: systemRandom,
        events: events.recorder({ component: deps.component, host }),
        ...(deps.metrics === undefined ? {} : { metrics: deps.metrics }),
        ...(deps.watchDog === undefined ? {} : { watchDog: deps.watchDog }),
      },
      { ...election, identity },
      {
        onStartedLeading: (leading) => work(leading),
        onStoppedLeading: () => undefined,
        onNewLeader: (leader) => {
          if (leader !== "" && leader !== identity) {
            deps.logger.info("New leader elected", { identity: leader });
            deps.onFollowing?.();
          }
        },
      },
      signal,
    );
  } finally {
    await events.shutdown();
  }
  if (signal.aborted) {
    deps.logger.info("Requested to terminate, exiting");
    return "stopped";
  }
  deps.logger.error("Leaderelection lost");
  return "lost";
}
