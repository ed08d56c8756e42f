/**
 * `gantry kubelet --kubeconfig F --config pool.yaml`: the emulated nodes of a cluster config as
 * their own process, with the kubelet HTTP server the API server's node proxy reaches
 * (`kubectl logs`, `/proxy/configz`). Kubelets do not elect a leader: every node has one.
 */
import { parseArgs } from "node:util";
import { clusterConfigOf } from "./cluster-config-file.ts";
import { connectionFromKubeconfig, newComponentClient } from "./component-client.ts";
import {
  type CommandIo,
  commandLogger,
  componentFlags,
  componentFlagsUsage,
  requiredKubeconfig,
} from "./component-command.ts";
import { startKubeletComponent } from "./kubelet-component.ts";
import { parsingArgs, UsageError } from "./usage-error.ts";

export const kubeletUsage = `Usage: gantry kubelet --kubeconfig FILE --config FILE [options]

Run the emulated nodes (kubelets) of a cluster config against an API server.

${componentFlagsUsage}  --config FILE        The node pools to run, their shapes and kubelet settings
                       (see examples/cluster.yaml)
  --nodes N            Run N default emulated nodes instead (not with --config)
  --port P             The kubelet HTTP server's port on 127.0.0.1, where the API server's
                       node proxy reaches every node of this process (default 10250; 0
                       picks a free one)
  --root-dir DIR       Keep kubelet state (CPU manager checkpoints) in DIR/nodes/<node>;
                       in memory without it
  --fleet-name NAME    Written to the gantry.dev/kubelet annotation of the nodes; each
                       kubelet process runs only its own nodes, so give every process its
                       own name (default gantry)
`;

/** Runs until `signal` aborts (exit code 0). */
export async function runKubeletCommand(
  argv: readonly string[],
  io: CommandIo,
  signal: AbortSignal,
): Promise<number> {
  const { values } = parsingArgs(() =>
    parseArgs({
      args: [...argv],
      options: {
        ...componentFlags,
        config: { type: "string" },
        nodes: { type: "string" },
        port: { type: "string", default: "10250" },
        "root-dir": { type: "string" },
        "fleet-name": { type: "string" },
      },
    }),
  );
  if (values.help) {
    io.out(kubeletUsage);
    return 0;
  }
  const kubeconfig = requiredKubeconfig(values.kubeconfig, "kubelet");
  const cluster = clusterConfigOf(values.config, values.nodes);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`Cannot listen on port "${values.port}": give a number from 0 to 65535`);
  }
  const logger = commandLogger(values.v, io);
  const client = newComponentClient(connectionFromKubeconfig(kubeconfig), "kubelet");
  try {
    const kubelets = await startKubeletComponent(
      client,
      {
        cluster,
        port,
        ...(values["root-dir"] === undefined ? {} : { dataDir: values["root-dir"] }),
        ...(values["fleet-name"] === undefined ? {} : { fleetName: values["fleet-name"] }),
      },
      logger,
      signal,
    );
    logger.info("Kubelets are running", {
      nodes: kubelets.fleet.nodeNames(),
      port: kubelets.port,
    });
    await kubelets.done;
    return 0;
  } finally {
    client.close();
  }
}
