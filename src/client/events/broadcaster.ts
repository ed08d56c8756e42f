/**
 * Event recording as client-go's tools/record does it: recorders (one per component, or per
 * component and host) hand core/v1 Events to one broadcaster, which correlates them
 * (`EventCorrelator`: aggregation, count bumps, spam filter) and writes them in the background.
 *
 * Cheap by construction, so thousands of emulated kubelets can share one broadcaster:
 * - the queue is bounded (upstream's 1,000 queued events); when full, new events are dropped;
 * - writes of the same event are coalesced: a repeat queued behind an unwritten one replaces
 *   it, so a burst of repeats costs one create or one patch;
 * - `writers` writes run at once (1 by default, as upstream's one sink goroutine), never two
 *   of the same event.
 * A write that the server refuses is dropped; one that cannot reach the server is retried.
 */
import type { Event, ObjectReference } from "../../api/index.ts";
import {
  type Clock,
  type DeepReadonly,
  errorMessage,
  type Logger,
  rfc3339,
} from "../../util/index.ts";
import { type Client, eventsResource, type ResourceRef } from "../client.ts";
import { isNotFound, TransportError } from "../errors.ts";
import { type CorrelatorOptions, EventCorrelator } from "./correlator.ts";

export type EventType = "Normal" | "Warning";

/** Records events; never throws and never blocks the caller (writes happen in the background). */
export interface EventRecorder {
  event(involved: ObjectReference, type: EventType, reason: string, message: string): void;
}

/** Who records: `source.component` / `reportingComponent`, `source.host` / `reportingInstance`. */
export interface EventSource {
  readonly component: string;
  /** @default "" */
  readonly host?: string;
}

