/**
 * An event recorder writing core/v1 Events through the client, as client-go's
 * tools/record does for controllers: one Event per distinct (object, type, reason, message),
 * repeated occurrences bump `count` and `lastTimestamp` of the same Event (the correlator's
 * deduplication, without its similar-message aggregation or spam filter).
 */
import type { Event, ObjectReference } from "../../api/index.ts";
import { type Client, eventsResource, isNotFound, type ResourceRef } from "../../client/index.ts";
import { type Clock, type DeepReadonly, type Logger, rfc3339 } from "../../util/index.ts";

export type EventType = "Normal" | "Warning";

/** Records events; never throws and never blocks the caller (writes happen in the background). */
export interface EventRecorder {
  event(involved: ObjectReference, type: EventType, reason: string, message: string): void;
}

export interface EventRecorderOptions {
  /** `source.component` and `reportingComponent`, e.g. "deployment-controller". */
  readonly component: string;
  /** `source.host` and `reportingInstance`. @default "" */
  readonly host?: string;
  /** Distinct events remembered for deduplication (upstream's LRU size). @default 4096 */
  readonly cacheSize?: number;
}

export interface EventRecorderDeps {
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The reference an Event carries for `object` of `resource` (`reference.GetReference`). */
export function referenceTo(
  object: DeepReadonly<{
    metadata: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
  }>,
  resource: Pick<ResourceRef, "group" | "version" | "kind">,
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
  return ref;
}

interface Seen {
  readonly name: string;
  readonly namespace: string;
  readonly firstTimestamp: string;
  readonly count: number;
}

/** An EventRecorder with a `flush()` that resolves once every queued write has finished. */
export interface FlushableEventRecorder extends EventRecorder {
  flush(): Promise<void>;
}

export function newEventRecorder(
  deps: EventRecorderDeps,
  options: EventRecorderOptions,
): FlushableEventRecorder {
  const host = options.host ?? "";
  const cacheSize = options.cacheSize ?? 4096;
  const seen = new Map<string, Seen>();
  let tail: Promise<void> = Promise.resolve();
  let sequence = 0;

  const remember = (key: string, value: Seen): void => {
    seen.delete(key);
    seen.set(key, value);
    while (seen.size > cacheSize) {
      const oldest = seen.keys().next().value;
      if (oldest === undefined) break;
      seen.delete(oldest);
    }
  };

  const write = async (event: Event, patch: boolean): Promise<void> => {
    const namespace = event.metadata.namespace ?? "";
    const name = event.metadata.name ?? "";
    if (patch) {
      try {
        await deps.client.patch(eventsResource, namespace, name, "strategic", {
          count: event.count,
          lastTimestamp: event.lastTimestamp,
          message: event.message,
        });
        return;
      } catch (error: unknown) {
        if (!isNotFound(error)) throw error;
      }
    }
    await deps.client.create(eventsResource, event);
  };

  return {
    event(involved, type, reason, message) {
      const now = deps.clock.now();
      const time = rfc3339(now);
      const key = [
        options.component,
        host,
        involved.kind,
        involved.namespace,
        involved.name,
        involved.fieldPath,
        involved.uid,
        involved.apiVersion,
        type,
        reason,
        message,
      ].join("\u0000");
      const previous = seen.get(key);
      const namespace = (involved.namespace ?? "") === "" ? "default" : (involved.namespace ?? "");
      // UnixNano in hex, made unique per recorder: the clock has millisecond precision.
      const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(sequence++ % 1_000_000);
      const event: Event = {
        apiVersion: "v1",
        kind: "Event",
        metadata: {
          name: previous?.name ?? `${involved.name ?? ""}.${nanos.toString(16)}`,
          namespace: previous?.namespace ?? namespace,
        },
        involvedObject: { ...involved },
        reason,
        message,
        source:
          host === "" ? { component: options.component } : { component: options.component, host },
        firstTimestamp: previous?.firstTimestamp ?? time,
        lastTimestamp: time,
        count: (previous?.count ?? 0) + 1,
        type,
        eventTime: null,
        reportingComponent: options.component,
        reportingInstance: host,
      };
      remember(key, {
        name: event.metadata.name ?? "",
        namespace: event.metadata.namespace ?? "",
        firstTimestamp: event.firstTimestamp ?? time,
        count: event.count ?? 1,
      });
      tail = tail
        .then(() => write(event, previous !== undefined))
        .catch((error: unknown) => {
          deps.logger.error("Could not record event", {
            object: `${involved.namespace ?? ""}/${involved.name ?? ""}`,
            reason,
            error,
          });
        });
    },
    flush: () => tail,
  };
}
