import type { Registry } from "prom-client";
import { type Client, newInformerFactory, stripManagedFields } from "../client/index.ts";
import {
  type ControllerManagerOptions,
  newControllerManager,
  newDisruptionMetrics,
} from "../controllers/index.ts";
import type { ControllerManagerSettings } from "../kubelet/index.ts";
import { type Logger, systemClock, systemRandom } from "../util/index.ts";
import { notifySynced } from "./notify-synced.ts";
import { settleAll } from "./settle-all.ts";

export interface ControllerManagerComponentOptions {
  /** The cluster config's `controllerManager:` settings. */
  readonly settings: ControllerManagerSettings;
  /** Where the disruption controller's metrics go. @default none */
  readonly metricsRegistry?: Registry;
  /** The cluster CA (PEM) published as every namespace's `kube-root-ca.crt`. @default "" */
  readonly rootCa?: string;
  /** Called once the controllers' informers have synced (its `/readyz`). @default none */
  readonly onSynced?: () => void;
}

/**
 * Runs every controller of the controller manager and their informers on `client`, as
 * `gantry up` and `gantry controller-manager` both do. Settles once all stopped after `signal`
 * aborted; rejects with the first failure.
 */
export function runControllerManagerComponent(
  client: Client,
  options: ControllerManagerComponentOptions,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  // As kube-controller-manager's informer factory, which drops every object's managedFields.
  const informers = newInformerFactory(client, {
    clock: systemClock,
    transform: stripManagedFields,
  });
  const manager = newControllerManager(
    {
      client,
      informers,
      clock: systemClock,
      random: systemRandom,
      logger: logger.with({ component: "controller-manager" }),
    },
    {
      ...controllerManagerOptions(options.settings),
      ...(options.metricsRegistry === undefined
        ? {}
        : { disruptionMetrics: newDisruptionMetrics(options.metricsRegistry) }),
      ...(options.rootCa === undefined ? {} : { rootCa: options.rootCa }),
    },
  );
  const running = settleAll([manager.start(signal), informers.start(signal)]);
  notifySynced(informers, options.onSynced, signal);
  return running;
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
    resourceQuotaSyncPeriodMs: settings.resourceQuotaSyncPeriodMs,
  };
}
