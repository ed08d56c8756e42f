/**
 * Keeps each PodGroup's status current, as the scheduler (its field manager) sees it:
 * - `conditions[PodGroupScheduled]` from the last group cycle (True `Scheduled`; False
 *   `Unschedulable` with the group's message; Unknown `WaitingForPreemption` while victims go),
 *   or False `Timeout` when fewer than `minCount` members have appeared for longer than the
 *   timeout. A True condition never goes back to False or Unknown (extra members failing later
 *   do not undo the gang's placement), as upstream.
 * - `scheduledPods`: the members bound to nodes, following bindings and deletions.
 * Writes are batched: groups are marked dirty and flushed together after a short window, one
 * status patch per group per flush, and none when nothing changed.
 */
import type { Condition, PodGroup, PodGroupStatus } from "../../api/index.ts";
import { type Client, isNotFound, podGroupsResource } from "../../client/index.ts";
import { type Clock, type DeepReadonly, type Logger, rfc3339 } from "../../util/index.ts";
import type { ConcurrencyLimit } from "../concurrency-limit.ts";
import { formatGoDuration, type GroupRef, minCountOf } from "../framework/index.ts";
import type { PodGroupManager } from "./pod-group-manager.ts";

export const podGroupScheduledType = "PodGroupScheduled";
export const reasonScheduled = "Scheduled";
export const reasonUnschedulable = "Unschedulable";
export const reasonSchedulerError = "SchedulerError";
export const reasonTimeout = "Timeout";
export const reasonWaitingForPreemption = "WaitingForPreemption";

/** What a cycle (or the timeout) says about a group. */
export interface GroupCondition {
  readonly status: "True" | "False" | "Unknown";
  readonly reason: string;
  readonly message: string;
}

/** `minCount (3) pods did not appear within 5m0s: 2 present` (gantry's Timeout message). */
export function timeoutMessage(minCount: number, present: number, timeoutMs: number): string {
  return `minCount (${minCount}) pods did not appear within ${formatGoDuration(timeoutMs)}: ${present} present`;
}

/**
 * The status the PodGroup should have, or undefined when `current` already says it. The
 * condition's transition time moves only when its status changes; True is never replaced by
 * anything else.
 */
export function computePodGroupStatus(
  current: DeepReadonly<PodGroupStatus> | undefined,
  condition: GroupCondition | undefined,
  scheduledPods: number,
  generation: number | undefined,
  now: Date,
): PodGroupStatus | undefined {
  const conditions = (current?.conditions ?? []).map((c) => ({ ...c }) as Condition);
  let changed = (current?.scheduledPods ?? 0) !== scheduledPods;
  if (condition !== undefined) {
    const at = conditions.findIndex((c) => c.type === podGroupScheduledType);
    const existing = conditions[at];
    const regress = existing?.status === "True" && condition.status !== "True";
    if (
      !regress &&
      (existing === undefined ||
        existing.status !== condition.status ||
        existing.reason !== condition.reason ||
        existing.message !== condition.message ||
        (generation !== undefined && existing.observedGeneration !== generation))
    ) {
      const next: Condition = {
        type: podGroupScheduledType,
        status: condition.status,
        reason: condition.reason,
        message: condition.message,
        lastTransitionTime:
          existing !== undefined && existing.status === condition.status
            ? existing.lastTransitionTime
            : rfc3339(now),
        ...(generation === undefined ? {} : { observedGeneration: generation }),
      };
      if (at >= 0) conditions[at] = next;
      else conditions.push(next);
      changed = true;
    }
  }
  if (!changed) return undefined;
  return { scheduledPods, conditions };
}

export interface PodGroupStatusWriterDeps {
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly apiCalls: ConcurrencyLimit;
  readonly manager: PodGroupManager;
  readonly podGroup: (namespace: string, name: string) => DeepReadonly<PodGroup> | undefined;
  /** How long a gang may keep assembling before its PodGroup says Timeout. */
  readonly timeoutMs: number;
  /** How long dirty groups collect before a flush. @default 50 */
  readonly batchMs?: number;
}

type PodGroupRef = Extract<GroupRef, { kind: "podGroup" }>;

export class PodGroupStatusWriter {
  readonly #deps: PodGroupStatusWriterDeps;
  readonly #conditions = new Map<string, GroupCondition>();
  readonly #dirty = new Map<string, PodGroupRef>();
  /** Arrival deadlines of gangs still below minCount: key → epoch ms. */
  readonly #deadlines = new Map<string, { readonly ref: PodGroupRef; readonly at: number }>();
  /** The last status written per group (JSON), so a stale informer copy causes no rewrite. */
  readonly #written = new Map<string, string>();
  #wake: (() => void) | undefined;

  constructor(deps: PodGroupStatusWriterDeps) {
    this.#deps = deps;
  }

