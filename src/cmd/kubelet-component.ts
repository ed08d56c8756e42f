import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "../client/index.ts";
import {
  type ClusterConfig,
  NodeFleet,
  newCpuManagerAdmitHandlers,
  newKubeletServer,
} from "../kubelet/index.ts";
import { type Logger, systemClock } from "../util/index.ts";
import { nodeCheckpointStores } from "./cpus-command.ts";

export interface KubeletComponentOptions {
  /** The node pools to emulate. */
  readonly cluster: ClusterConfig;
  /** Kubelet state (`<dataDir>/nodes/<node>/cpu_manager_state`); in memory when absent. */
  readonly dataDir?: string;
  /**
   * The loopback port of the kubelet HTTP server the API server's node proxy reaches (every
   * emulated node reports 127.0.0.1 and this port). @default 0 (a free port)
   */
  readonly port?: number;
  /** Written to `gantry.dev/kubelet` on the nodes; fleets run only their own. @default "gantry" */
  readonly fleetName?: string;
}

/** Emulated kubelets at work: `done` settles once they stopped after the signal aborted. */
export interface RunningKubelets {
  readonly fleet: NodeFleet;
  /** The kubelet HTTP server's port. */
  readonly port: number;
  readonly done: Promise<void>;
}

/**
 * Starts the emulated node fleet of `options.cluster` and its kubelet HTTP server on
 * 127.0.0.1, as `gantry up` and `gantry kubelet` both do. Resolves once every configured node
 * is registered.
 */
export async function startKubeletComponent(
  client: Client,
  options: KubeletComponentOptions,
  logger: Logger,
  signal: AbortSignal,
): Promise<RunningKubelets> {
  let serve: ReturnType<typeof newKubeletServer> = (_req, res) => {
    res.writeHead(503).end();
  };
  const kubeletHttp: Server = createServer((req, res) => serve(req, res));
  await new Promise<void>((resolve, reject) => {
    kubeletHttp.once("error", reject);
    kubeletHttp.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const closeHttp = (): void => {
    kubeletHttp.closeAllConnections();
    kubeletHttp.close();
  };
  signal.addEventListener("abort", closeHttp, { once: true });
  const port = (kubeletHttp.address() as AddressInfo).port;
  const fleet = new NodeFleet(
    { client, clock: systemClock, logger: logger.with({ component: "kubelet" }) },
    {
      config: options.cluster,
      kubeletPort: port,
      ...(options.fleetName === undefined ? {} : { name: options.fleetName }),
      admitHandlers: newCpuManagerAdmitHandlers(
        options.dataDir === undefined ? {} : { checkpoints: nodeCheckpointStores(options.dataDir) },
      ),
    },
  );
  serve = newKubeletServer(fleet);
  try {
    const started = await fleet.start(signal);
    return { fleet, port, done: started.done };
  } catch (error: unknown) {
    closeHttp();
    throw error;
  }
}
