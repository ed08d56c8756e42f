import { type KubeObject, withoutManagedFields } from "../../api/index.ts";
import {
  type Clock,
  type DeepReadonly,
  deepFreeze,
  discardLogger,
  type Logger,
  type Random,
  systemClock,
  systemRandom,
} from "../../util/index.ts";
import type { Client, ResourceRef } from "../client.ts";
import { Backoff, type BackoffOptions } from "../internal/backoff.ts";
import { type Indexer, type Indexers, keyOf, Store } from "./indexer.ts";
import { type Lister, newLister } from "./lister.ts";
import { Reflector, type ReflectorSink } from "./reflector.ts";
import { DeletedFinalStateUnknown } from "./tombstone.ts";

/**
 * Callbacks for cache changes. They run synchronously on the event loop, after the cache has
 * been updated, one notification at a time in the order the informer saw them; keep them short
 * (map the object to a key and enqueue it). A handler that throws is logged and skipped.
 */
export interface EventHandler<T extends KubeObject> {
  /** A new object; `isInInitialList` for the first list and a late handler's catch-up. */
  onAdd?(object: DeepReadonly<T>, isInInitialList: boolean): void;
  /** A changed object, or the same object twice on a periodic resync. */
  onUpdate?(oldObject: DeepReadonly<T>, newObject: DeepReadonly<T>): void;
  /** A deleted object, or a tombstone when the deletion was only noticed by relisting. */
  onDelete?(object: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void;
}

/** What `addEventHandler` returns. */
export interface HandlerRegistration {
  /** True once the informer has synced and this handler has received the initial adds. */
  hasSynced(): boolean;
  /** Stops notifications to the handler. Idempotent. */
  remove(): void;
}

/** One list+watch of a resource shared by every handler and lister (client-go SharedIndexInformer). */
export interface SharedInformer<T extends KubeObject> {
  readonly resource: ResourceRef;
  /**
   * Registers a handler, before or after `start`. A handler added once objects are cached gets a
   * synthetic `onAdd` for each of them (on a microtask, before any later change), so every
   * handler sees the whole state.
   */
  addEventHandler(handler: EventHandler<T>): HandlerRegistration;
  /** Adds index functions (the `namespace` index always exists). */
  addIndexers(indexers: Indexers<T>): void;
  readonly indexer: Indexer<T>;
  readonly lister: Lister<T>;
  /** True once the first complete list is in the cache and its notifications went out. */
  hasSynced(): boolean;
  /** Resolves true once synced, or false if `signal` aborts first. */
  waitForSync(signal: AbortSignal): Promise<boolean>;
  /** The revision of the last list or event applied. */
  lastSyncResourceVersion(): string;
  /** Lists and watches until `signal` aborts; resolves only then. A second call is a TypeError. */
  start(signal: AbortSignal): Promise<void>;
}

export interface InformerOptions {
  /** Watch one namespace. @default every namespace */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Every this many ms, handlers get `onUpdate(o, o)` for each cached object. @default 0 (never) */
  readonly resyncPeriodMs?: number;
  /** @default systemClock */
  readonly clock?: Clock;
  /** Jitter of backoffs and watch timeouts. @default systemRandom */
  readonly random?: Random;
  /** @default discardLogger */
  readonly logger?: Logger;
  /** Retry delays after failures. @default 800 ms doubling to 30 s, as client-go */
  readonly backoff?: BackoffOptions;
  /** Watches end after a random 1–2× this. @default 300000 (5 min, as client-go) */
  readonly minWatchTimeoutMs?: number;
  /** Page size of consistent relists. @default 500 */
  readonly pageSize?: number;
  /**
   * Applied to each listed or watched object before it is cached and handed to handlers, as
   * client-go's `TransformFunc` (see `stripManagedFields`); it may change the object, which is
   * the informer's own. @default none
   */
  readonly transform?: (object: KubeObject) => KubeObject;
}

/**
 * A transform that drops `metadata.managedFields`, which kube-scheduler and
 * kube-controller-manager strip from their informers' objects to save memory (client-go's
 * `TransformStripManagedFields`). An update sent without them keeps the stored ones. The object
 * comes back as a shallow copy rather than with the field deleted: a `delete` would leave every
 * cached object's metadata a slow dictionary-mode object in V8.
 */
export function stripManagedFields(object: KubeObject): KubeObject {
  return withoutManagedFields(object);
}

interface Listener<T extends KubeObject> {
  readonly handler: EventHandler<T>;
  /** Receives live notifications (set once its initial adds went out). */
  active: boolean;
  removed: boolean;
}

/** A shared informer for one resource (optionally one namespace and selectors). */
export function newSharedInformer<T extends KubeObject>(
  client: Client,
  resource: ResourceRef,
  options: InformerOptions = {},
): SharedInformer<T> {
  const clock = options.clock ?? systemClock;
  const logger = (options.logger ?? discardLogger).with({ resource: resource.resource });
  const store = new Store<T>();
  const transform = options.transform;
  /** An object as the cache keeps it: transformed, then frozen. */
  const cacheable = (item: T): DeepReadonly<T> =>
    deepFreeze(transform === undefined ? item : (transform(item) as T)) as DeepReadonly<T>;
  const listeners: Listener<T>[] = [];
  const syncWaiters = new Set<() => void>();
  let synced = false;
  let started = false;
  const reflector = new Reflector<T>({
    client,
    resource,
    namespace: options.namespace,
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
    clock,
    random: options.random ?? systemRandom,
    logger,
    backoff: new Backoff(clock, options.random ?? systemRandom, options.backoff),
    minWatchTimeoutMs: options.minWatchTimeoutMs ?? 300_000,
    pageSize: options.pageSize ?? 500,
  });

  const call = (listener: Listener<T>, notify: (handler: EventHandler<T>) => void): void => {
    if (listener.removed) return;
    try {
      notify(listener.handler);
    } catch (error: unknown) {
      logger.error("Event handler failed", { error });
    }
  };
  const distribute = (notify: (handler: EventHandler<T>) => void): void => {
    for (const listener of [...listeners]) if (listener.active) call(listener, notify);
  };

  const sink: ReflectorSink<T> = {
    replace(items) {
      const frozen = items.map(cacheable);
      const previous = new Map(store.listKeys().map((key) => [key, store.get(key)]));
      store.replace(frozen);
      const initial = !synced;
      for (const object of frozen) {
        const key = keyOf(object);
        const old = previous.get(key);
        previous.delete(key);
        if (old === undefined) distribute((h) => h.onAdd?.(object, initial));
        else if (old.metadata.resourceVersion !== object.metadata.resourceVersion) {
          distribute((h) => h.onUpdate?.(old, object));
        }
      }
      // Whatever the list no longer has was deleted while we were not watching.
      for (const [key, old] of previous) {
        if (old !== undefined) {
          distribute((h) => h.onDelete?.(new DeletedFinalStateUnknown(key, old)));
        }
      }
      if (!synced) {
        synced = true;
        for (const resolve of syncWaiters) resolve();
        syncWaiters.clear();
      }
    },
    apply(type, item) {
      const object = cacheable(item);
      if (type === "DELETED") {
        store.delete(keyOf(object));
        distribute((h) => h.onDelete?.(object));
        return;
      }
      const old = store.upsert(object);
      if (old === undefined) distribute((h) => h.onAdd?.(object, false));
      else distribute((h) => h.onUpdate?.(old, object));
    },
  };

  const resyncLoop = async (signal: AbortSignal, periodMs: number): Promise<void> => {
    while (!signal.aborted) {
      try {
        await clock.sleep(periodMs, signal);
      } catch (error: unknown) {
        if (signal.aborted) return;
        throw error;
      }
      if (!synced) continue;
      for (const object of store.list()) distribute((h) => h.onUpdate?.(object, object));
    }
  };

  return {
    resource,
    indexer: store,
    lister: newLister(store),
    addIndexers: (indexers) => store.addIndexers(indexers),
    hasSynced: () => synced,
    lastSyncResourceVersion: () => reflector.lastSyncResourceVersion,

    addEventHandler(handler) {
      const listener: Listener<T> = { handler, active: false, removed: false };
      listeners.push(listener);
      // Catch up on a microtask: the snapshot and the switch to live notifications happen in
      // one synchronous step, so nothing is missed or delivered twice.
      queueMicrotask(() => {
        if (listener.removed) return;
        for (const object of store.list()) call(listener, (h) => h.onAdd?.(object, true));
        listener.active = true;
      });
      return {
        hasSynced: () => synced && listener.active,
        remove() {
          listener.removed = true;
          const index = listeners.indexOf(listener);
          if (index >= 0) listeners.splice(index, 1);
        },
      };
    },

    waitForSync(signal) {
      if (synced) return Promise.resolve(true);
      if (signal.aborted) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const onSynced = (): void => {
          signal.removeEventListener("abort", onAbort);
          resolve(true);
        };
        const onAbort = (): void => {
          syncWaiters.delete(onSynced);
          resolve(false);
        };
        syncWaiters.add(onSynced);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },

    async start(signal) {
      if (started) {
        throw new TypeError(
          `Cannot start the ${resource.resource} informer: it is already running`,
        );
      }
      started = true;
      const periodMs = options.resyncPeriodMs ?? 0;
      await Promise.all([
        reflector.run(signal, sink),
        periodMs > 0 ? resyncLoop(signal, periodMs) : Promise.resolve(),
      ]);
    },
  };
}
