import type { Registry } from "prom-client";
import type { HttpClient } from "../client/index.ts";
import {
  type ClusterConfig,
  type ControllerManagerSettings,
  defaultControllerManagerSettings,
  type NodeFleet,
} from "../kubelet/index.ts";
import type { QueueingConfig, QueueingMetrics } from "../queueing/index.ts";
import type { Logger } from "../util/index.ts";
import { type Connection, newComponentClient } from "./component-client.ts";
import {
  type ComponentThreads,
  defaultThreadLayout,
  startComponentThreads,
  type ThreadLayout,
} from "./component-thread.ts";
import { runControllerManagerComponent } from "./controller-manager-component.ts";
import { startKubeletComponent } from "./kubelet-component.ts";
import { runQueueingComponent } from "./queueing-component.ts";
import { runSchedulerComponent } from "./scheduler-component.ts";

export type { Connection } from "./component-client.ts";
export type { ComponentThreads, ThreadLayout, ThreadMemory } from "./component-thread.ts";

/** Which components run beside the API server. */
export interface ComponentsOptions {
  /** The emulated nodes; `undefined` runs no kubelets. */
  readonly cluster?: ClusterConfig;
  /** Run the default scheduler. @default false */
  readonly scheduler?: boolean;
  /** Run the controller manager with every controller. @default false */
  readonly controllers?: boolean;
  /** The controller manager's settings. @default the cluster config's, or the defaults */
  readonly controllerManager?: ControllerManagerSettings;
  /** Where the scheduler's metrics go (the API server's `/metrics` registry). @default none */
  readonly metricsRegistry?: Registry;
  /** Kubelet state (`<dataDir>/nodes/<node>/cpu_manager_state`); in memory when absent. */
  readonly dataDir?: string;
  /** Run Kueue's plain-pod queueing when `config.enabled`. @default not run */
  readonly queueing?: { readonly config: QueueingConfig; readonly metrics?: QueueingMetrics };
  /**
   * Run the components in worker threads (`gantry up --component-threads`), leaving this
   * thread to the API server: `true` lays them out as `defaultThreadLayout`. Their metrics
   * reach `metricsRegistry` at each scrape, their log lines `logger`. @default false (here)
   */
  readonly threads?: boolean | ThreadLayout;
  /** The logger's verbosity, so that threads send only the lines it writes. @default 0 */
  readonly verbosity?: number;
}

/** Running components: `done` settles once they all stopped after `signal` aborted. */
export interface Components {
  /** The emulated nodes, when they run in this thread. */
  readonly fleet: NodeFleet | undefined;
  readonly done: Promise<void>;
  /**
   * Resolves with the first failure of a component while running (before `signal` aborted):
   * the cluster is then missing a part, and `gantry up` stops.
   */
  readonly failure: Promise<Error>;
  /** The component threads, with `threads`. */
  readonly threads?: ComponentThreads;
}

/**
 * Starts the scheduler, the controller manager, the queueing controllers and the emulated
 * kubelets in this process (`gantry up`), each with its own client and informers as if it were
 * its own process, through the same start functions their own commands (`gantry scheduler`,
 * …) use; with `options.threads`, in worker threads. Resolves once every configured node is
 * registered.
 */
export async function startComponents(
  connection: Connection,
  options: ComponentsOptions,
  logger: Logger,
  signal: AbortSignal,
): Promise<Components> {
  if (options.threads !== undefined && options.threads !== false) {
    const layout = options.threads === true ? defaultThreadLayout : options.threads;
    const threaded = new Set(layout.flat());
    // What the layout leaves out runs in this thread; first, so that the threads' metrics of
    // the same name as this thread's are summed with them.
    const { queueing, cluster, ...rest } = options;
    const here = await startComponents(
      connection,
      {
        ...rest,
        threads: false,
        scheduler: options.scheduler === true && !threaded.has("scheduler"),
        controllers: options.controllers === true && !threaded.has("controllers"),
        ...(cluster === undefined || threaded.has("kubelets") ? {} : { cluster }),
        ...(queueing === undefined || threaded.has("queueing") ? {} : { queueing }),
        ...(cluster?.controllerManager === undefined || options.controllerManager !== undefined
          ? {}
          : { controllerManager: cluster.controllerManager }),
      },
      logger,
      signal,
    );
    let threads: Components;
    try {
      threads = await startComponentThreads(
        connection,
        options,
        layout,
        options.verbosity ?? 0,
        logger,
        signal,
      );
    } catch (error: unknown) {
      if (signal.aborted) await here.done;
      throw error;
    }
    return {
      fleet: here.fleet,
      done: Promise.all([threads.done, here.done]).then(() => undefined),
      failure: Promise.race([threads.failure, here.failure]),
      ...(threads.threads === undefined ? {} : { threads: threads.threads }),
    };
  }
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
          settings:
            options.controllerManager ??
            options.cluster?.controllerManager ??
            defaultControllerManagerSettings,
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

  let onFailure: (error: Error) => void = () => undefined;
  const failure = new Promise<Error>((resolve) => {
    onFailure = resolve;
  });
  for (const part of running) {
    part.catch((error: unknown) => {
      if (!signal.aborted) onFailure(error instanceof Error ? error : new Error(String(error)));
    });
  }
  const done = Promise.allSettled(running).then(async (results) => {
    for (const result of results) {
      if (result.status === "rejected") {
        logger.error("Component failed", { error: result.reason });
      }
    }
    await Promise.all(clients.map((client) => client[Symbol.asyncDispose]()));
  });
  return { fleet, done, failure };
}
