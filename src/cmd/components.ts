import type { Registry } from "prom-client";
import type { HttpClient } from "../client/index.ts";
import {
  type ClusterConfig,
  defaultControllerManagerSettings,
  type NodeFleet,
} from "../kubelet/index.ts";
import type { QueueingConfig, QueueingMetrics } from "../queueing/index.ts";
import type { Logger } from "../util/index.ts";
import { type Connection, newComponentClient } from "./component-client.ts";
import { runControllerManagerComponent } from "./controller-manager-component.ts";
import { startKubeletComponent } from "./kubelet-component.ts";
import { runQueueingComponent } from "./queueing-component.ts";
import { runSchedulerComponent } from "./scheduler-component.ts";

export type { Connection } from "./component-client.ts";

/** Which components run beside the API server. */
export interface ComponentsOptions {
  /** The emulated nodes; `undefined` runs no kubelets. */
  readonly cluster?: ClusterConfig;
  /** Run the default scheduler. @default false */
  readonly scheduler?: boolean;
  /** Run the controller manager with every controller. @default false */
  readonly controllers?: boolean;
  /** Where the scheduler's metrics go (the API server's `/metrics` registry). @default none */
  readonly metricsRegistry?: Registry;
  /** Kubelet state (`<dataDir>/nodes/<node>/cpu_manager_state`); in memory when absent. */
  readonly dataDir?: string;
  /** Run Kueue's plain-pod queueing when `config.enabled`. @default not run */
  readonly queueing?: { readonly config: QueueingConfig; readonly metrics?: QueueingMetrics };
}

/** Running components: `done` settles once they all stopped after `signal` aborted. */
export interface Components {
  readonly fleet: NodeFleet | undefined;
  readonly done: Promise<void>;
}

/**
 * Starts the scheduler, the controller manager, the queueing controllers and the emulated
 * kubelets in this process (`gantry up`), each with its own client and informers as if it were
 * its own process, through the same start functions their own commands (`gantry scheduler`,
 * …) use. Resolves once every configured node is registered.
 */
export async function startComponents(
  connection: Connection,
  options: ComponentsOptions,
  logger: Logger,
  signal: AbortSignal,
): Promise<Components> {
  const running: Promise<unknown>[] = [];
  const clients: HttpClient[] = [];
  const clientFor = (name: string): HttpClient => {
    const client = newComponentClient(connection, name);
    clients.push(client);
    return client;
  };

  if (options.scheduler === true) {
    running.push(
      runSchedulerComponent(
        clientFor("kube-scheduler"),
        options.metricsRegistry === undefined ? {} : { metricsRegistry: options.metricsRegistry },
        logger,
        signal,
      ),
    );
  }

  if (options.controllers === true) {
    running.push(
      runControllerManagerComponent(
        clientFor("kube-controller-manager"),
        {
          settings: options.cluster?.controllerManager ?? defaultControllerManagerSettings,
          ...(connection.ca === undefined ? {} : { rootCa: connection.ca }),
          ...(options.metricsRegistry === undefined
            ? {}
            : { metricsRegistry: options.metricsRegistry }),
        },
        logger,
        signal,
      ),
    );
  }

  if (options.queueing?.config.enabled === true) {
    running.push(
      runQueueingComponent(clientFor("kueue-controller-manager"), options.queueing, logger, signal),
    );
  }

  let fleet: NodeFleet | undefined;
  if (options.cluster !== undefined) {
    const kubelets = await startKubeletComponent(
      clientFor("kubelet"),
      {
        cluster: options.cluster,
        ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      },
      logger,
      signal,
    );
    fleet = kubelets.fleet;
    running.push(kubelets.done);
  }

  const done = Promise.allSettled(running).then(async (results) => {
    for (const result of results) {
      if (result.status === "rejected") {
        logger.error("Component failed", { error: result.reason });
      }
    }
    await Promise.all(clients.map((client) => client[Symbol.asyncDispose]()));
  });
  return { fleet, done };
}
