import { badRequest, expired, type KubeObject, notFound, timeout } from "../../api/index.ts";
import { StorageError } from "../../storage/index.ts";
import type { JsonObject } from "../../util/index.ts";
import { parseAccept, wantsTable } from "../http/accept.ts";
import { parseGoBool } from "../http/request-info.ts";
import { writeJson, writeJsonList } from "../http/responses.ts";
import { prefixOf, segmentOf } from "../registry/generic/strategy.ts";
import type { CachedObject } from "../watch-cache/index.ts";
import {
  continueExpiredMessage,
  decodeContinue,
  encodeContinue,
  type ObjectPredicate,
  optionalInt64,
  parseLimit,
  parseResourceVersion,
  tooOldResourceVersion,
  validateListOptions,
} from "./list-options.ts";
import { buildPredicate } from "./predicate.ts";
import { apiVersionOfStore, checkVerb, type HandlerDeps, type RequestScope } from "./scope.ts";

/** How long a read waits for the cache to reach a requested revision (upstream: 3 s). */
const freshnessTimeoutMs = 3000;

/**
 * GET of one object, from the watch cache once it holds every write storage has acknowledged:
 * the same answer as a storage read (a consistent read), without parsing, copying and
 * serializing the object again.
 */
export async function handleGet(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  checkVerb(scope);
  parseResourceVersion(scope.query.get("resourceVersion"));
  await untilFresh(deps);
  const definition = store.entry.definition;
  const cached = deps.cache
    .resource(segmentOf(definition))
    .get(store.key(info.namespace, info.name));
  if (cached === undefined) {
    throw notFound({ group: definition.group, resource: definition.resource }, info.name);
  }
  respondObjects(deps, scope, [cached.object], undefined, true, [cached.json()]);
}

/**
 * GET of a collection: from the watch cache, or from storage for a continue token or an exact
 * read at an older revision. A continue token (or exact read) at the cache's own revision is
 * served from the cache too: nothing has been written since, so its state is that snapshot.
 */
export async function handleList(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, query } = scope;
  checkVerb(scope);
  const limit = parseLimit(query.get("limit"));
  optionalInt64(query, "timeoutSeconds");
  const predicate = buildPredicate(store, query);
  validateListOptions(query, false);
  const continueText = query.get("continue") ?? "";
  const rv = parseResourceVersion(query.get("resourceVersion"));
  const match = query.get("resourceVersionMatch") ?? "";
  if (continueText !== "" && rv !== undefined && rv !== 0) {
    throw badRequest("specifying resource version is not allowed when using continue");
  }
  // Upstream counts what is left only for a list no selector filters.
  const unfiltered =
    (query.get("labelSelector") ?? "").trim() === "" &&
    (query.get("fieldSelector") ?? "").trim() === "";

  let page: ListPage;
  if (continueText !== "" || (match === "Exact" && rv !== undefined)) {
    const token =
      continueText !== "" ? decodeContinue(continueText) : { revision: rv ?? 0, start: "" };
    await untilFresh(deps);
    page =
      token.revision === deps.cache.revision
        ? listFromCache(deps, scope, predicate, limit, token.start, unfiltered)
        : await listFromStorage(
            deps,
            scope,
            predicate,
            token.revision,
            token.start,
            limit,
            continueText !== "",
          );
  } else {
    if (rv === undefined) await untilFresh(deps);
    else if (rv > deps.cache.revision) await untilCached(deps, rv);
    page = listFromCache(deps, scope, predicate, limit, "", unfiltered);
  }
  const listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = {
    resourceVersion: String(page.revision),
  };
  if (page.next !== undefined) listMeta.continue = page.next;
  if (page.remaining !== undefined && page.remaining > 0 && page.next !== undefined)
    listMeta.remainingItemCount = page.remaining;
  respondObjects(deps, scope, page.items, listMeta, false, page.texts);
}

/** One page of a list: items (with their JSON when cached) and where the next page starts. */
interface ListPage {
  readonly items: JsonObject[];
  readonly texts?: string[];
  readonly revision: number;
  readonly next: string | undefined;
  readonly remaining: number | undefined;
}

/** A page from the watch cache at its current revision, from `startKey` on. */
function listFromCache(
  deps: HandlerDeps,
  scope: RequestScope,
  predicate: ObjectPredicate,
  limit: number,
  startKey: string,
  unfiltered: boolean,
): ListPage {
  const definition = scope.store.entry.definition;
  const revision = deps.cache.revision;
  const cache = deps.cache.resource(segmentOf(definition));
  const items: JsonObject[] = [];
  const texts: string[] = [];
  let last: CachedObject | undefined;
  let more = false;
  let remaining: number | undefined;
  const namespace = definition.namespaced ? scope.info.namespace : "";
  const from = startKey !== "" ? startKey : prefixOf(deps.registryRoot, definition, namespace);
  for (const object of cache.list(namespace, from)) {
    if (!predicate(object.object as unknown as KubeObject)) continue;
    if (limit > 0 && items.length === limit) {
      more = true;
      if (!unfiltered) break;
      remaining = (remaining ?? 0) + 1;
      continue;
    }
    items.push(object.object);
    texts.push(object.json());
    last = object;
  }
  const next =
    more && last !== undefined
      ? encodeContinue({ revision, start: `${last.key}\u0000` })
      : undefined;
  return { items, texts, revision, next, remaining };
}

