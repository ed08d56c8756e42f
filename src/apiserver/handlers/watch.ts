import type { KubeObject } from "../../api/index.ts";
import { asApiError } from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";
import { parseAccept, wantsTable } from "../http/accept.ts";
import { parseGoBool } from "../http/request-info.ts";
import { segmentOf } from "../registry/generic/strategy.ts";
import type { CachedObject, CacheEvent, WatchFilter } from "../watch-cache/index.ts";
import { parseResourceVersion } from "./list-options.ts";
import { buildPredicate } from "./predicate.ts";
import { apiVersionOfStore, type HandlerDeps, type RequestScope } from "./scope.ts";

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
  const predicate = buildPredicate(store, query);
  const rv = parseResourceVersion(query.get("resourceVersion"));
  const allowBookmarks = parseGoBool(query.get("allowWatchBookmarks")) === true;
  const sendInitialEvents = parseGoBool(query.get("sendInitialEvents"));
  const timeoutSeconds = Number(query.get("timeoutSeconds") ?? "0");
  const table = wantsTable(parseAccept(req.headers.accept));
  const cache = deps.cache.resource(segmentOf(definition));

  res.statusCode = 200;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Cache-Control", "no-cache, private");
  res.setHeader("Transfer-Encoding", "chunked");
  res.flushHeaders();

  let firstTable = true;
  const encode = (type: string, object: CachedObject | JsonObject): string => {
    if (table !== undefined && type !== "BOOKMARK" && type !== "ERROR") {
      const value =
        "json" in object && typeof object.json === "function"
          ? (object as CachedObject).object
          : (object as JsonObject);
      const body = deps.tables.convert(store, [value], {
        now: deps.clock.now(),
        includeObject: table.includeObject,
        withColumns: firstTable,
      });
      firstTable = false;
      return `{"type":"${type}","object":${JSON.stringify(body)}}\n`;
    }
    const text =
      "json" in object && typeof object.json === "function"
        ? (object as CachedObject).json()
        : JSON.stringify(object);
    return `{"type":"${type}","object":${text}}\n`;
  };

  const done = new AbortController();
  const finish = (): void => done.abort();
  req.on("close", finish);
  res.on("close", finish);
  deps.shutdown.addEventListener("abort", finish, { once: true });

  const write = (text: string): void => {
    if (done.signal.aborted) return;
    res.write(text);
    if (res.writableLength > maxBufferedBytes) finish();
  };
  const bookmark = (annotations?: Record<string, string>): void => {
    const metadata: Record<string, unknown> = {
      resourceVersion: String(deps.cache.revision),
      creationTimestamp: null,
    };
    if (annotations !== undefined) metadata["annotations"] = annotations;
    write(
      encode("BOOKMARK", {
        kind: definition.kind,
        apiVersion: apiVersionOfStore(store),
        metadata,
      } as JsonObject),
    );
  };

  const namespace = definition.namespaced ? info.namespace : "";
  const filter: WatchFilter = {
    namespace,
    matches: (object) => predicate(object.object as unknown as KubeObject),
  };
  const sink = { deliver: (event: CacheEvent) => write(encode(event.type, event.object)) };

  let stop: (() => void) | undefined;
  try {
    const initial =
      rv === undefined || rv === 0 ? sendInitialEvents !== false : sendInitialEvents === true;
    if (initial) {
      // Synthetic ADDED events and the subscription happen in one synchronous step, so no change
      // can fall between them.
      const from = deps.cache.revision;
      for (const event of cache.initialEvents(filter)) sink.deliver(event);
      if (sendInitialEvents === true && allowBookmarks) {
        bookmark({ "k8s.io/initial-events-end": "true" });
      }
      stop = cache.watch(from, filter, sink);
    } else {
      const from = rv ?? 0;
      if (from < cache.historyStart) {
        write(
          encode("ERROR", {
            kind: "Status",
            apiVersion: "v1",
            metadata: {},
            status: "Failure",
            message: `too old resource version: ${from} (${cache.historyStart})`,
            reason: "Expired",
            code: 410,
          } as JsonObject),
        );
        res.end();
        return;
      }
      stop = cache.watch(from, filter, sink);
    }
  } catch (error: unknown) {
    write(encode("ERROR", asApiError(error).toStatus() as unknown as JsonObject));
    res.end();
    return;
  }

  const timers: NodeJS.Timeout[] = [];
  if (allowBookmarks) timers.push(setInterval(() => bookmark(), deps.bookmarkIntervalMs));
  if (timeoutSeconds > 0) timers.push(setTimeout(finish, timeoutSeconds * 1000));
  try {
    await new Promise<void>((resolve) => {
      if (done.signal.aborted) resolve();
      else done.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  } finally {
    for (const timer of timers) clearTimeout(timer);
    stop();
    req.off("close", finish);
    res.off("close", finish);
    deps.shutdown.removeEventListener("abort", finish);
    if (!res.writableEnded) res.end();
  }
}
