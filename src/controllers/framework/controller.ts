/**
 * The controller runner: informer events become keys in a rate-limited work queue, and N
 * workers call `reconcile(key)` (controller-runtime's Reconciler, client-go's worker loop).
 */
import { ApiError, type KubeObject } from "../../api/index.ts";
import {
  DeletedFinalStateUnknown,
  defaultControllerRateLimiter,
  isConflict,
  keyOf,
  newRateLimitingQueue,
  type RateLimiter,
  type RateLimitingQueue,
  type SharedInformer,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, errorMessage, type Logger } from "../../util/index.ts";

/** What a reconcile asks for besides success. */
export interface ReconcileResult {
  /** Reconcile this key again after this many ms (a timer, not an error: no backoff). */
  readonly requeueAfterMs?: number;
}

/** Converged: nothing more to do until an event arrives. */
export const done: ReconcileResult = Object.freeze({});

/** Look again after `ms` milliseconds. */
export function requeueAfter(ms: number): ReconcileResult {
  return { requeueAfterMs: Math.max(0, Math.ceil(ms)) };
}

/** The earlier of two results' requeue times (`undefined` when neither asks). */
export function earliest(a: ReconcileResult, b: ReconcileResult): ReconcileResult {
  if (a.requeueAfterMs === undefined) return b;
  if (b.requeueAfterMs === undefined) return a;
  return a.requeueAfterMs <= b.requeueAfterMs ? a : b;
}

/**
 * A failure retrying cannot fix (an invalid selector, a template without labels): recorded and
 * logged, and the key is not retried until an event brings it back (controller-runtime's
 * TerminalError).
 */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerminalError";
  }
}

/** Wraps `error` so the runner records it and does not retry. */
export function terminal(error: unknown): TerminalError {
  if (error instanceof TerminalError) return error;
  return new TerminalError(errorMessage(error), {
    cause: error,
  });
}

/** One informer notification, as `mapToKeys` sees it. */
export type InformerEvent<T extends KubeObject> =
  | { readonly type: "add"; readonly object: DeepReadonly<T> }
  | {
      readonly type: "update";
      readonly object: DeepReadonly<T>;
      readonly oldObject: DeepReadonly<T>;
    }
  /** `tombstone`: the deletion was only noticed by a relist; `object` is the last known state. */
  | { readonly type: "delete"; readonly object: DeepReadonly<T>; readonly tombstone: boolean };

/**
 * Maps an event to the keys to reconcile. Runs synchronously on the informer's event loop turn:
 * keep it short. It may record observations (expectations) but must not write to the API.
 */
export type MapToKeys<T extends KubeObject> = (event: InformerEvent<T>) => readonly string[];

/** A secondary informer and how its events name primary keys. */
export interface Watch<T extends KubeObject = KubeObject> {
  readonly informer: SharedInformer<T>;
  readonly mapToKeys: MapToKeys<T>;
}

/** Builds a `Watch` keeping the informer's object type (avoids `any` at call sites). */
export function watch<T extends KubeObject>(
  informer: SharedInformer<T>,
  mapToKeys: MapToKeys<T>,
): Watch {
  return { informer, mapToKeys } as unknown as Watch;
}

export interface ControllerDefinition<P extends KubeObject> {
  /** The controller's name in logs ("replicaset"). */
  readonly name: string;
  /** The kind this controller reconciles; its events enqueue the object's own key by default. */
  readonly primary: SharedInformer<P>;
  /** Overrides how primary events become keys. @default the object's `namespace/name` */
  readonly primaryToKeys?: MapToKeys<P>;
  readonly secondary?: readonly Watch[];
  /**
   * Converges one key. Level-triggered: reads caches, writes only what differs, is safe to run
   * any number of times. A thrown error requeues the key with backoff; a `TerminalError` is
   * logged and not retried.
   */
  readonly reconcile: (key: string) => Promise<ReconcileResult>;
  /** Called with a terminal error, e.g. to record a Warning event. */
  readonly onTerminal?: (key: string, error: TerminalError) => void;
  /** Concurrent workers. @default 1 */
  readonly workers?: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** @default defaultControllerRateLimiter(clock): 5 ms doubling to 1000 s, 10 qps overall */
  readonly rateLimiter?: RateLimiter<string>;
}

/** A running unit of reconciliation. */
export interface Controller {
  readonly name: string;
  /** Queues `key` for reconciliation now. */
  enqueue(key: string): void;
  /** Queues `key` after `ms` milliseconds. */
  enqueueAfter(key: string, ms: number): void;
  /** True once every informer it reads has synced and the workers run. */
  hasSynced(): boolean;
  /**
   * Registers handlers, waits for the informers to sync (they are started by their factory),
   * then runs the workers until `signal` aborts. Resolves after the workers have stopped.
   */
  start(signal: AbortSignal): Promise<void>;
}

