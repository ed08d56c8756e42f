/**
 * The controller manager: builds the controllers it is asked for over one client and one
 * informer factory, and runs them until stopped (kube-controller-manager's role).
 */
import type { Client, InformerFactory } from "../client/index.ts";
import type { Clock, Logger, Random } from "../util/index.ts";
import { newClusterRoleAggregationController } from "./clusterrole-aggregation/index.ts";
import { newCronJobController } from "./cron-job/index.ts";
import { newDaemonSetController } from "./daemon-set/index.ts";
import { newDeploymentController } from "./deployment/index.ts";
import { type DisruptionMetrics, newDisruptionController } from "./disruption/index.ts";
import { newEndpointsController } from "./endpoint/index.ts";
import { newEndpointSliceController } from "./endpoint-slice/index.ts";
import {
  type Controller,
  type EventBroadcaster,
  type EventRecorder,
  newEventBroadcaster,
} from "./framework/index.ts";
import { newGarbageCollector } from "./garbage-collector/index.ts";
import { newJobController, newTtlAfterFinishedController } from "./job/index.ts";
import { newLeaderWorkerSetController } from "./leader-worker-set/index.ts";
import { newNamespaceController } from "./namespace/index.ts";
import {
  type NodeLifecycleControllerOptions,
  newNodeLifecycleController,
  newPodGcController,
  newTaintEvictionController,
  type PodGcControllerOptions,
} from "./node-lifecycle/index.ts";
import { newPersistentVolumeBinder } from "./persistent-volume/index.ts";
import { newPvProtectionController } from "./pv-protection/index.ts";
import { newPvcProtectionController } from "./pvc-protection/index.ts";
import {
  newReplicaSetController,
  replicaSetKind,
  replicationControllerKind,
} from "./replica-set/index.ts";
import { newResourceQuotaController } from "./resource-quota/index.ts";
import { newRootCaPublisher } from "./root-ca-publisher/index.ts";
import { newServiceAccountController } from "./serviceaccount/index.ts";
import { newStatefulSetController } from "./stateful-set/index.ts";

/**
 * The controllers this component provides, by the names kube-controller-manager's
 * `--controllers` flag accepts (the short aliases where upstream has one).
 */
export const controllerNames = [
  "garbagecollector",
  "namespace",
  "replicaset",
  "replicationcontroller",
  "deployment",
  "statefulset",
  "daemonset",
  "job",
  "cronjob",
  "ttl-after-finished",
  "endpoint",
  "endpointslice",
  "persistentvolume-binder",
  "pvc-protection",
  "pv-protection",
  "nodelifecycle",
  "taint-eviction-controller",
  "podgc",
  "leaderworkerset",
  "disruption",
  "clusterrole-aggregation",
  "resourcequota",
  "serviceaccount",
  "root-ca-cert-publisher",
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
  /**
   * Workers per controller. @default upstream's --concurrent-*-syncs: 5 replicaset,
   * replicationcontroller, deployment, statefulset, job, cronjob, ttl-after-finished, endpoint,
   * endpointslice; 2 daemonset; 1 persistentvolume-binder, pvc-protection and pv-protection;
   * 10 namespace; 20 garbagecollector; 8 nodelifecycle and taint-eviction-controller (upstream's
   * fixed worker counts); 2 podgc
   */
  readonly workers?: Partial<Readonly<Record<ControllerName, number>>>;
  /** The `source.host` of recorded events. @default "" */
  readonly host?: string;
  /** The node lifecycle controller's --node-* settings. @default upstream's */
  readonly nodeLifecycle?: Omit<NodeLifecycleControllerOptions, "workers">;
  /** The pod garbage collector's settings. @default upstream's */
  readonly podGc?: Omit<PodGcControllerOptions, "workers">;
  /** Where the disruption controller reports its metrics. @default nowhere */
  readonly disruptionMetrics?: DisruptionMetrics;
  /** The full recount period of every ResourceQuota (`--resource-quota-sync-period`). @default 5m */
  readonly resourceQuotaSyncPeriodMs?: number;
  /**
   * The CA bundle (PEM) the root CA publisher writes into every namespace's `kube-root-ca.crt`
   * (`--root-ca-file`, else the CA of the controller manager's kubeconfig). @default ""
   */
  readonly rootCa?: string;
}

export interface ControllerManager {
  readonly controllers: ReadonlyMap<ControllerName, Controller>;
  /** Runs every controller until `signal` aborts; resolves once all have stopped. */
  start(signal: AbortSignal): Promise<void>;
  /** Resolves once every event recorded so far has been written (tests, shutdown). */
  flushEvents(): Promise<void>;
}

