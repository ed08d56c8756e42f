import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import {
  type HttpClient,
  newClient,
  newEventBroadcaster,
  newInformerFactory,
} from "../client/index.ts";
import {
  type ControllerManagerOptions,
  newControllerManager,
  newDisruptionMetrics,
} from "../controllers/index.ts";
import {
  type ClusterConfig,
  type ControllerManagerSettings,
  defaultControllerManagerSettings,
  NodeFleet,
  newCpuManagerAdmitHandlers,
  newKubeletServer,
} from "../kubelet/index.ts";
import { newQueueing, type QueueingConfig, type QueueingMetrics } from "../queueing/index.ts";
import { defaultProfile, inTreeRegistry, newScheduler } from "../scheduler/index.ts";
import { type Logger, systemClock, systemRandom } from "../util/index.ts";
import { nodeCheckpointStores } from "./cpus-command.ts";

/** Where the components find the API server: what a kubeconfig would tell them. */
export interface Connection {
  readonly server: string;
  readonly token: string;
  /** PEM CA of an https server. */
  readonly ca?: string;
}

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
 * Starts the scheduler, the controller manager and the emulated kubelets, each with its own client and informers as if it
 * were its own process (upstream's field managers and user agents), talking to the API server
 * only through its URL. Resolves once every configured node is registered.
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
    const client = newClient({
      server: connection.server,
      token: connection.token,
      ...(connection.ca === undefined ? {} : { ca: connection.ca }),
      userAgent: `gantry/${name}`,
      fieldManager: name,
    });
    clients.push(client);
    return client;
  };

  if (options.scheduler === true) {
    const client = clientFor("kube-scheduler");
    const informers = newInformerFactory(client);
    const scheduler = newScheduler(
      {
        client,
        informers,
        clock: systemClock,
        random: systemRandom,
        logger: logger.with({ component: "scheduler" }),
        registry: inTreeRegistry(),
        profiles: [defaultProfile()],
      },
      options.metricsRegistry === undefined ? {} : { metricsRegistry: options.metricsRegistry },
    );
    running.push(scheduler.start(signal), informers.start(signal));
  }

  if (options.controllers === true) {
    const client = clientFor("kube-controller-manager");
    const informers = newInformerFactory(client, { clock: systemClock });
    const manager = newControllerManager(
      {
        client,
        informers,
        clock: systemClock,
        random: systemRandom,
        logger: logger.with({ component: "controller-manager" }),
      },
      {
        ...controllerManagerOptions(
          options.cluster?.controllerManager ?? defaultControllerManagerSettings,
        ),
        ...(options.metricsRegistry === undefined
          ? {}
          : { disruptionMetrics: newDisruptionMetrics(options.metricsRegistry) }),
      },
    );
    running.push(manager.start(signal), informers.start(signal));
  }

  if (options.queueing?.config.enabled === true) {
    const client = clientFor("kueue-controller-manager");
    const informers = newInformerFactory(client, { clock: systemClock });
    const events = newEventBroadcaster({ client, clock: systemClock, logger });
    const queueing = newQueueing(
      {
        client,
        informers,
        clock: systemClock,
        logger: logger.with({ component: "queueing" }),
        podEvents: events.recorder({ component: "kueue-job-controller" }),
        workloadEvents: events.recorder({ component: "kueue-admission" }),
        ...(options.queueing.metrics === undefined ? {} : { metrics: options.queueing.metrics }),
      },
      options.queueing.config,
    );
    running.push(
      queueing.start(signal).finally(() => events.shutdown()),
      informers.start(signal),
    );
  }

  let fleet: NodeFleet | undefined;
  if (options.cluster !== undefined) {
    const client = clientFor("kubelet");
    let serve: ReturnType<typeof newKubeletServer> = (_req, res) => {
      res.writeHead(503).end();
    };
    const kubeletHttp: Server = createServer((req, res) => serve(req, res));
    await new Promise<void>((resolve, reject) => {
      kubeletHttp.once("error", reject);
      kubeletHttp.listen(0, "127.0.0.1", () => resolve());
    });
    signal.addEventListener("abort", () => {
      kubeletHttp.closeAllConnections();
      kubeletHttp.close();
    });
    fleet = new NodeFleet(
      { client, clock: systemClock, logger: logger.with({ component: "kubelet" }) },
      {
        config: options.cluster,
        kubeletPort: (kubeletHttp.address() as AddressInfo).port,
        admitHandlers: newCpuManagerAdmitHandlers(
          options.dataDir === undefined
            ? {}
            : { checkpoints: nodeCheckpointStores(options.dataDir) },
        ),
      },
    );
    serve = newKubeletServer(fleet);
    const started = await fleet.start(signal);
    running.push(started.done);
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

/** The cluster config's `controllerManager:` settings as the controllers' options. */
export function controllerManagerOptions(
  settings: ControllerManagerSettings,
): ControllerManagerOptions {
  return {
    nodeLifecycle: {
      nodeMonitorPeriodMs: settings.nodeMonitorPeriodMs,
      nodeMonitorGracePeriodMs: settings.nodeMonitorGracePeriodMs,
      nodeStartupGracePeriodMs: settings.nodeStartupGracePeriodMs,
      evictionQps: settings.nodeEvictionRate,
      secondaryEvictionQps: settings.secondaryNodeEvictionRate,
      largeClusterThreshold: settings.largeClusterSizeThreshold,
      unhealthyZoneThreshold: settings.unhealthyZoneThreshold,
    },
    podGc: { terminatedPodThreshold: settings.terminatedPodGcThreshold },
  };
}
