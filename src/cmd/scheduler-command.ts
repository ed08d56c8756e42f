/**
 * `gantry scheduler --kubeconfig F`: the default scheduler as its own process, as
 * kube-scheduler runs: it acts only while it holds the `kube-system/kube-scheduler` Lease
 * (unless `--leader-elect=false`), so two copies can run and one takes over when the other dies.
 */
import { parseArgs } from "node:util";
import { type CommandIo, componentFlagsUsage } from "./component-command.ts";
import { servingUsage } from "./component-serving-flags.ts";
import { electedFlags, runElectedCommand } from "./elected-command.ts";
import { leaderElectionUsage, normalizeBoolFlags } from "./leader-election-flags.ts";
import { runSchedulerComponent } from "./scheduler-component.ts";
import { parsingArgs } from "./usage-error.ts";

export const schedulerUsage = `Usage: gantry scheduler --kubeconfig FILE [options]

Run the default scheduler (kube-scheduler) against an API server.

${componentFlagsUsage}
${servingUsage(10259)}
${leaderElectionUsage("kube-scheduler", "kube-system")}`;

/** Runs until `signal` aborts (exit code 0) or the lease is lost (1). */
export async function runSchedulerCommand(
  argv: readonly string[],
  io: CommandIo,
  signal: AbortSignal,
): Promise<number> {
  const { values } = parsingArgs(() =>
    parseArgs({ args: normalizeBoolFlags(argv), options: electedFlags }),
  );
  if (values.help) {
    io.out(schedulerUsage);
    return 0;
  }
  return runElectedCommand(
    {
      command: "scheduler",
      component: "kube-scheduler",
      lease: { name: "kube-scheduler", namespace: "kube-system" },
      serving: { defaultPort: 10259, syncCheck: "sched-handler-sync" },
      work: (client, logger, leading, observe) =>
        runSchedulerComponent(
          client,
          { metricsRegistry: observe.metricsRegistry, onSynced: observe.synced },
          logger,
          leading,
        ),
    },
    values,
    io,
    signal,
  );
}
