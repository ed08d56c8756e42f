import { ApiError, isStatus, type StatusDetails, type StatusReason } from "../api/index.ts";
import { isPlainObject } from "../util/index.ts";

/**
 * The server could not be reached, or the connection broke before a complete answer arrived
 * (refused, reset, timed out, a malformed stream). Unlike an ApiError the server said nothing,
 * so the request may or may not have taken effect; retrying is reasonable unless the server's
 * certificate was rejected (`retryable` false), which no retry fixes.
 */
export class TransportError extends Error {
  /** The system error code (`ECONNREFUSED`, `ECONNRESET`, `ETIMEDOUT`, a TLS code) or `EPROTO`. */
  readonly code: string;
  readonly retryable: boolean;

  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TransportError";
    this.code = code;
    this.retryable = !isCertificateError(code);
  }
}

/** OpenSSL's verification codes and Node's TLS codes: the server's identity was not accepted. */
function isCertificateError(code: string): boolean {
  return (
    /^(?:UNABLE_TO_|CERT_|ERR_TLS_CERT|ERR_SSL_)/.test(code) ||
    code === "DEPTH_ZERO_SELF_SIGNED_CERT" ||
    code === "SELF_SIGNED_CERT_IN_CHAIN" ||
    code === "HOSTNAME_MISMATCH"
  );
}

/** The reason upstream's client infers from a bare HTTP status code (`reasonForCode`). */
const reasonsByCode: ReadonlyMap<number, StatusReason> = new Map([
  [400, "BadRequest"],
  [401, "Unauthorized"],
  [403, "Forbidden"],
  [404, "NotFound"],
  [405, "MethodNotAllowed"],
  [406, "NotAcceptable"],
  [409, "Conflict"],
  [410, "Gone"],
  [413, "RequestEntityTooLarge"],
  [415, "UnsupportedMediaType"],
  [422, "Invalid"],
  [429, "TooManyRequests"],
  [500, "InternalError"],
  [503, "ServiceUnavailable"],
  [504, "Timeout"],
]);

const knownReasons: ReadonlySet<string> = new Set<string>([
  ...reasonsByCode.values(),
  "AlreadyExists",
  "Expired",
]);

/** client-go's messages for an error response without a Status body (`NewGenericServerResponse`). */
function messageForCode(code: number, serverText: string): string {
  switch (code) {
    case 400:
      return "the server rejected our request for an unknown reason";
    case 401:
      return "the server has asked for the client to provide credentials";
    case 404:
    case 410:
      return "the server could not find the requested resource";
    case 405:
      return "the server does not allow this method on the requested resource";
    case 409:
      return "the server reported a conflict";
    case 422:
      return "the server rejected our request due to an error in our request";
    case 429:
      return "the server has received too many requests and has asked us to try again later";
    case 503:
      return "the server is currently unable to handle the request";
    case 504:
      return "the server was unable to return a response in the time allotted, but may still be processing the request";
    default:
      if (code >= 500) {
        return `an error on the server (${JSON.stringify(serverText)}) has prevented the request from succeeding`;
      }
      // 403, 406, 413, 415 and the rest: the server's own text says what went wrong.
      return serverText === "" ? "an error occurred" : serverText;
  }
}

function reasonFor(code: number): StatusReason {
  return reasonsByCode.get(code) ?? (code >= 500 ? "InternalError" : "BadRequest");
}

/**
 * Rebuilds the ApiError a server reported as a `metav1.Status` (an error response body or the
 * object of a watch ERROR event), keeping code, reason, message and details (causes, retry
 * hints). `httpCode` fills in a Status without `code`; an unknown reason becomes the code's.
 */
export function fromStatus(status: unknown, httpCode?: number): ApiError {
  if (!isStatus(status)) {
    const code = httpCode ?? 500;
    return new ApiError(code, reasonFor(code), messageForCode(code, ""));
  }
  const code = typeof status.code === "number" && status.code > 0 ? status.code : (httpCode ?? 500);
  const reason =
    typeof status.reason === "string" && knownReasons.has(status.reason)
      ? status.reason
      : reasonFor(code);
  const message =
    typeof status.message === "string" && status.message !== ""
      ? status.message
      : messageForCode(code, "");
  const details = isPlainObject(status.details) ? (status.details as StatusDetails) : undefined;
  return new ApiError(code, reason, message, details);
}

/** The ApiError for a non-2xx response whose body may or may not be a Status. */
export function errorFromResponse(code: number, body: string): ApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error: unknown) {
    if (!(error instanceof SyntaxError)) throw error;
    parsed = undefined;
  }
  if (isStatus(parsed)) return fromStatus(parsed, code);
  return new ApiError(code, reasonFor(code), messageForCode(code, body.trim().slice(0, 1024)));
}

function codeOf(error: unknown): number | undefined {
  return error instanceof ApiError ? error.code : undefined;
}

/** 404 NotFound. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.reason === "NotFound";
}

/** 409 AlreadyExists. */
export function isAlreadyExists(error: unknown): boolean {
  return error instanceof ApiError && error.reason === "AlreadyExists";
}

/** 409 Conflict (a stale resourceVersion or a failed precondition). */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.reason === "Conflict";
}

/** A create refused because its namespace is being deleted (cause `NamespaceTerminating`). */
export function isNamespaceTerminating(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.details?.causes ?? []).some((c) => c.reason === "NamespaceTerminating")
  );
}

/** 410 Expired or Gone: the requested revision is no longer available; relist. */
export function isResourceExpired(error: unknown): boolean {
  return codeOf(error) === 410;
}

/** 429 TooManyRequests (rate limits, PodDisruptionBudgets refusing an eviction). */
export function isTooManyRequests(error: unknown): boolean {
  return codeOf(error) === 429;
}

/** The 504 a list gets when asked for a revision the server has not reached. */
export function isTooLargeResourceVersion(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.code === 504 &&
    (error.details?.causes ?? []).some((cause) => cause.reason === "ResourceVersionTooLarge")
  );
}
