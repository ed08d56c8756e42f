import { setMaxListeners } from "node:events";
import {
  asApiError,
  badRequest,
  fieldRequiresExactMatch,
  type KubeObject,
  parseFieldSelector,
} from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";
import { parseAccept, wantsTable } from "../http/accept.ts";
import { parseGoBool } from "../http/request-info.ts";
import { setWarnings } from "../http/responses.ts";
import { segmentOf } from "../registry/generic/strategy.ts";
import { type EventFrame, eventFrame } from "../watch/event-frame.ts";
import { EventWriter } from "../watch/event-writer.ts";
import type { CacheEvent, WatchFilter, WatchSink } from "../watch-cache/index.ts";
import {
  type ObjectPredicate,
  optionalInt64,
  parseLimit,
  parseResourceVersion,
  validateListOptions,
} from "./list-options.ts";
import { buildPredicate } from "./predicate.ts";
import { apiVersionOfStore, checkVerb, type HandlerDeps, type RequestScope } from "./scope.ts";

/** A watcher whose socket has this much unsent data is too slow: it is closed to re-list. */
const maxBufferedBytes = 64 * 1024 * 1024;

/**
 * A watch: newline-delimited JSON events over a chunked response, headers flushed at once,
 * served from the watch cache. RV unset or "0" starts with synthetic ADDED events; an RV older
 * than the cache's history gets a 410 Expired ERROR event.
 */