/** Turns informer callbacks into `InformerEvent`s. */
function handlerFor<T extends KubeObject>(
  mapToKeys: MapToKeys<T>,
  add: (keys: readonly string[]) => void,
) {
  return {
    onAdd: (object: DeepReadonly<T>) => add(mapToKeys({ type: "add", object })),
    onUpdate: (oldObject: DeepReadonly<T>, object: DeepReadonly<T>) =>
      add(mapToKeys({ type: "update", object, oldObject })),
    onDelete: (deleted: DeepReadonly<T> | DeletedFinalStateUnknown<T>) => {
      const tombstone = deleted instanceof DeletedFinalStateUnknown;
      const object = tombstone ? deleted.obj : deleted;
      add(mapToKeys({ type: "delete", object, tombstone }));
    },
  };
}

/** The default primary mapping: the object's own key. */
function ownKey<T extends KubeObject>(event: InformerEvent<T>): readonly string[] {
  return [keyOf(event.object as DeepReadonly<KubeObject>)];
}

/** How a worker pool processes keys. */
export interface WorkerPoolOptions {
  readonly queue: RateLimitingQueue<string>;
  readonly reconcile: (key: string) => Promise<ReconcileResult>;
  readonly onTerminal?: (key: string, error: TerminalError) => void;
  readonly workers: number;
  readonly logger: Logger;
}

/** The work queue a controller uses: rate-limited, delaying, de-duplicating. */
export function newControllerQueue(
  clock: Clock,
  rateLimiter?: RateLimiter<string>,
): RateLimitingQueue<string> {
  return newRateLimitingQueue<string>({
    clock,
    rateLimiter: rateLimiter ?? defaultControllerRateLimiter<string>(clock),
  });
}

/**
 * Runs `workers` loops taking keys from the queue until it shuts down: success forgets the
 * key's backoff (and re-adds it after `requeueAfterMs` when asked), an error re-adds it
 * rate-limited, a TerminalError is logged and dropped. Resolves when every loop has ended.
 */
export async function runWorkers(options: WorkerPoolOptions): Promise<void> {
  const { queue, logger } = options;
  const processOne = async (key: string): Promise<void> => {
    try {
      const result = await options.reconcile(key);
      queue.forget(key);
      if (result.requeueAfterMs !== undefined) queue.addAfter(key, result.requeueAfterMs);
    } catch (error: unknown) {
      if (error instanceof TerminalError) {
        queue.forget(key);
        logger.error("Reconcile failed permanently", { key, error });
        options.onTerminal?.(key, error);
        return;
      }
      if (isConflict(error)) {
        logger.v(2).info("Reconcile conflicted, retrying", { key, error: describe(error) });
      } else {
        logger.error("Reconcile failed, retrying", { key, error: describe(error) });
      }
      queue.addRateLimited(key);
    } finally {
      queue.done(key);
    }
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      const next = await queue.get();
      if (next.shutdown) return;
      await processOne(next.item);
    }
  };
  await Promise.all(Array.from({ length: options.workers }, () => worker()));
}

/** Builds a controller from its definition; nothing runs until `start`. */
export function defineController<P extends KubeObject>(
  definition: ControllerDefinition<P>,
): Controller {
  const { clock, name } = definition;
  const logger = definition.logger.with({ controller: name });
  const queue = newControllerQueue(clock, definition.rateLimiter);
  let synced = false;
  const add = (keys: readonly string[]): void => {
    for (const key of keys) queue.add(key);
  };

  return {
    name,
    enqueue: (key) => queue.add(key),
    enqueueAfter: (key, ms) => queue.addAfter(key, ms),
    hasSynced: () => synced,
    async start(signal) {
      const informers: SharedInformer<KubeObject>[] = [
        definition.primary as unknown as SharedInformer<KubeObject>,
      ];
      const registrations = [
        definition.primary.addEventHandler(handlerFor(definition.primaryToKeys ?? ownKey, add)),
      ];
      for (const source of definition.secondary ?? []) {
        informers.push(source.informer);
        registrations.push(source.informer.addEventHandler(handlerFor(source.mapToKeys, add)));
      }
      const stop = (): void => queue.shutDown();
      signal.addEventListener("abort", stop, { once: true });
      try {
        const ok = await Promise.all(informers.map((i) => i.waitForSync(signal)));
        if (!ok.every(Boolean) || signal.aborted) return;
        synced = true;
        const workers = definition.workers ?? 1;
        logger.v(2).info("Controller synced, starting workers", { workers });
        await runWorkers({
          queue,
          reconcile: definition.reconcile,
          ...(definition.onTerminal === undefined ? {} : { onTerminal: definition.onTerminal }),
          workers,
          logger,
        });
      } finally {
        for (const registration of registrations) registration.remove();
        signal.removeEventListener("abort", stop);
        queue.shutDown();
      }
    },
  };
}

/** A loggable view of an error: ApiErrors with their code and reason. */
export function describe(error: unknown): unknown {
  if (error instanceof ApiError) {
    return { code: error.code, reason: error.reason, message: error.message };
  }
  return error;
}
