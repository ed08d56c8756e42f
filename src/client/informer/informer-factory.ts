import { setMaxListeners } from "node:events";
import type { KubeObject } from "../../api/index.ts";
import type { Client, ResourceRef } from "../client.ts";
import { type InformerOptions, newSharedInformer, type SharedInformer } from "./informer.ts";

/** What selects one shared informer besides its resource. */
export interface InformerScope {
  /** @default every namespace */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/** Options shared by every informer of a factory (clock, logger, backoff, resync period). */
export type InformerFactoryOptions = Omit<
  InformerOptions,
  "namespace" | "labelSelector" | "fieldSelector"
>;

/**
 * Hands out one shared informer per (resource, namespace, label selector, field selector), so
 * components in one process share a single list+watch per resource (client-go's
 * SharedInformerFactory).
 */
export interface InformerFactory {
  /** The informer for a resource and scope, created on first use. */
  forResource<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    scope?: InformerScope,
  ): SharedInformer<T>;
  /**
   * Starts every informer handed out so far, and any handed out later as soon as it is;
   * resolves once `signal` aborts and all of them have stopped. A second call is a TypeError.
   */
  start(signal: AbortSignal): Promise<void>;
  /** Resolves true once every informer handed out so far has synced; false if `signal` aborts. */
  waitForSync(signal: AbortSignal): Promise<boolean>;
  /**
   * Stops the informer for a resource and scope and forgets it (for a resource that is no
   * longer served, such as a deleted CRD's). Its handlers get no more events, `waitForSync` no
   * longer waits for it, and a later `forResource` hands out a new one. The informer is shared:
   * every holder sees it stop. Resolves once it has stopped; a no-op for one never handed out.
   */
  stop(resource: ResourceRef, scope?: InformerScope): Promise<void>;
}

/** One informer of a factory and what stops it on its own. */
interface Entry {
  readonly informer: SharedInformer<KubeObject>;
  readonly stop: AbortController;
  /** Settles once the informer has stopped; undefined until it runs. */
  running?: Promise<void>;
}

function keyOf(resource: ResourceRef, scope: InformerScope): string {
  return JSON.stringify([
    resource.group,
    resource.version,
    resource.resource,
    scope.namespace ?? "",
    scope.labelSelector ?? "",
    scope.fieldSelector ?? "",
  ]);
}

export function newInformerFactory(
  client: Client,
  options: InformerFactoryOptions = {},
): InformerFactory {
  const informers = new Map<string, Entry>();
  const running: Promise<void>[] = [];
  let startSignal: AbortSignal | undefined;

  const run = (entry: Entry, signal: AbortSignal): void => {
    entry.running = entry.informer.start(AbortSignal.any([signal, entry.stop.signal]));
    running.push(entry.running);
  };

  return {
    forResource<T extends KubeObject = KubeObject>(
      resource: ResourceRef,
      scope: InformerScope = {},
    ): SharedInformer<T> {
      const key = keyOf(resource, scope);
      let entry = informers.get(key);
      if (entry === undefined) {
        entry = {
          informer: newSharedInformer<KubeObject>(client, resource, { ...options, ...scope }),
          stop: new AbortController(),
        };
        informers.set(key, entry);
        if (startSignal !== undefined && !startSignal.aborted) run(entry, startSignal);
      }
      return entry.informer as unknown as SharedInformer<T>;
    },

    async start(signal) {
      if (startSignal !== undefined) {
        throw new TypeError("Cannot start the informer factory: it is already running");
      }
      // One listener on the caller's signal; the many informers listen on ours instead.
      const stop = new AbortController();
      setMaxListeners(0, stop.signal);
      if (signal.aborted) stop.abort(signal.reason);
      else signal.addEventListener("abort", () => stop.abort(signal.reason), { once: true });
      startSignal = stop.signal;
      for (const entry of informers.values()) run(entry, stop.signal);
      if (!signal.aborted) {
        await new Promise<void>((resolve) =>
          signal.addEventListener("abort", () => resolve(), { once: true }),
        );
      }
      // Informers may have been added while we waited: settle all of them.
      let settled = 0;
      while (settled < running.length) {
        await Promise.all(running.slice(settled));
        settled = running.length;
      }
    },

    async waitForSync(signal) {
      const results = await Promise.all(
        [...informers.values()].map((entry) => entry.informer.waitForSync(signal)),
      );
      return results.every(Boolean);
    },

    async stop(resource, scope = {}) {
      const key = keyOf(resource, scope);
      const entry = informers.get(key);
      if (entry === undefined) return;
      informers.delete(key);
      entry.stop.abort();
      await entry.running;
    },
  };
}
