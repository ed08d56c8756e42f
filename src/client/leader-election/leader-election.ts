/**
 * Leader election over a coordination.k8s.io/v1 Lease, as client-go's
 * `tools/leaderelection` runs it for kube-scheduler and kube-controller-manager.
 *
 * A candidate takes the lease when nobody holds it or when the record has not changed for the
 * record's `leaseDurationSeconds`, measured on the candidate's own clock from the moment it
 * last saw the record change (timestamps written by others are never compared with local time,
 * so clock skew between hosts does not matter). The leader renews every retry period and gives
 * up when no renewal succeeds within the renew deadline. Writes are compare-and-swaps on the
 * Lease's resourceVersion, so two candidates racing for an expired lease cannot both win; each
 * change of holder adds one to `leaseTransitions`. As upstream, this is not fencing: a leader
 * cut off from the API server stops acting after the renew deadline, before the lease
 * duration lets anyone else in.
 */
import { setMaxListeners } from "node:events";
import {
  type Clock,
  type DeepReadonly,
  errorMessage,
  type Logger,
  type Random,
  rfc3339Micro,
} from "../../util/index.ts";
import { type Client, leasesResource } from "../client.ts";
import { isNotFound } from "../errors.ts";
import { type EventRecorder, referenceTo } from "../events/broadcaster.ts";
import type { LeaderElectionChecker, LeaderHealthzAdaptor } from "./healthz-adaptor.ts";
import { type ElectionRecord, freshRecord, LeaseLock } from "./lease-lock.ts";

/** client-go's `JitterFactor`: a candidate retries after 1 to 2.2 retry periods. */
export const jitterFactor = 1.2;

export interface LeaderElectionDeps {
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Jitters the acquire retries, so candidates started together do not keep colliding. */
  readonly random: Random;
  /** Where the `LeaderElection` events ("ID became leader", "ID stopped leading") go. @default none */
  readonly events?: EventRecorder;
  /** Told whether this process leads, by lease name (`leader_election_master_status`). @default none */
  readonly metrics?: LeaderMetrics;
  /** The `leaderElection` health check to tie to this election (client-go's WatchDog). @default none */
  readonly watchDog?: LeaderHealthzAdaptor;
}

/**
 * client-go's leader metrics switch: off when the election starts, on once the lease is
 * acquired, off again when leading ends. Calls are cheap and never throw.
 */
export interface LeaderMetrics {
  leaderOn(name: string): void;
  leaderOff(name: string): void;
}

export interface LeaderElectionConfig {
  /** The Lease's namespace (`--leader-elect-resource-namespace`). */
  readonly namespace: string;
  /** The Lease's name (`--leader-elect-resource-name`). */
  readonly name: string;
  /** This candidate's `holderIdentity`; upstream components use `<hostname>_<uuid>`. */
  readonly identity: string;
  /**
   * How long others wait after last seeing the record change before they take over
   * (`--leader-elect-lease-duration`, 15 s upstream). Written to the Lease in whole seconds,
   * so at least 1000.
   */
  readonly leaseDurationMs: number;
  /** How long the leader keeps retrying a renewal before it gives up (10 s upstream). */
  readonly renewDeadlineMs: number;
  /** The wait between attempts to acquire or renew (2 s upstream). */
  readonly retryPeriodMs: number;
  /**
   * When `signal` aborts, give the lease up (holder "", 1 s duration) once the leading work
   * has stopped, so a successor need not wait out the lease duration. @default true
   */
  readonly releaseOnCancel?: boolean;
}

export interface LeaderCallbacks {
  /**
   * Called once the lease is held. `signal` aborts when leadership ends (the lease was lost or
   * the election's own signal aborted); the returned promise must settle once the work has
   * stopped. If it settles earlier, leadership is given up (and released).
   */
  onStartedLeading(signal: AbortSignal): Promise<void>;
  /**
   * Called once when the election ends, after the work has stopped, whether or not this
   * candidate ever led (as client-go's deferred call).
   */
  onStoppedLeading(): void;
  /** The observed holder changed (the first holder seen included); "" after a release. */
  onNewLeader?(identity: string): void;
}

