/** gRPC status codes (grpc/doc/statuscodes.md), by number. */
const codeNames = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  PERMISSION_DENIED: 7,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/** The name of gRPC status `code` (`UNKNOWN` for codes outside the table). */
export function statusName(code: number): string {
  return codeNames[code] ?? "UNKNOWN";
}

/**
 * A failed call: the gRPC status from the server's trailers (`grpc-status`, `grpc-message`),
 * or one this client gave the call (UNAVAILABLE without a connection, DEADLINE_EXCEEDED,
 * CANCELLED). The message reads like grpc-js's, `"14 UNAVAILABLE: <details>"`.
 */
export class GrpcError extends Error {
  override readonly name = "GrpcError";
  /** The gRPC status code. */
  readonly code: number;
  /** `grpc-message`, or this client's explanation. */
  readonly details: string;
  /**
   * Whether the request may have reached the server. False only when it surely did not (no
   * connection, or the server refused the stream unprocessed): then even a write may be
   * retried elsewhere.
   */
  readonly sent: boolean;

  constructor(code: number, details: string, sent: boolean, options?: ErrorOptions) {
    super(`${code} ${statusName(code)}: ${details}`, options);
    this.code = code;
    this.details = details;
    this.sent = sent;
  }
}

/** `grpc-message` is percent-encoded (gRPC over HTTP/2 spec); a bad escape is kept as is. */
export function decodeGrpcMessage(value: string | undefined): string {
  if (value === undefined) return "";
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
