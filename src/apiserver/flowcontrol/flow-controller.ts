import type { UserInfo } from "../admission/index.ts";
import type { RequestInfo } from "../http/request-info.ts";
import { isLongRunning, type RequestKind, type Seat } from "../max-in-flight.ts";
import {
  defaultFlowSchemas,
  defaultPriorityLevels,
  type FlowSchema,
  matchesRequest,
  matchesSubject,
  type PolicyRules,
  type PriorityLevel,
} from "./config.ts";
import type { Deadlines } from "./deadlines.ts";
import { type QueuedRequest, QueueSet, type RejectReason } from "./queue-set.ts";
import { flowHash } from "./shuffle-shard.ts";

/** Where a request was classified: sent back as `X-Kubernetes-PF-*-UID` headers. */
export interface Classification {
  readonly flowSchema: string;
  readonly priorityLevel: string;
  readonly flowSchemaUid: string;
  readonly priorityLevelUid: string;
}

/** What a limiter decides about a request; `classification` is set by priority and fairness. */
export type LimiterAdmission =
  | { readonly kind: "admitted"; readonly seat: Seat; readonly classification?: Classification }
  | { readonly kind: "exempt"; readonly classification?: Classification }
  | {
      readonly kind: "rejected";
      readonly requestKind: RequestKind;
      readonly classification?: Classification;
    }
  | {
      readonly kind: "queued";
      readonly requestKind: RequestKind;
      readonly classification?: Classification;
      /** The seat once dispatched; undefined when the request timed out or was cancelled. */
      readonly wait: Promise<Seat | undefined>;
      /** Takes the request out of its queue (its client went away); `wait` then gives undefined. */
      cancel(): void;
    };

/**
 * Decides whether a request runs now, waits, or is turned away: the max-in-flight limiter or
 * priority and fairness. The caller releases an admitted seat once the response is done.
 */
export interface RequestLimiter {
  admit(info: RequestInfo, user: UserInfo): LimiterAdmission;
  /** Requests holding a seat now, per kind (`apiserver_current_inflight_requests`). */
  inFlight(): Readonly<Record<RequestKind, number>>;
}

/** Hears what priority and fairness does, for metrics. */
export interface FlowControlObserver {
  /** A request got a seat after waiting `waitSeconds` (0 when it never queued). */
  dispatched(classification: Classification, waitSeconds: number): void;
  /** A request was turned away, or left its queue without a seat. */
  rejected(classification: Classification, reason: RejectReason, waitSeconds: number): void;
}

export interface FlowControlOptions {
  /**
   * Seats shared by the limited priority levels in proportion to their shares: upstream's
   * server concurrency limit, `--max-requests-inflight` + `--max-mutating-requests-inflight`.
   */
  readonly serverConcurrencyLimit: number;
  /** How long a request may wait in a queue (upstream: a quarter of `--request-timeout`). @default 15000 */
  readonly requestWaitLimitMs?: number;
  /** Drives queue wait limits. */
  readonly deadlines: Deadlines;
  /** Epoch milliseconds now. */
  readonly now: () => number;
  /** Makes the UIDs the response headers carry (one per flow schema and priority level). */
  readonly uid: () => string;
  /** @default upstream's built-in priority levels */
  readonly priorityLevels?: readonly PriorityLevel[];
  /** @default upstream's built-in flow schemas (plus gantry's queueing component) */
  readonly flowSchemas?: readonly FlowSchema[];
  /** @default none */
  readonly observer?: FlowControlObserver;
}

/** The state of one priority level, for metrics. */
export interface PriorityLevelState {
  readonly name: string;
  readonly exempt: boolean;
  /** Its seats (upstream's nominal concurrency limit); 0 for exempt levels. */
  readonly seats: number;
}

/** The counts of one flow schema, for metrics. */
export interface FlowSchemaCounts {
  readonly flowSchema: string;
  readonly priorityLevel: string;
  readonly executing: number;
  readonly waiting: number;
}

