import type { KubeObject } from "../../api/index.ts";
import type { Clock, Logger, Random } from "../../util/index.ts";
import type { Client, ListResult, ResourceRef } from "../client.ts";
import {
  fromStatus,
  isResourceExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
  TransportError,
} from "../errors.ts";
import type { Backoff } from "../internal/backoff.ts";

/** Where a reflector puts what it learns. */
export interface ReflectorSink<T extends KubeObject> {
  /** A complete list: the new content of the store. */
  replace(items: T[], resourceVersion: string): void;
  /** One change from the watch. */
  apply(type: "ADDED" | "MODIFIED" | "DELETED", object: T): void;
}

export interface ReflectorOptions {
  readonly client: Client;
  readonly resource: ResourceRef;
  readonly namespace: string | undefined;
  readonly labelSelector: string | undefined;
  readonly fieldSelector: string | undefined;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly backoff: Backoff;
  /** Watches last a random 1–2× this long (client-go: 5 min). */
  readonly minWatchTimeoutMs: number;
  /** Page size of consistent lists. */
  readonly pageSize: number;
}

/** client-go's "very short watch": one that ended in under a second without any event. */
const shortWatchMs = 1000;

/**
 * Keeps a sink in step with the server, as client-go's Reflector: list, then watch from the
 * list's resourceVersion with bookmarks and a randomized timeout, re-watching from the last seen
 * revision. A 410 (expired revision) or an ERROR event relists; connection failures and 429s
 * back off and re-watch; anything else relists after a backoff.
 */
export class Reflector<T extends KubeObject> {
  readonly #options: ReflectorOptions;
  #lastSyncResourceVersion = "";
  /** The last revision can no longer be served: the next list must be a consistent read. */
  #lastSyncUnavailable = false;

  constructor(options: ReflectorOptions) {
    this.#options = options;
  }

  /** The revision of the last list or event applied ("" before the first list). */
  get lastSyncResourceVersion(): string {
    return this.#lastSyncResourceVersion;
  }

  /** Lists and watches until `signal` aborts, backing off between rounds. */
  async run(signal: AbortSignal, sink: ReflectorSink<T>): Promise<void> {
    const { logger, backoff } = this.#options;
    while (!signal.aborted) {
      try {
        await this.#listAndWatch(signal, sink);
      } catch (error: unknown) {
        if (signal.aborted) break;
        logger.info("Failed to list and watch", {
          resource: this.#describe(),
          error,
        });
      }
      if (signal.aborted) break;
      await backoff.wait(signal);
    }
  }

  async #listAndWatch(signal: AbortSignal, sink: ReflectorSink<T>): Promise<void> {
    const list = await this.#list(signal);
    sink.replace(list.items, list.metadata.resourceVersion);
    this.#lastSyncResourceVersion = list.metadata.resourceVersion;
    this.#options.logger.v(2).info("Caches populated", {
      resource: this.#describe(),
      resourceVersion: this.#lastSyncResourceVersion,
      items: list.items.length,
    });
    await this.#watch(signal, sink);
  }

  /** client-go's `relistResourceVersion`: "0" at first, the last revision after, "" when it is gone. */
  #relistResourceVersion(): string {
    if (this.#lastSyncUnavailable) return "";
    return this.#lastSyncResourceVersion === "" ? "0" : this.#lastSyncResourceVersion;
  }

  async #list(signal: AbortSignal): Promise<ListResult<T>> {
    try {
      const list = await this.#listAt(this.#relistResourceVersion(), signal);
      this.#lastSyncUnavailable = false;
      return list;
    } catch (error: unknown) {
      if (!isResourceExpired(error) && !isTooLargeResourceVersion(error)) throw error;
      // The revision is gone (or the server has not reached it): read the latest state at once.
      this.#lastSyncUnavailable = true;
      const list = await this.#listAt("", signal);
      this.#lastSyncUnavailable = false;
      return list;
    }
  }

  /** A list at `resourceVersion`; consistent reads ("") are paged, falling back to one page. */
  async #listAt(resourceVersion: string, signal: AbortSignal): Promise<ListResult<T>> {
    const { client, resource, namespace, pageSize } = this.#options;
    const base = {
      signal,
      ...this.#selectors(),
      ...(resourceVersion === "" ? {} : { resourceVersion }),
    };
    if (resourceVersion !== "" || pageSize <= 0) return client.list<T>(resource, namespace, base);
    const first = await client.list<T>(resource, namespace, { ...base, limit: pageSize });
    const items = first.items;
    let token = first.metadata.continue;
    while (token !== undefined) {
      let page: ListResult<T>;
      try {
        page = await client.list<T>(resource, namespace, {
          ...base,
          limit: pageSize,
          continue: token,
        });
      } catch (error: unknown) {
        if (!isResourceExpired(error)) throw error;
        // The continue token expired between pages: list everything in one go instead.
        return client.list<T>(resource, namespace, base);
      }
      items.push(...page.items);
      token = page.metadata.continue;
    }
    return { items, metadata: { resourceVersion: first.metadata.resourceVersion } };
  }

  async #watch(signal: AbortSignal, sink: ReflectorSink<T>): Promise<void> {
    const { client, resource, namespace, clock, random, backoff, logger, minWatchTimeoutMs } =
      this.#options;
    while (!signal.aborted) {
      const started = clock.now().getTime();
      let events = 0;
      try {
        const stream = client.watch<T>(
          resource,
          namespace,
          {
            ...this.#selectors(),
            resourceVersion: this.#lastSyncResourceVersion,
            allowWatchBookmarks: true,
            timeoutSeconds: Math.floor((minWatchTimeoutMs / 1000) * (random.float() + 1)),
          },
          signal,
        );
        for await (const event of stream) {
          events++;
          switch (event.type) {
            case "ERROR":
              throw fromStatus(event.object);
            case "BOOKMARK":
              this.#lastSyncResourceVersion = event.object.metadata.resourceVersion;
              break;
            case "ADDED":
            case "MODIFIED":
            case "DELETED":
              sink.apply(event.type, event.object);
              this.#lastSyncResourceVersion = event.object.metadata.resourceVersion ?? "";
              break;
          }
        }
      } catch (error: unknown) {
        if (signal.aborted) return;
        if (error instanceof TransportError || isTooManyRequests(error)) {
          logger.v(4).info("Watch failed, backing off", { resource: this.#describe(), error });
          await backoff.wait(signal);
          continue;
        }
        // 410 Expired and everything else: relist (after the caller's backoff).
        logger.v(isResourceExpired(error) ? 4 : 0).info("Watch closed with an error", {
          resource: this.#describe(),
          error,
        });
        return;
      }
      if (events === 0 && clock.now().getTime() - started < shortWatchMs && !signal.aborted) {
        logger.info("Very short watch: the server closed it at once without any event", {
          resource: this.#describe(),
        });
        return;
      }
    }
  }

  #selectors(): { labelSelector?: string; fieldSelector?: string } {
    const { labelSelector, fieldSelector } = this.#options;
    return {
      ...(labelSelector === undefined ? {} : { labelSelector }),
      ...(fieldSelector === undefined ? {} : { fieldSelector }),
    };
  }

  #describe(): string {
    const { resource, namespace } = this.#options;
    const name =
      resource.group === "" ? resource.resource : `${resource.resource}.${resource.group}`;
    return namespace === undefined || namespace === "" ? name : `${namespace}/${name}`;
  }
}
