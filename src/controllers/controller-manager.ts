/**
 * The controller manager: builds the controllers it is asked for over one client and one
 * informer factory, and runs them until stopped (kube-controller-manager's role).
 */
import type { Client, InformerFactory } from "../client/index.ts";
import type { Clock, Logger, Random } from "../util/index.ts";
import { newDeploymentController } from "./deployment/index.ts";
import {
  type Controller,
  type FlushableEventRecorder,
  newEventRecorder,
} from "./framework/index.ts";
import { newGarbageCollector } from "./garbage-collector/index.ts";
import { newNamespaceController } from "./namespace/index.ts";
import {
  newReplicaSetController,
  replicaSetKind,
  replicationControllerKind,
} from "./replica-set/index.ts";

/** The controllers this component provides, by their kube-controller-manager names. */
export const controllerNames = [
  "garbagecollector",
  "namespace",
  "replicaset",
  "replicationcontroller",
  "deployment",
] as const;

export type ControllerName = (typeof controllerNames)[number];

export interface ControllerManagerDeps {
  readonly client: Client;
  /** Shared with other components; the caller starts it (before or after `start`). */
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
}

export interface ControllerManagerOptions {
  /** Which controllers to run. @default every name in `controllerNames` */
  readonly controllers?: readonly ControllerName[];
  /** Workers per controller. @default upstream's: 5 for workloads, 10 namespace, 20 GC */
  readonly workers?: Partial<Readonly<Record<ControllerName, number>>>;
  /** The `source.host` of recorded events. @default "" */
  readonly host?: string;
}

export interface ControllerManager {
  readonly controllers: ReadonlyMap<ControllerName, Controller>;
  /** Runs every controller until `signal` aborts; resolves once all have stopped. */
  start(signal: AbortSignal): Promise<void>;
  /** Resolves once every event recorded so far has been written (tests, shutdown). */
  flushEvents(): Promise<void>;
}

const components: Readonly<Record<ControllerName, string>> = {
  garbagecollector: "garbage-collector-controller",
  namespace: "namespace-controller",
  replicaset: "replicaset-controller",
  replicationcontroller: "replication-controller",
  deployment: "deployment-controller",
};

export function newControllerManager(
  deps: ControllerManagerDeps,
  options: ControllerManagerOptions = {},
): ControllerManager {
  const names = options.controllers ?? controllerNames;
  const unknown = names.filter((n) => !(controllerNames as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new RangeError(
      `Cannot start controllers ${JSON.stringify(unknown)}: known controllers are ${controllerNames.join(", ")}`,
    );
  }
  const recorders: FlushableEventRecorder[] = [];
  const recorder = (name: ControllerName): FlushableEventRecorder => {
    const r = newEventRecorder(
      { client: deps.client, clock: deps.clock, logger: deps.logger },
      { component: components[name], host: options.host ?? "" },
    );
    recorders.push(r);
    return r;
  };
  const workers = (name: ControllerName): number | undefined => options.workers?.[name];
  const base = { client: deps.client, informers: deps.informers, clock: deps.clock };
  const controllers = new Map<ControllerName, Controller>();
  for (const name of names) {
    const logger = deps.logger;
    const events = recorder(name);
    const w = workers(name);
    const common = w === undefined ? {} : { workers: w };
    switch (name) {
      case "garbagecollector":
        controllers.set(name, newGarbageCollector({ ...base, logger, events }, common));
        break;
      case "namespace":
        controllers.set(name, newNamespaceController({ ...base, logger, events }, common));
        break;
      case "replicaset":
        controllers.set(
          name,
          newReplicaSetController({ ...base, logger, events }, { ...common, kind: replicaSetKind }),
        );
        break;
      case "replicationcontroller":
        controllers.set(
          name,
          newReplicaSetController(
            { ...base, logger, events },
            { ...common, kind: replicationControllerKind },
          ),
        );
        break;
      case "deployment":
        controllers.set(name, newDeploymentController({ ...base, logger, events }, common));
        break;
    }
  }
  return {
    controllers,
    async start(signal) {
      await Promise.all([...controllers.values()].map((c) => c.start(signal)));
      await Promise.all(recorders.map((r) => r.flush()));
    },
    async flushEvents() {
      await Promise.all(recorders.map((r) => r.flush()));
    },
  };
}
