import type { IncomingMessage, ServerResponse } from "node:http";
import { type KubeObject, methodNotAllowed, pathNotFound } from "../../api/index.ts";
import type { Storage } from "../../storage/index.ts";
import type { Clock, JsonObject, Random } from "../../util/index.ts";
import type { UserInfo } from "../admission/index.ts";
import type { FieldManager } from "../fieldmanager/index.ts";
import type { ProtobufDecoder } from "../http/body.ts";
import type { ResourceRequest } from "../http/request-info.ts";
import type { EvictionMetrics } from "../registry/eviction/index.ts";
import type { Store, WriteAbort } from "../registry/generic/store.ts";
import type { ResourceRegistry } from "../registry/resource-registry.ts";
import type { FrameMemo } from "../watch/event-frame.ts";
import type { WatchCache } from "../watch-cache/index.ts";

/** Turns objects into a `meta.k8s.io/v1` Table for one kind. */
export interface TableConverter {
  /**
   * The Table for `objects`. `withColumns` is false for watch events after the first, which
   * carry `columnDefinitions: null`.
   */
  convert(
    store: Store,
    objects: readonly JsonObject[],
    options: {
      readonly now: Date;
      readonly includeObject: string;
      readonly withColumns: boolean;
      readonly listMeta?: {
        resourceVersion?: string;
        continue?: string;
        remainingItemCount?: number;
      };
    },
  ): JsonObject;
}

/** The parts every resource handler needs, wired once by the server. */
export interface HandlerDeps {
  readonly registry: ResourceRegistry;
  readonly storage: Storage;
  /** The storage root every key lives under, ending in `/`. */
  readonly registryRoot: string;
  readonly cache: WatchCache;
  readonly clock: Clock;
  readonly random: Random;
  readonly tables: TableConverter;
  readonly protobuf: ProtobufDecoder;
  /** Server-side apply and managedFields, with each kind's schema types resolved once. */
  readonly fieldManager: FieldManager;
  /** Bookmark period for watches that allow bookmarks. */
  readonly bookmarkIntervalMs: number;
  /** The bytes of the event the watch cache is fanning out, shared by its watchers. */
  readonly watchFrames: FrameMemo;
  /** Signal that aborts on server shutdown: open watches end. */
  readonly shutdown: AbortSignal;
  /** Where the eviction subresource counts its results (on the server's metrics registry). */
  readonly evictionMetrics: EvictionMetrics;
}

/** One resource request in flight. */
export interface RequestScope {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly info: ResourceRequest;
  readonly query: URLSearchParams;
  readonly store: Store;
  readonly user: UserInfo;
  readonly warnings: string[];
  /** The audit side of the request, when its audit level is above None. @default undefined */
  readonly audit?: RequestAudit | undefined;
  /**
   * Aborts when the request's deadline (`--request-timeout`) passes; set for writes only.
   * @default undefined
   */
  readonly signal?: WriteAbort | undefined;
}

/**
 * What handlers tell the audit log about a request (upstream's `audit.LogRequestObject` and
 * `audit.LogRequestPatch`). Calls are cheap no-ops below the levels that record them.
 */
export interface RequestAudit {
  /**
   * The decoded request object (create, update, DeleteOptions, subresource bodies): its metadata
   * completes the event's objectRef at every level; at Request and RequestResponse a snapshot of
   * it is the event's `requestObject`. The object may change afterwards.
   */
  logRequestObject(object: Readonly<Record<string, unknown>>): void;
  /** A patch body, recorded as `requestObject` at Request and RequestResponse. */
  logRequestPatch(patch: unknown): void;
  /** Annotations for the event; admission decisions' `auditAnnotations` are added here. */
  readonly annotations: Record<string, string>;
}

/** Upstream's `apiVersion` for a store's kind. */
export function apiVersionOfStore(store: Store): string {
  const d = store.entry.definition;
  return d.group === "" ? d.version : `${d.group}/${d.version}`;
}

/** Typed view of a decoded object. */
export function asObject(value: Record<string, unknown>): KubeObject {
  if (
    typeof value["metadata"] !== "object" ||
    value["metadata"] === null ||
    Array.isArray(value["metadata"])
  ) {
    value["metadata"] = {};
  }
  return value as KubeObject;
}

const itemVerbs: ReadonlySet<string> = new Set(["get", "update", "patch", "delete"]);

/**
 * Upstream registers routes only for the verbs a resource serves: a verb it lacks is 405 on a
 * path it has, and an item path of a resource with no item verbs (`bindings/x`) is 404.
 */
export function checkVerb(scope: RequestScope): void {
  const verbs = scope.store.entry.definition.verbs as readonly string[];
  if (verbs.includes(scope.info.verb)) return;
  if (scope.info.name !== "" && !verbs.some((verb) => itemVerbs.has(verb))) throw pathNotFound();
  throw methodNotAllowed();
}
