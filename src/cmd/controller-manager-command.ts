/**
 * `gantry controller-manager --kubeconfig F`: every controller as its own process, as
 * kube-controller-manager runs: it acts only while it holds the
 * `kube-system/kube-controller-manager` Lease (unless `--leader-elect=false`).
 */
import { parseArgs } from "node:util";
import { controllerNames } from "../controllers/index.ts";
import { defaultControllerManagerSettings } from "../kubelet/index.ts";
import { readClusterConfig } from "./cluster-config-file.ts";
import { connectionFromKubeconfig } from "./component-client.ts";
import { type CommandIo, componentFlagsUsage } from "./component-command.ts";
import { servingUsage } from "./component-serving-flags.ts";
import { runControllerManagerComponent } from "./controller-manager-component.ts";
import { electedFlags, runElectedCommand } from "./elected-command.ts";
import { leaderElectionUsage, normalizeBoolFlags } from "./leader-election-flags.ts";
import { parsingArgs } from "./usage-error.ts";

export const controllerManagerUsage = `Usage: gantry controller-manager --kubeconfig FILE [options]

Run every controller (kube-controller-manager) against an API server.

${componentFlagsUsage}  --config FILE        A cluster config whose controllerManager: section sets the node
                       lifecycle and pod GC settings (see examples/cluster.yaml)

${servingUsage(10257)}
${leaderElectionUsage("kube-controller-manager", "kube-system")}`;

/** Runs until `signal` aborts (exit code 0) or the lease is lost (1). */
export async function runControllerManagerCommand(
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
    io.out(controllerManagerUsage);
    return 0;
  }
  const settings =
    values.config === undefined
      ? defaultControllerManagerSettings
      : (readClusterConfig(values.config).controllerManager ?? defaultControllerManagerSettings);
  return runElectedCommand(
    {
      command: "controller-manager",
      component: "kube-controller-manager",
      lease: { name: "kube-controller-manager", namespace: "kube-system" },
      serving: { defaultPort: 10257, syncCheck: "kcm-handler-sync", controllers: controllerNames },
      work: (client, logger, leading, observe) => {
        // As kube-controller-manager without --root-ca-file: its kubeconfig's CA is the root CA.
        const ca =
          values.kubeconfig === undefined
            ? undefined
            : connectionFromKubeconfig(values.kubeconfig).ca;
        return runControllerManagerComponent(
          client,
          {
            settings,
            ...(ca === undefined ? {} : { rootCa: ca }),
            metricsRegistry: observe.metricsRegistry,
            onSynced: observe.synced,
          },
          logger,
          leading,
        );
      },
    },
    values,
    io,
    signal,
  );
}
