/**
 * Heartbeats before pods. A fleet's Lease renewals and node status checks wait in their own
 * queue; when the oldest of them has waited longer than `lateMs` for a worker (the API server is
 * saturated), pod workers hold back (all but one, so pods never stop altogether) until the
 * heartbeats catch up. Real kubelets get the same precedence from the API server, whose
 * priority and fairness puts node heartbeats in the `node-high` priority level; without it a
 * flood of pod writes would leave Leases unrenewed and nodes NotReady.
 */
import type { Clock } from "../../util/index.ts";

export class HeartbeatPriority {
  readonly #clock: Clock;
  readonly #lateMs: number;
  /** Queued heartbeat keys and when they were queued, oldest first (Map insertion order). */
  readonly #queuedAt = new Map<string, number>();
  #held: (() => void)[] = [];
  #closed = false;

  constructor(clock: Clock, lateMs: number) {
    this.#clock = clock;
    this.#lateMs = lateMs;
  }

  /** A heartbeat key was queued; it counts as waiting from now until a worker takes it. */
  queued(key: string): void {
    if (!this.#queuedAt.has(key)) this.#queuedAt.set(key, this.#clock.now().getTime());
  }

  /** A worker took a heartbeat key. */
  taken(key: string): void {
    this.#queuedAt.delete(key);
    if (this.#held.length > 0 && !this.#late()) this.#release();
  }

  /** How long the oldest queued heartbeat has waited, ms (0 when none waits). */
  lateness(): number {
    const oldest = this.#queuedAt.values().next();
    return oldest.done === true ? 0 : this.#clock.now().getTime() - oldest.value;
  }

  /** Resolves when a pod worker may take work: at once, unless heartbeats are late. */
  turn(): Promise<void> {
    if (this.#closed || !this.#late()) return Promise.resolve();
    return new Promise((resolve) => this.#held.push(resolve));
  }

  /** Lets every held and later pod worker go (the fleet is stopping). */
  close(): void {
    this.#closed = true;
    this.#release();
  }

  #late(): boolean {
    return this.lateness() > this.#lateMs;
  }

  #release(): void {
    const held = this.#held;
    this.#held = [];
    for (const resolve of held) resolve();
  }
}
