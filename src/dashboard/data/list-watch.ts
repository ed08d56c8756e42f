/**
 * client-go's reflector for the browser: list a resource into its store, then watch from the
 * list's resourceVersion; when a watch ends, resume from the last resourceVersion seen; when the
 * server answers 410 Gone (the version was compacted), list again. Failures are retried with a
 * capped backoff and shown on the store's state.
 */
import { type ApiClient, ApiRequestError } from "./api-client.ts";
import type { ResourceStore, StoredObject } from "./resource-store.ts";
import { watchEvents } from "./watch-stream.ts";

export interface ListWatchOptions {
  /** The collection path, e.g. `/api/v1/pods` or `/apis/policy/v1/poddisruptionbudgets`. */
  readonly path: string;
  /** Waits `ms` or until `signal` aborts. @default setTimeout */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long the server may keep one watch open. @default 300 */
  readonly timeoutSeconds?: number;
}

interface ListBody<T> {
  readonly metadata?: { readonly resourceVersion?: string };
  readonly items?: readonly T[];
}

/** How one watch ended: the server closed it, or the resume point is gone. */
type WatchEnd = "closed" | "gone";

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** Backoff after `failures` failures in a row: 0.5 s doubling to 8 s. */
export function backoffMs(failures: number): number {
  return Math.min(8_000, 500 * 2 ** Math.max(0, failures - 1));
}

/**
 * Keeps `store` in sync until `signal` aborts; resolves then. Resumes from the store's
 * resourceVersion when it has one (a store kept from an earlier run).
 */
export async function runListWatch<T extends StoredObject>(
  api: ApiClient,
  store: ResourceStore<T>,
  options: ListWatchOptions,
  signal: AbortSignal,
): Promise<void> {
  const sleep = options.sleep ?? defaultSleep;
  let failures = 0;
  while (!signal.aborted) {
    try {
      if (store.resourceVersion === undefined) {
        const list = await api.getJson<ListBody<T>>(options.path, signal);
        store.replace(list.items ?? [], list.metadata?.resourceVersion ?? "");
      }
      const end = await watchOnce(api, store, options, signal);
      if (end === "gone") store.expire();
      failures = 0;
    } catch (error: unknown) {
      if (signal.aborted) break;
      if (error instanceof ApiRequestError && error.status === 410) {
        store.expire();
        continue;
      }
      failures++;
      store.setState({
        kind: "failing",
        message: error instanceof Error ? error.message : String(error),
      });
      await sleep(backoffMs(failures), signal);
    }
  }
}

async function watchOnce<T extends StoredObject>(
  api: ApiClient,
  store: ResourceStore<T>,
  options: ListWatchOptions,
  signal: AbortSignal,
): Promise<WatchEnd> {
  const query = new URLSearchParams({
    watch: "1",
    resourceVersion: store.resourceVersion ?? "",
    allowWatchBookmarks: "true",
    timeoutSeconds: String(options.timeoutSeconds ?? 300),
  });
  const response = await api.get(`${options.path}?${query}`, signal);
  if (response.body === null) return "closed";
  store.setState({ kind: "synced" });
  for await (const event of watchEvents<T>(response.body)) {
    switch (event.type) {
      case "ADDED":
      case "MODIFIED":
        store.upsert(event.object);
        break;
      case "DELETED":
        store.remove(event.object);
        break;
      case "BOOKMARK":
        store.bookmark(event.object.metadata.resourceVersion ?? store.resourceVersion ?? "");
        break;
      case "ERROR": {
        const status = event.object as unknown as { code?: number; message?: string };
        if (status.code === 410) return "gone";
        throw new ApiRequestError(status.code ?? 500, status.message ?? "watch failed");
      }
    }
  }
  return "closed";
}
