import type { Registry } from "prom-client";
import { type Client, newInformerFactory, stripManagedFields } from "../client/index.ts";
import { defaultProfile, inTreeRegistry, newScheduler } from "../scheduler/index.ts";
import { type Logger, systemClock, systemRandom } from "../util/index.ts";
import { notifySynced } from "./notify-synced.ts";
import { settleAll } from "./settle-all.ts";

export interface SchedulerComponentOptions {
  /** Where the scheduler's metrics go (the API server's `/metrics` registry). @default none */
  readonly metricsRegistry?: Registry;
  /** Called once the scheduler's informers have synced (its `/readyz`). @default none */
  readonly onSynced?: () => void;
}

/**
 * Runs the default scheduler (one profile, the in-tree plugins) and its informers on `client`,
 * as `gantry up` and `gantry scheduler` both do. Settles once both stopped after `signal`
 * aborted; rejects with the first failure.
 */
export function runSchedulerComponent(
  client: Client,
  options: SchedulerComponentOptions,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  // As kube-scheduler, whose informers drop managedFields: it never reads them, and the objects
  // it caches (every pod of the cluster) are smaller for it.
  const informers = newInformerFactory(client, { transform: stripManagedFields });
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
  // The scheduler hands its informers out as it starts, before the factory's sync is awaited.
  const running = settleAll([scheduler.start(signal), informers.start(signal)]);
  notifySynced(informers, options.onSynced, signal);
  return running;
}