/** Rejects impossible timings with client-go's `NewLeaderElector` messages (a RangeError). */
export function validateLeaderElectionConfig(config: LeaderElectionConfig): void {
  if (config.leaseDurationMs <= config.renewDeadlineMs) {
    throw new RangeError("leaseDuration must be greater than renewDeadline");
  }
  if (config.renewDeadlineMs <= jitterFactor * config.retryPeriodMs) {
    throw new RangeError("renewDeadline must be greater than retryPeriod*JitterFactor");
  }
  if (config.retryPeriodMs < 1) throw new RangeError("retryPeriod must be greater than zero");
  if (config.leaseDurationMs < 1000) {
    throw new RangeError("leaseDuration must be at least one second");
  }
  if (config.identity === "") throw new RangeError("Lock identity is empty");
}

/**
 * Campaigns for the lease until `signal` aborts or leadership, once won, is lost. While leading
 * it runs `onStartedLeading`; when the run ends it calls `onStoppedLeading`. Resolves when the
 * election is over (check `signal.aborted` to tell a shutdown from a lost lease); rejects with
 * the leading work's error if that work failed. Throws a RangeError for invalid timings.
 */
export async function runLeaderElection(
  deps: LeaderElectionDeps,
  config: LeaderElectionConfig,
  callbacks: LeaderCallbacks,
  signal: AbortSignal,
): Promise<void> {
  validateLeaderElectionConfig(config);
  const elector = new Elector(deps, config, callbacks);
  deps.metrics?.leaderOff(config.name);
  deps.watchDog?.setLeaderElection(elector);
  try {
    if (!(await elector.acquire(signal))) return;
    const leading = new AbortController();
    // The leading work hands this signal to every controller and informer it starts: many
    // listeners at once are normal here, not a leak (Node warns past 10).
    setMaxListeners(0, leading.signal);
    const stopLeading = (): void => leading.abort(signal.reason);
    signal.addEventListener("abort", stopLeading, { once: true });
    let failure: { error: unknown } | undefined;
    const work = Promise.resolve()
      .then(() => callbacks.onStartedLeading(leading.signal))
      .then(
        () => {
          if (!leading.signal.aborted) {
            deps.logger.info("Leading work ended on its own: giving up the lease", {
              lease: elector.describe(),
            });
          }
        },
        (error: unknown) => {
          failure = { error };
          deps.logger.error("Leading work failed: giving up the lease", {
            lease: elector.describe(),
            error,
          });
        },
      )
      .finally(() => leading.abort());
    await elector.renew(leading.signal);
    leading.abort();
    signal.removeEventListener("abort", stopLeading);
    await work;
    if (config.releaseOnCancel ?? true) await elector.release();
    if (failure !== undefined) throw failure.error;
  } finally {
    callbacks.onStoppedLeading();
  }
}

/** The bookkeeping of one candidate: what it last saw of the record, and when. */
class Elector implements LeaderElectionChecker {
  readonly #deps: LeaderElectionDeps;
  readonly #config: LeaderElectionConfig;
  readonly #callbacks: LeaderCallbacks;
  readonly #lock: LeaseLock;
  readonly #leaseDurationSeconds: number;
  #observed: ElectionRecord | undefined;
  #observedRaw = "";
  /** Local time (ms) at which the record was last seen to change. */
  #observedAt = 0;
  #reportedLeader = "";

  constructor(deps: LeaderElectionDeps, config: LeaderElectionConfig, callbacks: LeaderCallbacks) {
    this.#deps = deps;
    this.#config = config;
    this.#callbacks = callbacks;
    this.#lock = new LeaseLock(deps.client, config.namespace, config.name);
    this.#leaseDurationSeconds = Math.floor(config.leaseDurationMs / 1000);
  }

  describe(): string {
    return this.#lock.describe();
  }