/** The `source.component` of each controller's events, as upstream's recorders name it. */
const components: Readonly<Record<ControllerName, string>> = {
  garbagecollector: "garbage-collector-controller",
  namespace: "namespace-controller",
  replicaset: "replicaset-controller",
  replicationcontroller: "replication-controller",
  deployment: "deployment-controller",
  statefulset: "statefulset-controller",
  daemonset: "daemonset-controller",
  job: "job-controller",
  cronjob: "cronjob-controller",
  "ttl-after-finished": "ttl-after-finished-controller",
  endpoint: "endpoint-controller",
  endpointslice: "endpoint-slice-controller",
  "persistentvolume-binder": "persistentvolume-controller",
  "pvc-protection": "pvc-protection-controller",
  "pv-protection": "pv-protection-controller",
  nodelifecycle: "node-controller",
  "taint-eviction-controller": "taint-eviction-controller",
  // lws's manager records as "leaderworkerset" (mgr.GetEventRecorderFor).
  leaderworkerset: "leaderworkerset",
  podgc: "pod-garbage-collector",
  // Upstream's disruption controller records through the manager's "controllermanager" source.
  disruption: "controllermanager",
  "clusterrole-aggregation": "clusterrole-aggregation-controller",
  resourcequota: "resourcequota-controller",
  serviceaccount: "serviceaccount-controller",
  "root-ca-cert-publisher": "root-ca-cert-publisher",
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
  // A broadcaster (queue, correlator, writer) per controller, as upstream's controllers each
  // make their own, recording under the controller's component name.
  const broadcasters: EventBroadcaster[] = [];
  const recorder = (name: ControllerName): EventRecorder => {
    const broadcaster = newEventBroadcaster({
      client: deps.client,
      clock: deps.clock,
      logger: deps.logger,
    });
    broadcasters.push(broadcaster);
    return broadcaster.recorder({ component: components[name], host: options.host ?? "" });
  };
  const base = { client: deps.client, informers: deps.informers, clock: deps.clock };
  const build = (name: ControllerName): Controller => {
    const logger = deps.logger;
    const events = recorder(name);
    const w = options.workers?.[name];
    const common = w === undefined ? {} : { workers: w };
    switch (name) {
      case "garbagecollector":
        return newGarbageCollector({ ...base, logger, events }, common);
      case "namespace":
        return newNamespaceController({ ...base, logger, events }, common);
      case "replicaset":
        return newReplicaSetController(
          { ...base, logger, events },
          { ...common, kind: replicaSetKind },
        );
      case "replicationcontroller":
        return newReplicaSetController(
          { ...base, logger, events },
          { ...common, kind: replicationControllerKind },
        );
      case "deployment":
        return newDeploymentController({ ...base, logger, events }, common);
      case "statefulset":
        return newStatefulSetController({ ...base, logger, events }, common);
      case "daemonset":
        return newDaemonSetController({ ...base, logger, events }, common);
      case "job":
        return newJobController({ ...base, logger, events }, common);
      case "cronjob":
        return newCronJobController({ ...base, logger, events }, common);
      case "ttl-after-finished":
        return newTtlAfterFinishedController({ ...base, logger }, common);
      case "endpoint":
        return newEndpointsController({ ...base, logger, events }, common);
      case "endpointslice":
        return newEndpointSliceController({ ...base, logger, events }, common);
      case "persistentvolume-binder":
        return newPersistentVolumeBinder({ ...base, logger, events }, common);
      case "pvc-protection":
        return newPvcProtectionController({ ...base, logger }, common);
      case "pv-protection":
        return newPvProtectionController({ ...base, logger }, common);
      case "nodelifecycle":
        return newNodeLifecycleController(
          { ...base, logger, events },
          { ...options.nodeLifecycle, ...common },
        );
      case "taint-eviction-controller":
        return newTaintEvictionController({ ...base, logger, events }, common);
      case "podgc":
        return newPodGcController({ ...base, logger }, { ...options.podGc, ...common });
      case "leaderworkerset":
        return newLeaderWorkerSetController({ ...base, logger, events }, common);
      case "clusterrole-aggregation":
        return newClusterRoleAggregationController({ ...base, logger }, common);
      case "resourcequota":
        return newResourceQuotaController(
          { ...base, logger },
          {
            ...common,
            ...(options.resourceQuotaSyncPeriodMs === undefined
              ? {}
              : { syncPeriodMs: options.resourceQuotaSyncPeriodMs }),
          },
        );
      case "serviceaccount":
        return newServiceAccountController({ ...base, logger }, common);
      case "root-ca-cert-publisher":
        return newRootCaPublisher(
          { ...base, logger },
          { ...common, ...(options.rootCa === undefined ? {} : { rootCa: options.rootCa }) },
        );
      case "disruption":
        return newDisruptionController(
          {
            ...base,
            logger,
            events,
            ...(options.disruptionMetrics === undefined
              ? {}
              : { metrics: options.disruptionMetrics }),
          },
          common,
        );
    }
  };
  const controllers = new Map<ControllerName, Controller>(names.map((n) => [n, build(n)]));
  return {
    controllers,
    async start(signal) {
      await Promise.all([...controllers.values()].map((c) => c.start(signal)));
      await Promise.all(broadcasters.map((b) => b.shutdown()));
    },
    async flushEvents() {
      await Promise.all(broadcasters.map((b) => b.flush()));
    },
  };
}
