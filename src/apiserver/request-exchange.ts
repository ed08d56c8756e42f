import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestAuditor } from "./audit/index.ts";
import {
  type Classification,
  type Deadline,
  type LimiterAdmission,
  writeRequestTimeout,
} from "./flowcontrol/index.ts";
import type { RequestInfo } from "./http/request-info.ts";
import { writeText } from "./http/responses.ts";
import {
  maxInFlightMessage,
  maxInFlightRetryAfterSeconds,
  type RequestKind,
  type Seat,
} from "./max-in-flight.ts";
import type { WriteAbort } from "./registry/generic/store.ts";

/**
 * One request on its way through the listener: what the filters around the handler (deadline,
 * audit, seat, watch count) hold for it, all given back by `closeExchange` once the response
 * closes.
 */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly info: RequestInfo;
  /** `process.hrtime.bigint()` when it arrived. */
  readonly started: bigint;
  /** Warnings for `Warning` headers, added to by handlers. */
  readonly warnings: string[];
  /** The audit event's recorder, when the request is audited. */
  audit: RequestAuditor | undefined;
  /** The request's deadline (`--request-timeout`); none for long-running requests. */
  deadline: Deadline | undefined;
  /** Aborted when the deadline passes; made for writes only, which must then not reach storage. */
  abort: DeadlineAbort | undefined;
  /** Set once the 504 went out: whatever the handler does afterwards is dropped. */
  timedOut: boolean;
  /** The in-flight or priority-and-fairness seat, while held. */
  seat: Seat | undefined;
  /** Gives back the user's watch count, for an open watch. */
  closeWatch: (() => void) | undefined;
}

/**
 * Abandons a write whose deadline passed: the part of an `AbortController` a write uses
 * (`throwIfAborted` before storage), without the event target, for one per write request.
 */
export class DeadlineAbort implements WriteAbort {
  #reason: Error | undefined;

  abort(reason: Error): void {
    this.#reason ??= reason;
  }

  throwIfAborted(): void {
    if (this.#reason !== undefined) throw this.#reason;
  }
}

/** A new exchange, with nothing held yet. */
export function newExchange(
  req: IncomingMessage,
  res: ServerResponse,
  info: RequestInfo,
  started: bigint,
): Exchange {
  return {
    req,
    res,
    info,
    started,
    warnings: [],
    audit: undefined,
    deadline: undefined,
    abort: undefined,
    timedOut: false,
    seat: undefined,
    closeWatch: undefined,
  };
}

/** Gives back what the request held; runs on `close` (after `finish`, or when the client left). */
export function closeExchange(exchange: Exchange): void {
  exchange.deadline?.cancel();
  exchange.seat?.release();
  exchange.seat = undefined;
  exchange.closeWatch?.();
  exchange.audit?.complete(exchange.res.statusCode);
}

/** The Status a request that outlived its deadline is answered with (for the audit event). */
const timeoutStatus = {
  status: "Failure",
  message: "Timeout: request did not complete within the allotted timeout",
  reason: "Timeout",
  details: {},
  code: 504,
} as const;

/**
 * The deadline passed: upstream's 504 (or a closed connection if the response had started), and
 * the write, if any, is abandoned before it reaches storage.
 */
export function timeOut(exchange: Exchange): void {
  const { res } = exchange;
  if (res.writableEnded || res.destroyed) return;
  exchange.timedOut = true;
  exchange.abort?.abort(new Error("the request's deadline passed"));
  exchange.audit?.logResponseStatus(timeoutStatus);
  writeRequestTimeout(res);
}

/** Upstream's `X-Kubernetes-PF-*-UID` headers: where priority and fairness classified it. */
export function setClassificationHeaders(res: ServerResponse, c: Classification): void {
  res.setHeader("X-Kubernetes-PF-FlowSchema-UID", c.flowSchemaUid);
  res.setHeader("X-Kubernetes-PF-PriorityLevel-UID", c.priorityLevelUid);
}

/**
 * Upstream's `tooManyRequests` in the max-in-flight and priority-and-fairness filters:
 * `Retry-After: 1` and Go's `http.Error` answer, a plain-text line rather than a Status.
 */
export function writeTooManyRequests(res: ServerResponse): void {
  res.setHeader("Retry-After", String(maxInFlightRetryAfterSeconds));
  writeText(res, 429, `${maxInFlightMessage}\n`);
}

/**
 * Runs `serve` once the limiter gives the request a seat (at once, or after waiting in a queue);
 * answers 429 when it is rejected or times out waiting (`onDropped` counts it). A seat is held by
 * the exchange and given back when the response closes.
 */
export function whenAdmitted(
  exchange: Exchange,
  admission: LimiterAdmission,
  onDropped: (kind: RequestKind) => void,
  serve: () => void,
): void {
  const { res } = exchange;
  if (admission.classification !== undefined) {
    setClassificationHeaders(res, admission.classification);
  }
  switch (admission.kind) {
    case "exempt":
      serve();
      return;
    case "admitted":
      exchange.seat = admission.seat;
      serve();
      return;
    case "rejected":
      onDropped(admission.requestKind);
      writeTooManyRequests(res);
      return;
    case "queued": {
      // A client that leaves while its request waits frees its place in the queue.
      const leave = (): void => admission.cancel();
      res.on("close", leave);
      admission.wait.then(
        (seat) => {
          res.off("close", leave);
          if (seat === undefined) {
            if (res.writableEnded || res.destroyed || exchange.timedOut) return;
            onDropped(admission.requestKind);
            writeTooManyRequests(res);
            return;
          }
          if (res.destroyed || res.writableEnded) {
            seat.release();
            return;
          }
          exchange.seat = seat;
          serve();
        },
        // `wait` never rejects; should it, the request cannot be answered sensibly.
        (error: unknown) => res.destroy(error instanceof Error ? error : undefined),
      );
      return;
    }
  }
}
