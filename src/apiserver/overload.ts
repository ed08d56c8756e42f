import type { Registry } from "prom-client";
import type { Clock, Random } from "../util/index.ts";
import {
  type Auditing,
  type AuditPolicy,
  type AuditSink,
  newAuditing,
  newAuditMetrics,
} from "./audit/index.ts";
import {
  type Deadlines,
  defaultRequestTimeoutMs,
  type FlowController,
  newDeadlines,
  newFlowController,
  newFlowControlMetrics,
  newWatchLimiter,
  type RequestLimiter,
  type WatchLimiter,
} from "./flowcontrol/index.ts";
import { newMaxInFlightLimiter } from "./max-in-flight.ts";

/** kube-apiserver's overload flags, plus gantry's watch cap. */
export interface OverloadOptions {
  /** `--max-requests-inflight`. @default 400 */
  readonly maxRequestsInFlight?: number;
  /** `--max-mutating-requests-inflight`. @default 200 */
  readonly maxMutatingRequestsInFlight?: number;
  /** `--enable-priority-and-fairness`. @default false here; the commands default it to true */
  readonly enablePriorityAndFairness?: boolean;
  /** `--request-timeout`, in milliseconds. @default 60000 */
  readonly requestTimeoutMs?: number;
  /** `--max-watches-per-user`; 0: no cap. @default 0 */
  readonly maxWatchesPerUser?: number;
}

/** The parts of the request path that protect the server from overload. */
export interface OverloadProtection {
  readonly limiter: RequestLimiter;
  readonly deadlines: Deadlines;
  readonly requestTimeoutMs: number;
  readonly watchLimiter: WatchLimiter | undefined;
}

/**
 * The limiter (priority and fairness, or the two in-flight pools), request deadlines, and the
 * watch cap, with their metrics on `registry`. Throws RangeError for invalid limits, with
 * kube-apiserver's messages. With priority and fairness, the levels share
 * `maxRequestsInFlight + maxMutatingRequestsInFlight` seats and a request waits at most a
 * quarter of the request timeout, as upstream.
 */
export function newOverloadProtection(
  options: OverloadOptions,
  deps: {
    readonly clock: Clock;
    readonly random: Random;
    readonly registry: Registry;
    readonly signal: AbortSignal;
  },
): OverloadProtection {
  const maxInFlight = newMaxInFlightLimiter({
    ...(options.maxRequestsInFlight === undefined
      ? {}
      : { maxRequestsInFlight: options.maxRequestsInFlight }),
    ...(options.maxMutatingRequestsInFlight === undefined
      ? {}
      : { maxMutatingRequestsInFlight: options.maxMutatingRequestsInFlight }),
  });
  const requestTimeoutMs = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
  if (!Number.isFinite(requestTimeoutMs) || requestTimeoutMs <= 0) {
    throw new RangeError(
      `--request-timeout must be a positive duration, not ${requestTimeoutMs} ms`,
    );
  }
  const deadlines = newDeadlines(deps.clock, deps.signal);
  const watchLimiter =
    (options.maxWatchesPerUser ?? 0) === 0
      ? undefined
      : newWatchLimiter(options.maxWatchesPerUser ?? 0);
  const seats = (options.maxRequestsInFlight ?? 400) + (options.maxMutatingRequestsInFlight ?? 200);
  if (options.enablePriorityAndFairness !== true || seats === 0) {
    return { limiter: maxInFlight, deadlines, requestTimeoutMs, watchLimiter };
  }
  let controller: FlowController | undefined;
  const observer = newFlowControlMetrics(deps.registry, () => controller);
  controller = newFlowController({
    serverConcurrencyLimit: seats,
    requestWaitLimitMs: requestTimeoutMs / 4,
    deadlines,
    now: () => deps.clock.now().getTime(),
    uid: () => deps.random.uuid(),
    observer,
  });
  return { limiter: controller, deadlines, requestTimeoutMs, watchLimiter };
}

/** What `--audit-policy-file` and `--audit-log-path` give the server. */
export interface AuditConfig {
  readonly policy: AuditPolicy;
  /** The log the events go to (buffered; the command flushes it on shutdown). */
  readonly sink: AuditSink;
  /** Epoch milliseconds with microseconds for the event timestamps. @default the clock's */
  readonly now?: () => number;
}

/** Auditing with its metrics on `registry`. */
export function newServerAuditing(config: AuditConfig, clock: Clock, registry: Registry): Auditing {
  const metrics = newAuditMetrics(registry);
  return newAuditing({
    policy: config.policy,
    sink: {
      process(line) {
        config.sink.process(line);
        metrics.observe("buffered");
      },
    },
    now: config.now ?? (() => clock.now().getTime()),
    observeLevel: (level) => metrics.observeLevel(level),
  });
}
