/**
 * Whether an event is worth another attempt for a rejected pod (upstream's `isPodWorthRequeuing`),
 * and how long a failed pod backs off. Pure functions over a queue entry.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly, Logger } from "../../util/index.ts";
import {
  type ClusterEvent,
  type ClusterEventWithHint,
  eventLabel,
  isWildCard,
  matchClusterEvents,
  type QueuedPodInfo,
} from "../framework/index.ts";

/**
 * - `skip`: nothing changed for this pod; it stays with the unschedulable pods.
 * - `afterBackoff`: retry once its backoff is over.
 * - `immediately`: a Pending plugin said Queue: retry now.
 */
export type Strategy = "skip" | "afterBackoff" | "immediately";

/** The hints a profile registered: plugin name → events and hint functions. */
export interface HintSource {
  readonly eventsToRegister: ReadonlyMap<string, readonly ClusterEventWithHint[]>;
}

/**
 * Asks the plugins that rejected the pod (and only those) whether `event` may help. No rejecting
 * plugin: retry after backoff. A wildcard event retries every pod (or only its target pod). A
 * hint that throws counts as Queue.
 */
export function worthRequeuing(
  profile: HintSource | undefined,
  info: QueuedPodInfo,
  event: ClusterEvent,
  oldObj: unknown,
  newObj: unknown,
  logger: Logger,
): Strategy {
  const rejectors = info.unschedulablePlugins;
  const pending = info.pendingPlugins;
  if (rejectors.size === 0 && pending.size === 0) return "afterBackoff";
  const pod = info.podInfo.pod;
  if (isWildCard(event)) {
    const target = newObj as DeepReadonly<Pod> | undefined;
    const uid = target?.metadata?.uid;
    return uid !== undefined && uid !== pod.metadata.uid ? "skip" : "afterBackoff";
  }
  if (profile === undefined) return "afterBackoff";
  let strategy: Strategy = "skip";
  for (const [plugin, hints] of profile.eventsToRegister) {
    if (!rejectors.has(plugin) && !pending.has(plugin)) continue;
    for (const h of hints) {
      if (!matchClusterEvents(h.event, event)) continue;
      let hint: "Queue" | "QueueSkip" = "Queue";
      if (h.queueingHintFn !== undefined) {
        try {
          hint = h.queueingHintFn(pod, oldObj, newObj);
        } catch (error: unknown) {
          logger.error("QueueingHintFn failed", { plugin, event: eventLabel(event), error });
          hint = "Queue";
        }
      }
      if (hint === "QueueSkip") continue;
      if (pending.has(plugin)) return "immediately";
      if (pending.size === 0) return "afterBackoff";
      strategy = "afterBackoff";
    }
  }
  return strategy;
}

/** The strongest strategy any of the events gives (upstream's in-flight replay). */
export function strategyAfterEvents<E>(
  info: QueuedPodInfo,
  events: readonly E[],
  evaluate: (event: E) => Strategy,
): Strategy {
  if (info.unschedulablePlugins.size === 0 && info.pendingPlugins.size === 0) return "afterBackoff";
  let strategy: Strategy = "skip";
  for (const event of events) {
    const s = evaluate(event);
    if (s === "immediately") return s;
    if (s === "afterBackoff") {
      strategy = s;
      if (info.pendingPlugins.size === 0) return s;
    }
  }
  return strategy;
}

/**
 * How long a failed pod waits: `initial` doubled for each consecutive failure (errors and
 * rejections counted separately), at most `max`; nothing before the first attempt.
 */
export function backoffDuration(info: QueuedPodInfo, initial: number, max: number): number {
  if (info.attempts === 0) return 0;
  const count =
    info.consecutiveErrorsCount > 0 ? info.consecutiveErrorsCount : info.unschedulableCount;
  if (count === 0) return 0;
  let duration = initial;
  for (let i = 1; i < count; i++) {
    if (duration > max - duration) return max;
    duration += duration;
  }
  return Math.min(duration, max);
}