export async function handleWatch(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, query, res, req, info } = scope;
  const definition = store.entry.definition;
  checkVerb(scope);
  const timeoutSeconds = optionalInt64(query, "timeoutSeconds") ?? 0;
  parseLimit(query.get("limit"));
  const selected = buildPredicate(store, query);
  validateListOptions(query, true);
  const predicate = info.name === "" ? selected : namePredicate(query, info.name, selected);
  const rv = parseResourceVersion(query.get("resourceVersion"));
  const allowBookmarks = parseGoBool(query.get("allowWatchBookmarks")) === true;
  const sendInitialEvents = parseGoBool(query.get("sendInitialEvents"));
  const table = wantsTable(parseAccept(req.headers.accept));
  const cache = deps.cache.resource(segmentOf(definition));

  res.statusCode = 200;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Cache-Control", "no-cache, private");
  res.setHeader("Transfer-Encoding", "chunked");
  setWarnings(res, scope.warnings);
  res.flushHeaders();

  const done = new AbortController();
  // Once the watch is finishing, no event is added; what is pending still goes out in order.
  let finishing = false;
  const finish = (): void => {
    finishing = true;
    done.abort();
  };
  req.on("close", finish);
  res.on("close", finish);
  // One listener per open watch: lift the EventTarget's warning threshold of 10.
  setMaxListeners(0, deps.shutdown);
  deps.shutdown.addEventListener("abort", finish, { once: true });

  // Events of one loop turn leave in one write per watcher, at the end of the turn.
  const writer = new EventWriter(res, maxBufferedBytes, finish);
  let ended = false;
  const endWatch = (): void => {
    if (ended) return;
    ended = true;
    req.off("close", finish);
    res.off("close", finish);
    deps.shutdown.removeEventListener("abort", finish);
    // What this turn has pending goes out before the end, unless the client is gone.
    writer.close(!res.destroyed);
    if (!res.writableEnded) res.end();
  };
  let firstTable = true;
  const tableFrame = (type: string, object: JsonObject): EventFrame => {
    const body = deps.tables.convert(store, [object], {
      now: deps.clock.now(),
      includeObject: table?.includeObject ?? "Metadata",
      withColumns: firstTable,
    });
    firstTable = false;
    return eventFrame(type, JSON.stringify(body));
  };
  /** An event of the watch cache: its bytes are made once and shared by every watcher. */
  const deliver = (event: CacheEvent): void => {
    if (finishing) return;
    const object = event.object;
    if (table === undefined) {
      writer.write(
        deps.watchFrames.get(object, event.type, () => eventFrame(event.type, object.json())),
      );
    } else if (firstTable) {
      // The first Table event carries the column definitions: this watcher's own.
      writer.write(tableFrame(event.type, object.object));
    } else {
      const variant = `table:${event.type}:${table.includeObject}`;
      writer.write(
        deps.watchFrames.get(object, variant, () => tableFrame(event.type, object.object)),
      );
    }
  };
  /** A BOOKMARK or ERROR event, this watcher's own. */
  const writeOwn = (type: string, object: JsonObject): void => {
    if (finishing) return;
    writer.write(eventFrame(type, JSON.stringify(object)));
  };
  const bookmark = (annotations?: Record<string, string>): void => {
    const metadata: Record<string, unknown> = {
      resourceVersion: String(deps.cache.revision),
      creationTimestamp: null,
    };
    if (annotations !== undefined) metadata["annotations"] = annotations;
    writeOwn("BOOKMARK", {
      kind: definition.kind,
      apiVersion: apiVersionOfStore(store),
      metadata,
    } as JsonObject);
  };

  const namespace = definition.namespaced ? info.namespace : "";
  const filter: WatchFilter = {
    namespace,
    matches: (object) => predicate(object.object as unknown as KubeObject),
  };
  const sink: WatchSink = {
    deliver,
    // The cache was rebuilt from a fresh list: end the watch; the client watches again from
    // its last resourceVersion and is told to re-list (410), as upstream's cacher does.
    terminate: finish,
  };

  let stop: (() => void) | undefined;
  try {
    const initial =
      rv === undefined || rv === 0 ? sendInitialEvents !== false : sendInitialEvents === true;
    if (initial) {
      // Synthetic ADDED events and the subscription happen in one synchronous step, so no change
      // can fall between them.
      const from = deps.cache.revision;
      for (const event of cache.initialEvents(filter)) deliver(event);
      if (sendInitialEvents === true && allowBookmarks) {
        bookmark({ "k8s.io/initial-events-end": "true" });
      }
      stop = cache.watch(from, filter, sink);
    } else {
      const from = rv ?? 0;
      if (from < cache.historyStart) {
        writeOwn("ERROR", {
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message: `too old resource version: ${from} (${cache.historyStart})`,
          reason: "Expired",
          code: 410,
        } as JsonObject);
        endWatch();
        return;
      }
      stop = cache.watch(from, filter, sink);
    }
  } catch (error: unknown) {
    writeOwn("ERROR", asApiError(error).toStatus() as unknown as JsonObject);
    endWatch();
    return;
  }

  const timers: NodeJS.Timeout[] = [];
  if (allowBookmarks) timers.push(setInterval(() => bookmark(), deps.bookmarkIntervalMs));
  // Upstream ends a watch with a negative timeout at once; 0 means the server's own limit.
  if (timeoutSeconds < 0) finish();
  else if (timeoutSeconds > 0) timers.push(setTimeout(finish, timeoutSeconds * 1000));
  try {
    await new Promise<void>((resolve) => {
      if (done.signal.aborted) resolve();
      else done.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  } finally {
    for (const timer of timers) clearTimeout(timer);
    stop();
    endWatch();
  }
}

/**
 * A watch on an item path (`pods/web?watch=true`) selects that name, as upstream turns the name
 * into a `metadata.name` field selector; an explicit selector must ask for the same name.
 */
function namePredicate(
  query: URLSearchParams,
  name: string,
  selected: ObjectPredicate,
): ObjectPredicate {
  const fieldText = query.get("fieldSelector") ?? "";
  if (fieldText.trim() !== "") {
    const selectedName = fieldRequiresExactMatch(parseFieldSelector(fieldText), "metadata.name");
    if (selectedName !== name) {
      throw badRequest("fieldSelector metadata.name doesn't match requested name");
    }
  }
  return (object) => object.metadata.name === name && selected(object);
}