async function listFromStorage(
  deps: HandlerDeps,
  scope: RequestScope,
  predicate: ObjectPredicate,
  revision: number,
  start: string,
  limit: number,
  isContinue: boolean,
): Promise<ListPage> {
  const definition = scope.store.entry.definition;
  const prefix = prefixOf(
    deps.registryRoot,
    definition,
    definition.namespaced ? scope.info.namespace : "",
  );
  const items: JsonObject[] = [];
  let cursor = start === "" ? undefined : start;
  let lastKey: string | undefined;
  const batch = limit > 0 ? Math.max(limit, 64) : 0;
  const current = await deps.storage.currentRevision();
  if (revision > current) {
    throw timeout(`Too large resource version: ${revision}, current: ${current}`, [
      { reason: "ResourceVersionTooLarge", message: "Too large resource version" },
    ]);
  }
  try {
    for (;;) {
      const page = await deps.storage.list(prefix, {
        revision,
        ...(cursor === undefined ? {} : { startKey: cursor }),
        ...(batch > 0 ? { limit: batch } : {}),
      });
      for (const item of page.items) {
        const object = {
          ...item.value,
          metadata: {
            ...(item.value["metadata"] as object),
            resourceVersion: String(item.revision),
          },
        } as JsonObject;
        if (!predicate(object as unknown as KubeObject)) continue;
        if (limit > 0 && items.length === limit) {
          return {
            items,
            revision,
            next: encodeContinue({ revision, start: `${lastKey ?? ""}\u0000` }),
            remaining: 0,
          };
        }
        items.push(object);
        lastKey = item.key;
      }
      if (!page.more) return { items, revision, next: undefined, remaining: 0 };
      const last = page.items[page.items.length - 1];
      cursor = last === undefined ? undefined : `${last.key}\u0000`;
    }
  } catch (error: unknown) {
    if (error instanceof StorageError && error.reason === "Compacted") {
      if (isContinue) throw expired(continueExpiredMessage);
      tooOldResourceVersion(revision, error.revision ?? 0);
    }
    throw error;
  }
}

/** Writes objects as JSON (one object or a List) or as a Table when the client asks for one. */
function respondObjects(
  deps: HandlerDeps,
  scope: RequestScope,
  items: readonly JsonObject[],
  listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number } | undefined,
  single: boolean,
  texts?: readonly string[],
): void {
  // Only an Accept header naming a Table can ask for one: skip parsing the rest.
  const accept = scope.req.headers.accept;
  const table = accept?.includes("Table") === true ? wantsTable(parseAccept(accept)) : undefined;
  if (table !== undefined) {
    const body = deps.tables.convert(scope.store, items, {
      now: deps.clock.now(),
      includeObject: table.includeObject,
      withColumns: true,
      ...(listMeta === undefined ? {} : { listMeta }),
    });
    writeJson(scope.res, 200, body, { warnings: scope.warnings });
    return;
  }
  if (single) {
    writeJson(scope.res, 200, texts?.[0] ?? items[0], { warnings: scope.warnings });
    return;
  }
  const definition = scope.store.entry.definition;
  const head = JSON.stringify({
    kind: definition.listKind,
    apiVersion: apiVersionOfStore(scope.store),
    metadata: listMeta ?? {},
  });
  const parts = texts ?? items.map((item) => JSON.stringify(item));
  writeJsonList(scope.res, head.slice(0, -1), parts, scope.warnings);
}

/**
 * Waits until the watch cache holds every write storage has acknowledged (`untilCached`). The
 * usual case, a cache already current, costs no timer.
 */
async function untilFresh(deps: HandlerDeps): Promise<void> {
  const current = await deps.storage.currentRevision();
  if (deps.cache.revision >= current) return;
  await untilCached(deps, current);
}

/**
 * Waits until the watch cache reaches `revision`, at most 3 s on the server's clock, then fails
 * with upstream cacher's 504 "Too large resource version".
 */
async function untilCached(deps: HandlerDeps, revision: number): Promise<void> {
  const stop = new AbortController();
  const expired = deps.clock.sleep(freshnessTimeoutMs, stop.signal).then(
    () => "expired" as const,
    () => "stopped" as const,
  );
  try {
    const first = await Promise.race([
      deps.cache.waitFor(revision).then(() => "cached" as const),
      expired,
    ]);
    if (first === "expired") {
      throw timeout("Too large resource version", [
        { reason: "ResourceVersionTooLarge", message: "Too large resource version" },
      ]);
    }
  } finally {
    stop.abort();
  }
}

/** Whether the request asks for a watch. */
export function isWatchRequest(query: URLSearchParams): boolean {
  return parseGoBool(query.get("watch")) === true;
}
