import { GrpcError } from "./grpc/status.ts";

/**
 * What an etcd client error means for the caller:
 * - `compacted` / `future`: the requested revision is compacted / not yet written (etcd's
 *   ErrCompacted / ErrFutureRev);
 * - `unreachable`: the request never left this process (no connection to the member), so
 *   retrying it elsewhere is safe even for a write;
 * - `transient`: the member or the cluster failed while the request was out (connection lost,
 *   no leader, request timed out in raft); a read may be retried, a write's outcome is unknown;
 * - `timeout`: the deadline passed;
 * - `closed`: the client was closed;
 * - `other`: anything else (a bug or a misconfiguration), passed through unchanged.
 */
export type EtcdFailure =
  | "compacted"
  | "future"
  | "unreachable"
  | "transient"
  | "timeout"
  | "closed"
  | "other";

const transientMessages = [
  "UNAVAILABLE",
  "etcdserver: request timed out",
  "etcdserver: leader changed",
  "etcdserver: no leader",
  "etcdserver: too many requests",
  "etcdserver: server stopped",
  "etcdserver: request cancelled",
  "etcdserver: not capable",
  "Connection dropped",
  "ECONNRESET",
];

/**
 * Classifies an error thrown by the etcd client (`GrpcError`s, whose messages are gRPC's
 * `"<code> <NAME>: <grpc-message>"`, etcd's reasons being `etcdserver: …`).
 */
export function classifyEtcdError(error: unknown): EtcdFailure {
  if (!(error instanceof Error)) return "other";
  const message = error.message;
  if (message.includes("required revision has been compacted")) return "compacted";
  if (message.includes("required revision is a future revision")) return "future";
  if (message.includes("already closed")) return "closed";
  if (error instanceof GrpcError && !error.sent) return "unreachable";
  if (message.includes("No connection established") || message.includes("ECONNREFUSED")) {
    return "unreachable";
  }
  if (message.includes("DEADLINE_EXCEEDED") || message.includes("Deadline exceeded")) {
    return "timeout";
  }
  if (transientMessages.some((m) => message.includes(m))) return "transient";
  return "other";
}

/** TLS failures as Node and OpenSSL word them: an untrusted or missing certificate, an alert. */
const tlsMessages =
  /certificate|SSL routines|ssl3_|alert|handshake|self[- ]signed|ERR_TLS|ERR_SSL|Hostname\/IP does not match/i;

/**
 * Whether a connection failed in its TLS handshake (the member's certificate was not trusted,
 * or the member refused ours), not for want of a listener.
 */
export function isTlsFailure(error: unknown): boolean {
  return error instanceof Error && tlsMessages.test(error.message);
}

/** The error's first line, for a Status message. */
export function briefMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n")[0] ?? text;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