  /** A group cycle ended with `condition` (only PodGroup objects have a status). */
  recordCycle(ref: GroupRef, condition: GroupCondition): void {
    if (ref.kind !== "podGroup") return;
    // A gang once scheduled stays so: a later failure of extra members does not undo it.
    if (this.#conditions.get(ref.key)?.status === "True" && condition.status !== "True") return;
    this.#conditions.set(ref.key, condition);
    this.#markDirty(ref);
  }

  /** A member appeared, was bound or left: recount, and watch the gang's arrival deadline. */
  membersChanged(ref: GroupRef): void {
    if (ref.kind !== "podGroup") return;
    const manager = this.#deps.manager;
    const resolved = manager.resolve(ref);
    const firstSeen = manager.firstSeen(ref.key);
    if (
      resolved.ok &&
      firstSeen !== undefined &&
      manager.memberCount(ref.key) < minCountOf(resolved.policy)
    ) {
      if (!this.#deadlines.has(ref.key)) {
        this.#deadlines.set(ref.key, { ref, at: firstSeen + this.#deps.timeoutMs });
        this.#wake?.();
      }
    } else {
      this.#deadlines.delete(ref.key);
    }
    if (manager.memberCount(ref.key) === 0) {
      this.#conditions.delete(ref.key);
      this.#written.delete(ref.key);
      this.#deadlines.delete(ref.key);
    }
    this.#markDirty(ref);
  }

  #markDirty(ref: PodGroupRef): void {
    this.#dirty.set(ref.key, ref);
    this.#wake?.();
  }

  /** Flushes dirty groups and fires deadlines until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const batchMs = this.#deps.batchMs ?? 50;
    while (!signal.aborted) {
      await this.#waitForWork(signal);
      if (signal.aborted) return;
      if (this.#dirty.size > 0) await this.#sleep(batchMs, signal);
      await this.flush();
    }
  }

  /** Writes every dirty group's status now (and expires due deadlines first). */
  async flush(): Promise<void> {
    const now = this.#deps.clock.now();
    this.#expireDeadlines(now.getTime());
    const refs = [...this.#dirty.values()];
    this.#dirty.clear();
    await Promise.all(refs.map((ref) => this.#write(ref, now)));
  }

  #expireDeadlines(now: number): void {
    const manager = this.#deps.manager;
    for (const [key, { ref, at }] of this.#deadlines) {
      if (at > now) continue;
      this.#deadlines.delete(key);
      const resolved = manager.resolve(ref);
      if (!resolved.ok) continue;
      const minCount = minCountOf(resolved.policy);
      const present = manager.memberCount(key);
      if (present >= minCount) continue;
      this.#conditions.set(key, {
        status: "False",
        reason: reasonTimeout,
        message: timeoutMessage(minCount, present, this.#deps.timeoutMs),
      });
      this.#dirty.set(key, ref);
    }
  }

  async #write(ref: PodGroupRef, now: Date): Promise<void> {
    const deps = this.#deps;
    const podGroup = deps.podGroup(ref.namespace, ref.podGroupName);
    if (podGroup === undefined || deps.apiCalls.closed) return;
    const next = computePodGroupStatus(
      podGroup.status,
      this.#conditions.get(ref.key),
      deps.manager.counts(ref.key).bound,
      podGroup.metadata.generation,
      now,
    );
    if (next === undefined) return;
    const json = JSON.stringify(next);
    if (this.#written.get(ref.key) === json) return;
    this.#written.set(ref.key, json);
    try {
      await deps.apiCalls.run(() =>
        deps.client.patch(
          podGroupsResource,
          ref.namespace,
          ref.podGroupName,
          "merge",
          { status: next },
          { subresource: "status" },
        ),
      );
    } catch (error: unknown) {
      this.#written.delete(ref.key);
      if (deps.apiCalls.closed || isNotFound(error)) return;
      deps.logger.error("Failed to update PodGroup status", {
        podGroup: `${ref.namespace}/${ref.podGroupName}`,
        error,
      });
    }
  }

  async #waitForWork(signal: AbortSignal): Promise<void> {
    if (this.#dirty.size > 0) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const { at } of this.#deadlines.values()) earliest = Math.min(earliest, at);
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const woken = new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    const waits: Promise<void>[] = [woken];
    if (Number.isFinite(earliest)) {
      const ms = Math.max(0, earliest - this.#deps.clock.now().getTime());
      waits.push(this.#sleep(ms, stop.signal));
    } else {
      waits.push(
        new Promise<void>((resolve) => stop.signal.addEventListener("abort", () => resolve())),
      );
    }
    try {
      await Promise.race(waits);
    } finally {
      this.#wake = undefined;
      signal.removeEventListener("abort", onAbort);
      stop.abort();
    }
  }

  /** Sleeps; resolves early (without throwing) when `signal` aborts. */
  async #sleep(ms: number, signal: AbortSignal): Promise<void> {
    try {
      await this.#deps.clock.sleep(ms, signal);
    } catch (error: unknown) {
      if (!signal.aborted) throw error;
    }
  }
}
