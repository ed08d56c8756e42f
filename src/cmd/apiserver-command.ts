/**
 * `gantry apiserver`: the API server alone (storage, bootstrap, compaction, the listener), as
 * kube-apiserver runs; the scheduler, controllers, queueing and kubelets run as their own
 * commands against the kubeconfig it writes. Several can serve one etcd (`--storage etcd`).
 */
import { parseArgs } from "node:util";
import { parseQueueingConfig, type QueueingConfig } from "../queueing/index.ts";
import { type AllInOne, startAllInOne } from "./all-in-one.ts";
import { apiServerFlags, apiServerFlagsUsage, apiServerSettings } from "./apiserver-flags.ts";
import { readClusterConfig } from "./cluster-config-file.ts";
import { type CommandIo, commandLogger } from "./component-command.ts";
import { parsingArgs, UsageError } from "./usage-error.ts";

export const apiServerUsage = `Usage: gantry apiserver [options]

Run the API server alone (kube-apiserver): storage, bootstrap objects, compaction and the
listener. It writes DATA_DIR/kubeconfig and prints "kubeconfig: PATH" once it serves; run the
scheduler, controller-manager, queueing and kubelet commands against that kubeconfig.

Options:
${apiServerFlagsUsage}  --config FILE        A cluster config whose queueing: section configures Kueue's pod
                       webhook (see examples/cluster.yaml); the webhook is on unless the
                       section sets enabled: false
`;

/** Serves until `signal` aborts (exit code 0). */
export async function runApiServerCommand(
  argv: readonly string[],
  io: CommandIo,
  signal: AbortSignal,
): Promise<number> {
  const { values } = parsingArgs(() =>
    parseArgs({ args: [...argv], options: { ...apiServerFlags, config: { type: "string" } } }),
  );
  if (values.help) {
    io.out(apiServerUsage);
    return 0;
  }
  const settings = apiServerSettings(values);
  const queueing = webhookConfig(values.config);
  const logger = commandLogger(values.v, io);
  let server: AllInOne;
  try {
    server = await startAllInOne({
      ...settings,
      logger,
      queueing,
      progress: (line) => io.out(`${line}\n`),
    });
  } catch (error: unknown) {
    // Invalid limits: kube-apiserver's own messages, as a usage mistake.
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
  io.out(`kubeconfig: ${server.kubeconfigPath}\n`);
  logger.info("gantry apiserver is ready", {
    url: server.url,
    storage: settings.storage,
    kubeconfig: server.kubeconfigPath,
  });
  if (!signal.aborted) {
    await new Promise<void>((resolve) =>
      signal.addEventListener("abort", () => resolve(), { once: true }),
    );
  }
  logger.info("Shutting down");
  await server.close();
  return 0;
}

/** The pod webhook's config: the file's `queueing:` section, or Kueue's defaults. */
function webhookConfig(file: string | undefined): QueueingConfig {
  if (file === undefined) return parseQueueingConfig(undefined);
  try {
    return parseQueueingConfig(readClusterConfig(file).queueing);
  } catch (error: unknown) {
    if (error instanceof TypeError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
}