/** Priority and fairness, plus what metrics read of its state. */
export interface FlowController extends RequestLimiter {
  priorityLevels(): readonly PriorityLevelState[];
  flowSchemaCounts(): readonly FlowSchemaCounts[];
}

const readOnlyVerbs: ReadonlySet<string> = new Set(["get", "list", "watch"]);
const noClassification: LimiterAdmission = { kind: "exempt" };

/**
 * API Priority and Fairness with a fixed configuration (upstream's defaults): each request is
 * classified by the first flow schema (in matching precedence) whose rules take it, which names
 * its priority level; exempt levels never wait; a limited level has
 * `ceil(serverConcurrencyLimit * shares / sum of shares)` seats and fair queues (see QueueSet),
 * with flows told apart by user or namespace. Long-running requests other than watches are not
 * limited; a watch holds its seat only until it is initialised (the caller releases it then).
 * Throws RangeError for a configuration without a `catch-all` schema or with unknown levels.
 */
export function newFlowController(options: FlowControlOptions): FlowController {
  const levels = options.priorityLevels ?? defaultPriorityLevels;
  const schemas = [...(options.flowSchemas ?? defaultFlowSchemas)].sort(
    (a, b) => a.matchingPrecedence - b.matchingPrecedence,
  );
  if (!Number.isSafeInteger(options.serverConcurrencyLimit) || options.serverConcurrencyLimit < 1) {
    throw new RangeError(
      `Cannot use priority and fairness with ${options.serverConcurrencyLimit} seats: --max-requests-inflight plus --max-mutating-requests-inflight must be at least 1`,
    );
  }
  const shareSum = levels.reduce((sum, l) => sum + (l.exempt ? 0 : l.nominalConcurrencyShares), 0);
  const waitLimitMs = options.requestWaitLimitMs ?? 15_000;
  const levelStates = new Map<string, LevelState>();
  for (const level of levels) {
    const seats = level.exempt
      ? 0
      : Math.max(
          1,
          Math.ceil((options.serverConcurrencyLimit * level.nominalConcurrencyShares) / shareSum),
        );
    const queueSet = level.exempt
      ? undefined
      : new QueueSet(
          {
            seats,
            queues: level.queuing?.queues ?? 0,
            handSize: level.queuing?.handSize ?? 1,
            queueLengthLimit: level.queuing?.queueLengthLimit ?? 0,
            waitLimitMs,
          },
          { deadlines: options.deadlines, now: options.now },
        );
    levelStates.set(level.name, { level, seats, uid: options.uid(), queueSet });
  }
  const schemaStates = schemas.map((schema): SchemaState => {
    const level = levelStates.get(schema.priorityLevel);
    if (level === undefined) {
      throw new RangeError(
        `Flow schema "${schema.name}" names priority level "${schema.priorityLevel}", which does not exist`,
      );
    }
    const classification: Classification = {
      flowSchema: schema.name,
      priorityLevel: level.level.name,
      flowSchemaUid: options.uid(),
      priorityLevelUid: level.uid,
    };
    return {
      schema,
      level,
      classification,
      exemptAdmission: { kind: "exempt", classification },
      executing: 0,
      waiting: 0,
    };
  });
  const catchAll = schemaStates.find((s) => s.schema.name === "catch-all");
  if (catchAll === undefined) {
    throw new RangeError('Cannot use priority and fairness without a "catch-all" flow schema');
  }
  const observer = options.observer;
  const inFlight: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  /** Per user object: the schemas with a rule naming the user, and those rules. */
  const candidatesByUser = new WeakMap<UserInfo, readonly Candidate[]>();

  const candidatesOf = (user: UserInfo): readonly Candidate[] => {
    let found = candidatesByUser.get(user);
    if (found === undefined) {
      found = schemaStates.flatMap((state) => {
        const rules = state.schema.rules.filter((rule) =>
          rule.subjects.some((subject) => matchesSubject(subject, user)),
        );
        return rules.length === 0 ? [] : [{ state, rules }];
      });
      candidatesByUser.set(user, found);
    }
    return found;
  };

  const classify = (info: RequestInfo, user: UserInfo): SchemaState => {
    for (const { state, rules } of candidatesOf(user)) {
      for (const rule of rules) if (matchesRequest(rule, info)) return state;
    }
    return catchAll;
  };

  const seatFor = (state: SchemaState, kind: RequestKind): Seat => {
    state.executing++;
    inFlight[kind]++;
    return new FlowSeat(state, kind, inFlight);
  };

  return {
    admit(info, user) {
      if (info.verb !== "watch" && isLongRunning(info)) return noClassification;
      const state = classify(info, user);
      const queueSet = state.level.queueSet;
      if (queueSet === undefined) return state.exemptAdmission;
      const requestKind: RequestKind = readOnlyVerbs.has(info.verb) ? "readOnly" : "mutating";
      const { classification } = state;
      if (queueSet.tryAcquire()) {
        observer?.dispatched(classification, 0);
        return { kind: "admitted", seat: seatFor(state, requestKind), classification };
      }
      const distinguisher =
        state.schema.distinguisher === "ByUser"
          ? user.username
          : state.schema.distinguisher === "ByNamespace" && info.kind === "resource"
            ? info.namespace
            : "";
      const enqueuedAt = options.now();
      const waited = (): number => (options.now() - enqueuedAt) / 1000;
      let settle: (seat: Seat | undefined) => void = () => undefined;
      const wait = new Promise<Seat | undefined>((resolve) => {
        settle = resolve;
      });
      state.waiting++;
      const queued = queueSet.enqueue(flowHash(`${state.schema.name},${distinguisher}`), {
        dispatched: () => {
          state.waiting--;
          observer?.dispatched(classification, waited());
          settle(seatFor(state, requestKind));
        },
        timedOut: () => {
          state.waiting--;
          observer?.rejected(classification, "time-out", waited());
          settle(undefined);
        },
      });
      if (typeof queued === "string") {
        state.waiting--;
        observer?.rejected(classification, queued, 0);
        return { kind: "rejected", requestKind, classification };
      }
      return {
        kind: "queued",
        requestKind,
        classification,
        wait,
        cancel: () => cancelWaiting(queued, state, classification, waited, settle),
      };
    },
    inFlight: () => ({ ...inFlight }),
    priorityLevels: () =>
      [...levelStates.values()].map((l) => ({
        name: l.level.name,
        exempt: l.level.exempt,
        seats: l.seats,
      })),
    flowSchemaCounts: () =>
      schemaStates.map((s) => ({
        flowSchema: s.schema.name,
        priorityLevel: s.level.level.name,
        executing: s.executing,
        waiting: s.waiting,
      })),
  };

  function cancelWaiting(
    queued: QueuedRequest,
    state: SchemaState,
    classification: Classification,
    waited: () => number,
    settle: (seat: Seat | undefined) => void,
  ): void {
    if (!queued.cancel()) return;
    state.waiting--;
    observer?.rejected(classification, "cancelled", waited());
    settle(undefined);
  }
}

interface LevelState {
  readonly level: PriorityLevel;
  readonly seats: number;
  readonly uid: string;
  /** Undefined for exempt levels. */
  readonly queueSet: QueueSet | undefined;
}

interface SchemaState {
  readonly schema: FlowSchema;
  readonly level: LevelState;
  readonly classification: Classification;
  readonly exemptAdmission: LimiterAdmission;
  executing: number;
  waiting: number;
}

interface Candidate {
  readonly state: SchemaState;
  readonly rules: readonly PolicyRules[];
}

/** A seat of a limited level; giving it back dispatches the next waiting request. */
class FlowSeat implements Seat {
  readonly #state: SchemaState;
  readonly #kind: RequestKind;
  readonly #inFlight: Record<RequestKind, number>;
  #held = true;

  constructor(state: SchemaState, kind: RequestKind, inFlight: Record<RequestKind, number>) {
    this.#state = state;
    this.#kind = kind;
    this.#inFlight = inFlight;
  }

  release(): void {
    if (!this.#held) return;
    this.#held = false;
    this.#state.executing--;
    this.#inFlight[this.#kind]--;
    this.#state.level.queueSet?.release();
  }
}
