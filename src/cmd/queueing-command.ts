/**
 * `gantry queueing --kubeconfig F`: Kueue's plain-pod queueing controllers as their own process,
 * as Kueue's manager runs: it acts only while it holds the `kueue-system/c1f6bfd2.kueue.x-k8s.io`
 * Lease (unless `--leader-elect=false`). The pod webhook runs in the API server
 * (`gantry apiserver`), which reads the same `queueing:` section.
 */
import { parseArgs } from "node:util";
import { ApiError } from "../api/index.ts";
import { type Client, isAlreadyExists, isNotFound, namespacesResource } from "../client/index.ts";
import {
  newQueueingMetrics,
  parseQueueingConfig,
  queueingSystemNamespace,
} from "../queueing/index.ts";
import { readClusterConfig } from "./cluster-config-file.ts";
import { type CommandIo, componentFlagsUsage } from "./component-command.ts";
import { servingUsage } from "./component-serving-flags.ts";
import { electedFlags, runElectedCommand } from "./elected-command.ts";
import { leaderElectionUsage, normalizeBoolFlags } from "./leader-election-flags.ts";
import { runQueueingComponent } from "./queueing-component.ts";
import { parsingArgs, UsageError } from "./usage-error.ts";

/** Kueue's `leaderElection.resourceName`. */
export const queueingLeaseName = "c1f6bfd2.kueue.x-k8s.io";

/**
 * Where `gantry queueing` serves health and metrics by default: Kueue's health probe port
 * (its `healthProbeBindAddress` :8081; Kueue serves metrics apart, on :8443).
 */
export const queueingServingPort = 8081;

export const queueingUsage = `Usage: gantry queueing --kubeconfig FILE [options]

Run Kueue's plain-pod queueing controllers against an API server.

${componentFlagsUsage}  --config FILE        A cluster config whose queueing: section says which pods are
                       managed (see examples/cluster.yaml); give gantry apiserver the
                       same file, its pod webhook reads the same section

${servingUsage(queueingServingPort)}
${leaderElectionUsage(queueingLeaseName, queueingSystemNamespace)}`;

/** Runs until `signal` aborts (exit code 0) or the lease is lost (1). */
export async function runQueueingCommand(
  argv: readonly string[],
  io: CommandIo,
  signal: AbortSignal,
): Promise<number> {
  const { values } = parsingArgs(() =>
    parseArgs({
      args: normalizeBoolFlags(argv),
      options: { ...electedFlags, config: { type: "string" } },
    }),
  );
  if (values.help) {
    io.out(queueingUsage);
    return 0;
  }
  let config: ReturnType<typeof parseQueueingConfig>;
  try {
    config = parseQueueingConfig(
      values.config === undefined ? undefined : readClusterConfig(values.config).queueing,
    );
  } catch (error: unknown) {
    if (error instanceof TypeError) throw new UsageError(`${values.config}: ${error.message}`);
    throw error;
  }
  if (!config.enabled) {
    throw new UsageError(
      `Cannot run the queueing component: ${values.config} sets queueing.enabled: false`,
    );
  }
  return runElectedCommand(
    {
      command: "queueing",
      component: "kueue-controller-manager",
      lease: { name: queueingLeaseName, namespace: queueingSystemNamespace },
      prepare: ensureNamespace,
      serving: { defaultPort: queueingServingPort, syncCheck: "queueing-handler-sync" },
      work: (client, logger, leading, observe) =>
        runQueueingComponent(
          client,
          {
            config,
            metrics: newQueueingMetrics(observe.metricsRegistry),
            onSynced: observe.synced,
          },
          logger,
          leading,
        ),
    },
    values,
    io,
    signal,
  );
}

/**
 * Kueue's manifests create its namespace; the lease lives there. Under RBAC the queueing
 * identity may read namespaces but not create them (as Kueue's manager role): then the
 * namespace must exist already, created by an admin as the manifests would.
 */
async function ensureNamespace(client: Client, name: string): Promise<void> {
  try {
    await client.create(namespacesResource, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name },
    });
  } catch (error: unknown) {
    if (isAlreadyExists(error)) return;
    if (!(error instanceof ApiError && error.code === 403)) throw error;
    try {
      await client.get(namespacesResource, undefined, name);
    } catch (lookup: unknown) {
      if (!isNotFound(lookup)) throw lookup;
      throw new Error(
        `${error.message}: create the namespace as an admin first (kubectl create namespace ${name}), as Kueue's install manifests do`,
      );
    }
  }
}
