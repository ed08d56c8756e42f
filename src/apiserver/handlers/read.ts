import { expired, type KubeObject, timeout } from "../../api/index.ts";
import { StorageError } from "../../storage/index.ts";
import type { JsonObject } from "../../util/index.ts";
import { parseAccept, wantsTable } from "../http/accept.ts";
import { parseGoBool } from "../http/request-info.ts";
import { writeJson } from "../http/responses.ts";
import { prefixOf, segmentOf } from "../registry/generic/strategy.ts";
import type { CachedObject } from "../watch-cache/index.ts";
import {
  continueExpiredMessage,
  decodeContinue,
  encodeContinue,
  type ObjectPredicate,
  parseLimit,
  parseResourceVersion,
  tooOldResourceVersion,
} from "./list-options.ts";
import { buildPredicate } from "./predicate.ts";
import { apiVersionOfStore, type HandlerDeps, type RequestScope } from "./scope.ts";

/** How long a read waits for the cache to reach a requested revision (upstream: 3 s). */
const freshnessTimeoutMs = 3000;

/** GET of one object. */
export async function handleGet(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info } = scope;
  const object = await store.get(info.namespace, info.name);
  respondObjects(deps, scope, [object as unknown as JsonObject], undefined, true);
}

/** GET of a collection: from the watch cache, or from storage for continue and exact reads. */
export async function handleList(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { store, info, query } = scope;
  const predicate = buildPredicate(store, query);
  const limit = parseLimit(query.get("limit"));
  const continueText = query.get("continue") ?? "";
  const rv = parseResourceVersion(query.get("resourceVersion"));
  const match = query.get("resourceVersionMatch") ?? "";
  const definition = store.entry.definition;

  let items: JsonObject[];
  let revision: number;
  let next: string | undefined;
  let remaining: number | undefined;
  let texts: string[] | undefined;
  if (continueText !== "" || (match === "Exact" && rv !== undefined)) {
    const token =
      continueText !== "" ? decodeContinue(continueText) : { revision: rv ?? 0, start: "" };
    const page = await listFromStorage(
      deps,
      scope,
      predicate,
      token.revision,
      token.start,
      limit,
      continueText !== "",
    );
    ({ items, revision, next, remaining } = page);
  } else {
    if (rv === undefined) await withTimeout(deps.cache.waitUntilFresh());
    else if (rv > 0) await withTimeout(deps.cache.waitFor(rv));
    revision = deps.cache.revision;
    const cache = deps.cache.resource(segmentOf(definition));
    items = [];
    texts = [];
    let last: CachedObject | undefined;
    let matched = 0;
    let more = false;
    const namespace = definition.namespaced ? info.namespace : "";
    for (const object of cache.list(namespace)) {
      if (!predicate(object.object as unknown as KubeObject)) continue;
      if (limit > 0 && matched === limit) {
        more = true;
        break;
      }
      items.push(object.object);
      texts.push(object.json());
      last = object;
      matched++;
    }
    if (more && last !== undefined) {
      next = encodeContinue({ revision, start: `${last.key}\u0000` });
    }
  }
  const listMeta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = {
    resourceVersion: String(revision),
  };
  if (next !== undefined) listMeta.continue = next;
  if (remaining !== undefined && remaining > 0 && next !== undefined)
    listMeta.remainingItemCount = remaining;
  respondObjects(deps, scope, items, listMeta, false, texts);
}

async function listFromStorage(
  deps: HandlerDeps,
  scope: RequestScope,
  predicate: ObjectPredicate,
  revision: number,
  start: string,
  limit: number,
  isContinue: boolean,
): Promise<{ items: JsonObject[]; revision: number; next: string | undefined; remaining: number }> {
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
  const table = wantsTable(parseAccept(scope.req.headers.accept));
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
    writeJson(scope.res, 200, items[0], { warnings: scope.warnings });
    return;
  }
  const definition = scope.store.entry.definition;
  const head = JSON.stringify({
    kind: definition.listKind,
    apiVersion: apiVersionOfStore(scope.store),
    metadata: listMeta ?? {},
  });
  const parts = texts ?? items.map((item) => JSON.stringify(item));
  writeJson(scope.res, 200, `${head.slice(0, -1)},"items":[${parts.join(",")}]}`, {
    warnings: scope.warnings,
  });
}

async function withTimeout(promise: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expiredPromise = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          timeout("Too large resource version", [
            { reason: "ResourceVersionTooLarge", message: "Too large resource version" },
          ]),
        ),
      freshnessTimeoutMs,
    );
  });
  try {
    await Promise.race([promise, expiredPromise]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the request asks for a watch. */
export function isWatchRequest(query: URLSearchParams): boolean {
  return parseGoBool(query.get("watch")) === true;
}
