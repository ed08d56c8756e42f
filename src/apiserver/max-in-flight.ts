import type { UserInfo } from "./admission/index.ts";
import type { RequestInfo } from "./http/request-info.ts";

/** kube-apiserver's `--max-requests-inflight` and `--max-mutating-requests-inflight`. */
export interface MaxInFlightOptions {
  /** Read-only requests (get, list) served at once; 0 means no limit. @default 400 */
  readonly maxRequestsInFlight?: number;
  /** Mutating requests (every other verb) served at once; 0 means no limit. @default 200 */
  readonly maxMutatingRequestsInFlight?: number;
}

/** A taken seat. */
export interface Seat {
  /** Gives the seat back; calling it again does nothing. */
  release(): void;
}

/** The seat a request takes, or why it takes none. */
export type Admission =
  | { readonly kind: "admitted"; readonly seat: Seat }
  /** Long-running, unlimited, or a `system:masters` user over the limit: nothing to give back. */
  | { readonly kind: "exempt" }
  | { readonly kind: "rejected"; readonly requestKind: RequestKind };

/** Upstream's `request_kind` label. */
export type RequestKind = "readOnly" | "mutating";

/**
 * Upstream's non-APF in-flight limiter (`WithMaxInFlightLimit`): read-only and mutating requests
 * each have a number of seats; a request that finds its pool full is rejected at once (no queue).
 */
export interface MaxInFlightLimiter {
  /**
   * Takes a seat for a request, unless it is long-running (watch, and the `attach`, `exec`,
   * `log`, `portforward` and `proxy` subresources) or its pool is unlimited. When the pool is
   * full, a member of `system:masters` is served anyway, as upstream does, and everyone else is
   * rejected. The caller gives an admitted seat back once the response is done.
   */
  admit(info: RequestInfo, user: UserInfo): Admission;
  /** Seats taken now, per pool. */
  inFlight(): Readonly<Record<RequestKind, number>>;
}

/** Upstream's `retryAfter`: the seconds a 429 from the limiter asks clients to wait. */
export const maxInFlightRetryAfterSeconds = 1;

/** Upstream's body of that 429, written by Go's `http.Error` (plain text, newline added). */
export const maxInFlightMessage = "Too many requests, please try again later.";

const readOnlyVerbs: ReadonlySet<string> = new Set(["get", "list", "watch"]);
const longRunningVerbs: ReadonlySet<string> = new Set(["watch", "proxy"]);
const longRunningSubresources: ReadonlySet<string> = new Set([
  "attach",
  "exec",
  "proxy",
  "log",
  "portforward",
]);
const privilegedGroup = "system:masters";

/**
 * Upstream's `BasicLongRunningRequestCheck` as kube-apiserver configures it: watch and proxy
 * verbs, the streaming subresources, and non-resource `/debug/pprof/` paths.
 */
export function isLongRunning(info: RequestInfo): boolean {
  if (longRunningVerbs.has(info.verb)) return true;
  if (info.kind === "nonResource") return info.path.startsWith("/debug/pprof/");
  // gantry keeps what follows a subresource in it (`proxy/metrics`); upstream keeps the first part.
  const slash = info.subresource.indexOf("/");
  return longRunningSubresources.has(
    slash < 0 ? info.subresource : info.subresource.slice(0, slash),
  );
}

/**
 * The limiter for the given limits. Throws `RangeError` for a negative limit (with
 * kube-apiserver's message) or one that is not a whole number.
 */
export function newMaxInFlightLimiter(options: MaxInFlightOptions = {}): MaxInFlightLimiter {
  const limits: Record<RequestKind, number> = {
    readOnly: checkedLimit(options.maxRequestsInFlight ?? 400, "--max-requests-inflight"),
    mutating: checkedLimit(
      options.maxMutatingRequestsInFlight ?? 200,
      "--max-mutating-requests-inflight",
    ),
  };
  const taken: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  const exempt: Admission = { kind: "exempt" };
  return {
    admit(info, user) {
      if (limits.readOnly === 0 && limits.mutating === 0) return exempt;
      if (isLongRunning(info)) return exempt;
      const kind: RequestKind = readOnlyVerbs.has(info.verb) ? "readOnly" : "mutating";
      const limit = limits[kind];
      if (limit === 0) return exempt;
      if (taken[kind] >= limit) {
        return user.groups.includes(privilegedGroup)
          ? exempt
          : { kind: "rejected", requestKind: kind };
      }
      taken[kind]++;
      return { kind: "admitted", seat: new PoolSeat(taken, kind) };
    },
    inFlight: () => ({ ...taken }),
  };
}

/** A seat of one pool; a class, so taking one creates no closure. */
class PoolSeat implements Seat {
  readonly #taken: Record<RequestKind, number>;
  readonly #kind: RequestKind;
  #held = true;

  constructor(taken: Record<RequestKind, number>, kind: RequestKind) {
    this.#taken = taken;
    this.#kind = kind;
  }

  release(): void {
    if (!this.#held) return;
    this.#held = false;
    this.#taken[this.#kind]--;
  }
}

function checkedLimit(value: number, flag: string): number {
  if (value < 0) throw new RangeError(`${flag} can not be negative value`);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${flag} must be a whole number of requests, not ${value}`);
  }
  return value;
}