  /** Tries until the lease is ours (true) or `signal` aborts (false). */
  async acquire(signal: AbortSignal): Promise<boolean> {
    const lease = this.describe();
    this.#deps.logger.info(`attempting to acquire leader lease ${lease}...`);
    for (;;) {
      if (signal.aborted) return false;
      const acquired = await this.#tryAcquireOrRenew(signal);
      this.#maybeReportTransition();
      if (acquired) {
        this.#deps.metrics?.leaderOn(this.#config.name);
        this.#recordEvent("became leader");
        this.#deps.logger.info(`successfully acquired lease ${lease}`);
        return true;
      }
      this.#deps.logger.v(4).info(`failed to acquire lease ${lease}`);
      const period = this.#config.retryPeriodMs;
      const jittered = period + this.#deps.random.float() * jitterFactor * period;
      if (!(await sleepUnlessAborted(this.#deps.clock, jittered, signal))) return false;
    }
  }

  /**
   * Renews every retry period; returns when `leading` aborts or when no renewal succeeded
   * within the renew deadline (the lease is then lost).
   */
  async renew(leading: AbortSignal): Promise<void> {
    const lease = this.describe();
    try {
      for (;;) {
        if (leading.aborted) return;
        const renewed = await this.#renewWithinDeadline(leading);
        this.#maybeReportTransition();
        if (!renewed) {
          if (!leading.aborted) {
            this.#deps.logger.error(
              `failed to renew lease ${lease}: timed out waiting for the condition`,
            );
          }
          return;
        }
        this.#deps.logger.v(5).info(`successfully renewed lease ${lease}`);
        if (!(await sleepUnlessAborted(this.#deps.clock, this.#config.retryPeriodMs, leading))) {
          return;
        }
      }
    } finally {
      this.#deps.metrics?.leaderOff(this.#config.name);
      this.#recordEvent("stopped leading");
    }
  }

  /**
   * client-go's `Check`: a follower is fine; a leader fails once it last saw its own renewal
   * longer ago than the lease duration plus `maxTolerableExpiredLeaseMs`.
   */
  check(maxTolerableExpiredLeaseMs: number): string | undefined {
    if (!this.#isLeader()) return undefined;
    const sinceMs = this.#deps.clock.now().getTime() - this.#observedAt;
    if (sinceMs > this.#config.leaseDurationMs + maxTolerableExpiredLeaseMs) {
      return `failed election to renew leadership on lease ${this.#config.name}`;
    }
    return undefined;
  }

  /** Gives the lease up if we hold it: holder "", 1 s duration, transitions kept. */
  async release(): Promise<boolean> {
    if (!this.#isLeader()) return true;
    const now = rfc3339Micro(this.#deps.clock.now());
    const record: ElectionRecord = {
      holderIdentity: "",
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: this.#observed?.leaseTransitions ?? 0,
    };
    const deadline = this.#deadline(new AbortController().signal);
    try {
      await this.#lock.update(record, deadline.signal);
    } catch (error: unknown) {
      this.#deps.logger.error("Failed to release lock", { lease: this.describe(), error });
      return false;
    } finally {
      deadline.cancel();
    }
    this.#setObserved(record);
    return true;
  }

  /**
   * wait.PollImmediateUntil(retryPeriod, tryAcquireOrRenew) bounded by the renew deadline. An
   * attempt in flight when `leading` aborts is let finish (only the deadline cuts it short), so
   * the Lease version this process knows stays the latest and a release after it succeeds.
   */
  async #renewWithinDeadline(leading: AbortSignal): Promise<boolean> {
    const deadline = this.#deadline(new AbortController().signal);
    const waiting = AbortSignal.any([deadline.signal, leading]);
    try {
      for (;;) {
        if (waiting.aborted) return false;
        if (await this.#tryAcquireOrRenew(deadline.signal)) return true;
        const period = this.#config.retryPeriodMs;
        if (!(await sleepUnlessAborted(this.#deps.clock, period, waiting))) return false;
      }
    } finally {
      deadline.cancel();
    }
  }

  /** A signal that aborts after the renew deadline or with `parent`; `cancel` frees its timer. */
  #deadline(parent: AbortSignal): { signal: AbortSignal; cancel(): void } {
    const controller = new AbortController();
    const timer = new AbortController();
    const onParent = (): void => controller.abort(parent.reason);
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener("abort", onParent, { once: true });
    this.#deps.clock.sleep(this.#config.renewDeadlineMs, timer.signal).then(
      () => controller.abort(new Error("renew deadline exceeded")),
      () => undefined,
    );
    return {
      signal: controller.signal,
      cancel: () => {
        timer.abort();
        parent.removeEventListener("abort", onParent);
      },
    };
  }

  /** One attempt, as client-go's `tryAcquireOrRenew`; failures are logged, never thrown. */
  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const clock = this.#deps.clock;
    const lease = this.describe();
    const identity = this.#config.identity;
    // 1. The leader's fast path: update the record it last wrote, assuming nobody else did.
    if (this.#isLeader() && this.#isLeaseValid() && this.#observed !== undefined) {
      const record: ElectionRecord = {
        ...freshRecord(identity, this.#leaseDurationSeconds, clock),
        acquireTime: this.#observed.acquireTime,
        leaseTransitions: this.#observed.leaseTransitions,
      };
      try {
        await this.#lock.update(record, signal);
        this.#setObserved(record);
        return true;
      } catch (error: unknown) {
        this.#logFailure(
          "Failed to update lock optimistically, falling back to slow path",
          error,
          signal,
        );
      }
    }

    // 2. Read the record, or create it when there is none.
    let current: ElectionRecord;
    try {
      current = await this.#lock.get(signal);
    } catch (error: unknown) {
      if (!isNotFound(error)) {
        this.#logFailure(`error retrieving resource lock ${lease}`, error, signal);
        return false;
      }
      const record = freshRecord(identity, this.#leaseDurationSeconds, clock);
      try {
        await this.#lock.create(record, signal);
      } catch (createError: unknown) {
        this.#logFailure("error initially creating leader election record", createError, signal);
        return false;
      }
      this.#setObserved(record);
      return true;
    }

    // 3. A changed record restarts the expiry clock; a live lease of someone else stops us.
    const raw = JSON.stringify(current);
    if (raw !== this.#observedRaw) {
      this.#setObserved(current);
      this.#observedRaw = raw;
    }
    if (current.holderIdentity !== "" && this.#isLeaseValid() && !this.#isLeader()) {
      this.#deps.logger
        .v(4)
        .info(`lock is held by ${current.holderIdentity} and has not yet expired`, { lease });
      return false;
    }

    // 4. Take it (one more transition) or renew it (acquire time and transitions kept).
    const leader = this.#isLeader();
    const record: ElectionRecord = leader
      ? {
          ...freshRecord(identity, this.#leaseDurationSeconds, clock),
          acquireTime: current.acquireTime,
          leaseTransitions: current.leaseTransitions,
        }
      : freshRecord(identity, this.#leaseDurationSeconds, clock, current.leaseTransitions + 1);
    try {
      await this.#lock.update(record, signal);
    } catch (error: unknown) {
      this.#logFailure("Failed to update lock", error, signal);
      return false;
    }
    this.#setObserved(record);
    return true;
  }

  #isLeader(): boolean {
    return this.#observed?.holderIdentity === this.#config.identity;
  }

  #isLeaseValid(): boolean {
    const seconds = this.#observed?.leaseDurationSeconds ?? 0;
    return this.#observedAt + seconds * 1000 > this.#deps.clock.now().getTime();
  }

  #setObserved(record: ElectionRecord): void {
    this.#observed = record;
    this.#observedAt = this.#deps.clock.now().getTime();
  }

  #maybeReportTransition(): void {
    const holder = this.#observed?.holderIdentity ?? "";
    if (holder === this.#reportedLeader) return;
    this.#reportedLeader = holder;
    this.#callbacks.onNewLeader?.(holder);
  }

  #recordEvent(what: string): void {
    const lease = this.#lock.lease;
    if (this.#deps.events === undefined || lease === undefined) return;
    this.#deps.events.event(
      referenceTo(lease as DeepReadonly<typeof lease>, leasesResource),
      "Normal",
      "LeaderElection",
      `${this.#config.identity} ${what}`,
    );
  }

  /** Errors of a cancelled attempt are expected: they go to v(4), the rest are errors. */
  #logFailure(message: string, error: unknown, signal: AbortSignal): void {
    const fields = { lease: this.describe(), error: errorMessage(error) };
    if (signal.aborted) this.#deps.logger.v(4).info(message, fields);
    else this.#deps.logger.error(message, fields);
  }
}

/** Sleeps `ms`; false (instead of a rejection) when `signal` aborts first. */
async function sleepUnlessAborted(clock: Clock, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await clock.sleep(ms, signal);
    return true;
  } catch (error: unknown) {
    if (signal.aborted) return false;
    throw error;
  }
}
