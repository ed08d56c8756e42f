/**
 * The ClusterQueue and LocalQueue status writes of the admission cycle. A status is written only
 * when it differs from the cached one, through the cycle's write queue (background, one write
 * per queue at a time), and paced per queue: a burst of writes at once, then one per period
 * with that period's changes in it (Kueue's queue reconcilers take Workload events after
 * `UpdatesBatchPeriod`, one second). A forced write (a queue, flavor or namespace changed) is
 * not paced.
 */
import { type ClusterQueue, type LocalQueue, setWorkloadCondition } from "../../api/index.ts";
import { type Client, isConflict, isNotFound, type ResourceRef } from "../../client/index.ts";
import { type Clock, type DeepReadonly, deepCopy, type Logger } from "../../util/index.ts";
import { withoutManagedFields } from "../write-body.ts";
import type { ActiveState } from "./queue-statuses.ts";
import type { WriteQueue } from "./write-queue.ts";

export interface QueueStatusWriterDeps {
  readonly client: Client;
  readonly clock: Clock;
  readonly writes: WriteQueue;
  /** Asks for another cycle: a write failed, or one a cycle waited on settled. */
  readonly wake: () => void;
  readonly logger?: Logger;
}

export interface QueueStatusWriterOptions {
  /** The pace once a queue's burst is spent: one write per period. @default 1000 */
  readonly batchMs?: number;
  /** Writes of one queue that go out at once. @default 10 */
  readonly burst?: number;
}

export interface QueueStatusWriter {
  /**
   * Writes the queue's status (`fields` and the `Active` condition) if it differs, now or when
   * its pace allows (`dueAt`). Returns the queue's id.
   */
  write(
    object: DeepReadonly<ClusterQueue | LocalQueue>,
    fields: Record<string, unknown>,
    active: ActiveState,
    resource: ResourceRef,
    now: Date,
    force: boolean,
  ): string;
  /** When the earliest held status is due (clock milliseconds). */
  dueAt(): number | undefined;
  /** Forgets held statuses of queues not in `ids` (deleted since). */
  retain(ids: readonly string[]): void;
}

export function newQueueStatusWriter(
  deps: QueueStatusWriterDeps,
  options: QueueStatusWriterOptions = {},
): QueueStatusWriter {
  const batchMs = Math.max(1, options.batchMs ?? 1000);
  const burst = Math.max(1, options.burst ?? 10);
  /** Each queue's write tokens (one comes back per period), by queue id. */
  const tokens = new Map<string, { tokens: number; at: number }>();
  /** When held statuses are due, by queue id. */
  const due = new Map<string, number>();
  /** Queues whose write was out when a cycle looked: its settling asks for another cycle. */
  const waiting = new Set<string>();

  /** Queue `id`'s tokens at `now`, with those earned since. */
  const bucketOf = (id: string, now: number): { tokens: number; at: number } => {
    const bucket = tokens.get(id) ?? { tokens: burst, at: now };
    const earned = Math.floor((now - bucket.at) / batchMs);
    if (earned > 0) {
      bucket.tokens = Math.min(burst, bucket.tokens + earned);
      bucket.at = bucket.tokens === burst ? now : bucket.at + earned * batchMs;
    }
    tokens.set(id, bucket);
    return bucket;
  };

  return {
    write(object, fields, active, resource, now, force) {
      const id = `${resource.resource}/${object.metadata.namespace ?? ""}/${object.metadata.name ?? ""}`;
      if (deps.writes.busy(id)) {
        // Looked at again once that write settles.
        due.delete(id);
        waiting.add(id);
        return id;
      }
      const bucket = force ? undefined : bucketOf(id, now.getTime());
      if (bucket !== undefined && bucket.tokens === 0) {
        // Paced: held until a token comes back, then compared and written as the status is by
        // then. Not compared now: under a stream of admissions most cycles end here.
        due.set(id, bucket.at + batchMs);
        return id;
      }
      const current = object.status as Record<string, unknown> | undefined;
      const conditions = setWorkloadCondition(
        current?.["conditions"] as never,
        {
          type: "Active",
          status: active.active ? "True" : "False",
          reason: active.reason,
          message: active.message,
        },
        now,
      );
      const desired = { ...current, ...fields, conditions };
      if (JSON.stringify(desired) === JSON.stringify(current)) {
        due.delete(id);
        return id;
      }
      if (bucket !== undefined) bucket.tokens--;
      due.delete(id);
      const next = { ...deepCopy(object), status: desired };
      deps.writes.enqueue(id, "background", async () => {
        try {
          await deps.client.updateStatus(resource, withoutManagedFields(next) as never);
        } catch (error: unknown) {
          if (!isConflict(error) && !isNotFound(error)) {
            deps.logger?.error("Cannot write queue status", { queue: id, error });
            await deps.clock.sleep(200).catch(() => undefined);
          }
          // Written again by the next cycle that finds it different.
          due.set(id, deps.clock.now().getTime());
          deps.wake();
        } finally {
          if (waiting.delete(id)) deps.wake();
        }
      });
      return id;
    },

    dueAt() {
      let earliest: number | undefined;
      for (const at of due.values()) if (earliest === undefined || at < earliest) earliest = at;
      return earliest;
    },

    retain(ids) {
      if (due.size === 0) return;
      const present = new Set(ids);
      for (const id of due.keys()) if (!present.has(id)) due.delete(id);
    },
  };
}
