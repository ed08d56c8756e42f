/**
 * The shape every leader-elected component command shares (`gantry scheduler`,
 * `controller-manager`, `queueing`): the kubeconfig, `--v`, leader election and serving flags,
 * a client named after the component, the health and metrics listener, and the work run only
 * while leading.
 */
import { Registry } from "prom-client";
import { type HttpClient, newLeaderHealthzAdaptor } from "../client/index.ts";
import type { Logger } from "../util/index.ts";
import { connectionFromKubeconfig, newComponentClient } from "./component-client.ts";
import {
  type CommandIo,
  commandLogger,
  componentFlags,
  requiredKubeconfig,
} from "./component-command.ts";
import { newComponentHealth } from "./component-health.ts";
import { type ComponentServer, startComponentServer } from "./component-server.ts";
import { servingFlags, servingSettings } from "./component-serving-flags.ts";
import { electionSettings, leaderElectionFlags } from "./leader-election-flags.ts";
import { newLeaderElectionMetrics } from "./leader-election-metrics.ts";
import { runElected } from "./run-elected.ts";
import { isLoopbackAddress } from "./tls.ts";

/** The flags every elected command parses, for node's `parseArgs`. */
export const electedFlags = { ...componentFlags, ...leaderElectionFlags, ...servingFlags } as const;

/**
 * How long past the lease duration a leader that has not renewed still counts as healthy, as
 * kube-scheduler's and kube-controller-manager's `NewLeaderHealthzAdaptor(20 * time.Second)`.
 */
const leaderHealthzToleranceMs = 20_000;

/** What the work reports to the health and metrics endpoints. */
export interface ComponentObservability {
  /** The registry `/metrics` serves: the component registers its metrics here. */
  readonly metricsRegistry: Registry;
  /** Call once the work's informers have synced: `/readyz` then passes. */
  readonly synced: () => void;
}

type FlagValues = {
  readonly [K in Exclude<keyof typeof electedFlags, "help">]?: string | undefined;
};

export interface ElectedCommand {
  /** The command's name: `scheduler`. */
  readonly command: string;
  /** The user agent, field manager and event source: `kube-scheduler`. */
  readonly component: string;
  /** The Lease it campaigns for unless the flags say otherwise. */
  readonly lease: { readonly name: string; readonly namespace: string };
  /** Runs before the election, given the Lease's namespace (to create it, say). @default nothing */
  readonly prepare?: (client: HttpClient, leaseNamespace: string) => Promise<void>;
  /** The health and metrics listener (see `component-health.ts`). */
  readonly serving: {
    /** Upstream's default `--secure-port`: 10259 for the scheduler, 10257 for the controllers. */
    readonly defaultPort: number;
    /** The `/readyz` check that waits for the informers: `sched-handler-sync`. */
    readonly syncCheck: string;
    /** Named `/healthz` checks while the work runs (the controllers). @default none */
    readonly controllers?: readonly string[];
  };
  /** The component's work, run while leading; settles once it stopped after `leading` aborted. */
  readonly work: (
    client: HttpClient,
    logger: Logger,
    leading: AbortSignal,
    observe: ComponentObservability,
  ) => Promise<void>;
}

/**
 * Checks the flags, serves health and metrics (unless `--secure-port 0`), connects and runs
 * `spec.work` while leading (at once with `--leader-elect=false`). Resolves 0 once `signal`
 * aborted, 1 when the lease was lost (as upstream components exit); a UsageError for bad flags;
 * rejects when the port cannot be bound.
 */
export async function runElectedCommand(
  spec: ElectedCommand,
  values: FlagValues,
  io: CommandIo,
  signal: AbortSignal,
): Promise<number> {
  const kubeconfig = requiredKubeconfig(values.kubeconfig, spec.command);
  const election = electionSettings(values, spec.lease);
  const serving = servingSettings(values, spec.serving.defaultPort);
  const logger = commandLogger(values.v ?? "0", io);
  const metricsRegistry = new Registry();
  const watchDog =
    election === undefined ? undefined : newLeaderHealthzAdaptor(leaderHealthzToleranceMs);
  const health = newComponentHealth({ syncCheck: spec.serving.syncCheck, watchDog, signal });
  const client = newComponentClient(connectionFromKubeconfig(kubeconfig), spec.component);
  let server: ComponentServer | undefined;
  try {
    if (serving !== undefined) {
      server = await startComponentServer({
        ...serving,
        healthz: health.healthz,
        livez: health.livez,
        readyz: health.readyz,
        metrics: metricsRegistry,
      });
      logger.info("Serving health and metrics", { url: server.url });
      if (!isLoopbackAddress(serving.address)) {
        logger.info("Health and metrics are plain http without authentication on this address", {
          address: serving.address,
        });
      }
    }
    if (election !== undefined) await spec.prepare?.(client, election.namespace);
    const outcome = await runElected(
      {
        client,
        logger,
        component: spec.component,
        onFollowing: health.following,
        ...(watchDog === undefined
          ? {}
          : { metrics: newLeaderElectionMetrics(metricsRegistry), watchDog }),
      },
      election,
      (leading) => {
        health.startedLeading(spec.serving.controllers ?? []);
        return spec
          .work(client, logger, leading, { metricsRegistry, synced: health.synced })
          .finally(() => health.stoppedLeading());
      },
      signal,
    );
    return outcome === "lost" ? 1 : 0;
  } finally {
    client.close();
    await server?.close();
  }
}
