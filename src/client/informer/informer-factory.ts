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
}

export function newInformerFactory(
  client: Client,
  options: InformerFactoryOptions = {},
): InformerFactory {
  const informers = new Map<string, SharedInformer<KubeObject>>();
  const running: Promise<void>[] = [];
  let startSignal: AbortSignal | undefined;

  const run = (informer: SharedInformer<KubeObject>, signal: AbortSignal): void => {
    running.push(informer.start(signal));
  };

  return {
    forResource<T extends KubeObject = KubeObject>(
      resource: ResourceRef,
      scope: InformerScope = {},
    ): SharedInformer<T> {
      const key = JSON.stringify([
        resource.group,
        resource.version,
        resource.resource,
        scope.namespace ?? "",
        scope.labelSelector ?? "",
        scope.fieldSelector ?? "",
      ]);
      let informer = informers.get(key);
      if (informer === undefined) {
        informer = newSharedInformer<KubeObject>(client, resource, { ...options, ...scope });
        informers.set(key, informer);
        if (startSignal !== undefined && !startSignal.aborted) run(informer, startSignal);
      }
      return informer as unknown as SharedInformer<T>;
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
      for (const informer of informers.values()) run(informer, stop.signal);
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
        [...informers.values()].map((informer) => informer.waitForSync(signal)),
      );
      return results.every(Boolean);
    },
  };
}
