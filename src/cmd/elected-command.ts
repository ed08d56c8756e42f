/**
 * The shape every leader-elected component command shares (`gantry scheduler`,
 * `controller-manager`, `queueing`): the kubeconfig, `--v` and leader election flags, a client
 * named after the component, and the work run only while leading.
 */
import type { HttpClient } from "../client/index.ts";
import type { Logger } from "../util/index.ts";
import { connectionFromKubeconfig, newComponentClient } from "./component-client.ts";
import {
  type CommandIo,
  commandLogger,
  componentFlags,
  requiredKubeconfig,
} from "./component-command.ts";
import { electionSettings, leaderElectionFlags } from "./leader-election-flags.ts";
import { runElected } from "./run-elected.ts";

/** The flags every elected command parses, for node's `parseArgs`. */
export const electedFlags = { ...componentFlags, ...leaderElectionFlags } as const;

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
  /** The component's work, run while leading; settles once it stopped after `leading` aborted. */
  readonly work: (client: HttpClient, logger: Logger, leading: AbortSignal) => Promise<void>;
}

/**
 * Checks the flags, connects and runs `spec.work` while leading (at once with
 * `--leader-elect=false`). Resolves 0 once `signal` aborted, 1 when the lease was lost (as
 * upstream components exit); a UsageError for bad flags.
 */
export async function runElectedCommand(
  spec: ElectedCommand,
  values: FlagValues,
  io: CommandIo,
  signal: AbortSignal,
): Promise<number> {
  const kubeconfig = requiredKubeconfig(values.kubeconfig, spec.command);
  const election = electionSettings(values, spec.lease);
  const logger = commandLogger(values.v ?? "0", io);
  const client = newComponentClient(connectionFromKubeconfig(kubeconfig), spec.component);
  try {
    if (election !== undefined) await spec.prepare?.(client, election.namespace);
    const outcome = await runElected(
      { client, logger, component: spec.component },
      election,
      (leading) => spec.work(client, logger, leading),
      signal,
    );
    return outcome === "lost" ? 1 : 0;
  } finally {
    client.close();
  }
}