export interface EventBroadcasterDeps {
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface EventBroadcasterOptions extends CorrelatorOptions {
  /** Events waiting to be written; more are dropped. @default 1000 */
  readonly maxQueued?: number;
  /** Writes in flight at once. @default 1 */
  readonly writers?: number;
  /** Attempts of a write the server could not be reached for. @default 12 */
  readonly maxTries?: number;
  /** Wait between those attempts. @default 10000 */
  readonly retryDelayMs?: number;
}

/** One broadcaster: recorders for any number of sources, one queue, one correlator. */
export interface EventBroadcaster {
  /** A recorder writing as `source`. */
  recorder(source: EventSource): EventRecorder;
  /** Resolves once every event queued so far has been written (or given up on). */
  flush(): Promise<void>;
  /**
   * Stops recording: later events are ignored, queued ones are written once more without
   * retries (so a server that is gone costs one failed request each), and the promise resolves
   * when the queue is empty.
   */
  shutdown(): Promise<void>;
}

/** The reference an Event carries for `object` of `resource` (`reference.GetReference`). */
export function referenceTo(
  object: DeepReadonly<{
    metadata: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
  }>,
  resource: Pick<ResourceRef, "group" | "version" | "kind">,
  fieldPath?: string,
): ObjectReference {
  const ref: ObjectReference = {
    kind: resource.kind,
    apiVersion: resource.group === "" ? resource.version : `${resource.group}/${resource.version}`,
    name: object.metadata.name ?? "",
  };
  if ((object.metadata.namespace ?? "") !== "") ref.namespace = object.metadata.namespace ?? "";
  if (object.metadata.uid !== undefined) ref.uid = object.metadata.uid;
  if (object.metadata.resourceVersion !== undefined) {
    ref.resourceVersion = object.metadata.resourceVersion;
  }
  if (fieldPath !== undefined) ref.fieldPath = fieldPath;
  return ref;
}

interface Pending {
  event: Event;
  /** Create (false) or patch (true); a coalesced repeat of an unwritten event stays a create. */
  patch: boolean;
}

export function newEventBroadcaster(
  deps: EventBroadcasterDeps,
  options: EventBroadcasterOptions = {},
): EventBroadcaster {
  const correlator = new EventCorrelator(deps.clock, options);
  const maxQueued = options.maxQueued ?? 1000;
  const writers = Math.max(1, options.writers ?? 1);
  const maxTries = options.maxTries ?? 12;
  const retryDelayMs = options.retryDelayMs ?? 10_000;
  /** Queued writes by correlation key, in arrival order. */
  const queue = new Map<string, Pending>();
  const inFlight = new Set<string>();
  const stop = new AbortController();
  let running = 0;
  let dropped = 0;
  const idle: (() => void)[] = [];

  const wakeIdle = (): void => {
    if (running > 0 || queue.size > 0) return;
    for (const resolve of idle.splice(0)) resolve();
  };

  const write = async ({ event, patch }: Pending): Promise<void> => {
    if (patch) {
      try {
        await deps.client.patch(
          eventsResource,
          event.metadata.namespace,
          event.metadata.name ?? "",
          "strategic",
          { count: event.count, lastTimestamp: event.lastTimestamp, message: event.message },
        );
        return;
      } catch (error: unknown) {
        if (!isNotFound(error)) throw error;
      }
    }
    await deps.client.create(eventsResource, event);
  };

  /** `recordToSink`: retries only while the server cannot be reached. */
  const writeWithRetries = async (pending: Pending): Promise<void> => {
    for (let tries = 1; ; tries++) {
      try {
        await write(pending);
        return;
      } catch (error: unknown) {
        const reachable = !(error instanceof TransportError && error.retryable);
        if (reachable || tries >= maxTries || stop.signal.aborted) {
          // A refusal (a terminating namespace, say) is final, as upstream treats it.
          deps.logger.v(reachable ? 2 : 0).info("Could not record event, dropping it", {
            object: `${pending.event.involvedObject.namespace ?? ""}/${pending.event.involvedObject.name ?? ""}`,
            reason: pending.event.reason,
            error: errorMessage(error),
          });
          return;
        }
      }
      const aborted = await deps.clock.sleep(retryDelayMs, stop.signal).then(
        () => false,
        () => true,
      );
      if (aborted) return;
    }
  };

  /** The first queued write whose event is not being written already. */
  const takeNext = (): [string, Pending] | undefined => {
    for (const [key, pending] of queue) {
      if (inFlight.has(key)) continue;
      queue.delete(key);
      return [key, pending];
    }
    return undefined;
  };

  const pump = (): void => {
    while (running < writers) {
      const next = takeNext();
      if (next === undefined) break;
      const [key, pending] = next;
      running++;
      inFlight.add(key);
      void writeWithRetries(pending)
        .catch((error: unknown) => {
          deps.logger.error("Event writer failed", { error });
        })
        .finally(() => {
          running--;
          inFlight.delete(key);
          pump();
          wakeIdle();
        });
    }
  };

  const enqueue = (event: Event): void => {
    const result = correlator.correlate(event);
    if (result.skip) return;
    const queued = queue.get(result.key);
    if (queued !== undefined) {
      // The earlier write has not started: write the latest state instead, the same way.
      queued.event = result.event;
      return;
    }
    if (queue.size >= maxQueued) {
      dropped++;
      if (dropped === 1 || dropped % 1000 === 0) {
        deps.logger.info("Event queue full, dropping events", { dropped, queued: queue.size });
      }
      return;
    }
    queue.set(result.key, { event: result.event, patch: result.patch });
    pump();
  };

  const flush = (): Promise<void> => {
    if (running === 0 && queue.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => idle.push(resolve));
  };

  return {
    recorder(source) {
      const component = source.component;
      const host = source.host ?? "";
      return {
        event(involved, type, reason, message) {
          if (stop.signal.aborted) return;
          const now = deps.clock.now();
          const time = rfc3339(now);
          const namespace =
            (involved.namespace ?? "") === "" ? "default" : (involved.namespace ?? "");
          enqueue({
            apiVersion: "v1",
            kind: "Event",
            metadata: { name: correlator.eventName(involved.name ?? "", now), namespace },
            involvedObject: { ...involved },
            reason,
            message,
            source: host === "" ? { component } : { component, host },
            firstTimestamp: time,
            lastTimestamp: time,
            count: 1,
            type,
            eventTime: null,
            reportingComponent: component,
            reportingInstance: host,
          });
        },
      };
    },
    flush,
    shutdown() {
      stop.abort();
      return flush();
    },
  };
}

/** A recorder with a `flush()`: one broadcaster with one source (what most tests want). */
export interface FlushableEventRecorder extends EventRecorder {
  flush(): Promise<void>;
}

/** A broadcaster with a single recorder writing as `source`. */
export function newEventRecorder(
  deps: EventBroadcasterDeps,
  options: EventSource & EventBroadcasterOptions,
): FlushableEventRecorder {
  const broadcaster = newEventBroadcaster(deps, options);
  const recorder = broadcaster.recorder(options);
  return { event: recorder.event.bind(recorder), flush: () => broadcaster.flush() };
}
