import {
  type Client,
  newEventBroadcaster,
  newInformerFactory,
  stripManagedFields,
} from "../client/index.ts";
import { newQueueing, type QueueingConfig, type QueueingMetrics } from "../queueing/index.ts";
import { type Logger, systemClock } from "../util/index.ts";
import { notifySynced } from "./notify-synced.ts";
import { settleAll } from "./settle-all.ts";

export interface QueueingComponentOptions {
  readonly config: QueueingConfig;
  /** Kueue's metrics, on the registry the API server serves. @default none */
  readonly metrics?: QueueingMetrics;
  /** Called once the controllers' informers have synced (its `/readyz`). @default none */
  readonly onSynced?: () => void;
}

/**
 * Runs Kueue's plain-pod queueing controllers and their informers on `client`, as `gantry up`
 * and `gantry queueing` both do (the pod webhook runs in the API server). Settles once all
 * stopped after `signal` aborted and the queued events were written.
 */
export function runQueueingComponent(
  client: Client,
  options: QueueingComponentOptions,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  // Its informers drop managedFields, as kube-scheduler's do: nothing here reads them (every
  // write goes without them, and the API server keeps the stored ones), and the Workloads it
  // caches, each with its pod template's field set, are much smaller for it.
  const informers = newInformerFactory(client, {
    clock: systemClock,
    transform: stripManagedFields,
  });
  const events = newEventBroadcaster({ client, clock: systemClock, logger });
  const queueing = newQueueing(
    {
      client,
      informers,
      clock: systemClock,
      logger: logger.with({ component: "queueing" }),
      podEvents: events.recorder({ component: "kueue-job-controller" }),
      workloadEvents: events.recorder({ component: "kueue-admission" }),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    },
    options.config,
  );
  const running = settleAll([
    queueing.start(signal).finally(() => events.shutdown()),
    informers.start(signal),
  ]);
  notifySynced(informers, options.onSynced, signal);
  return running;
}
