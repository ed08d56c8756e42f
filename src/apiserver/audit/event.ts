import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { AuditLevel, AuditStage } from "./policy.ts";

/** authentication.k8s.io/v1 UserInfo as an audit event carries it. */
export interface AuditUser {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** audit.k8s.io/v1 ObjectReference: what a resource request addressed. */
export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded fields of the response's metav1.Status (upstream copies only these). */
export interface ResponseStatus {
  readonly metadata: Record<string, never>;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: unknown;
  readonly code: number;
}

/** The fields of an audit.k8s.io/v1 Event other than its stage and objects. */
export interface EventFields {
  readonly level: AuditLevel;
  readonly auditID: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: AuditUser;
  readonly impersonatedUser?: AuditUser;
  readonly sourceIPs: readonly string[];
  readonly userAgent?: string;
  readonly objectRef?: ObjectReference;
  /** Epoch milliseconds, with a fraction for microseconds. */
  readonly requestReceivedTimestamp: number;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** One stage of an event: its own fields, and the objects already encoded as JSON text. */
export interface StageFields {
  readonly stage: AuditStage;
  readonly stageTimestamp: number;
  readonly responseStatus?: ResponseStatus;
  readonly requestObject?: string;
  readonly responseObject?: string;
}

/**
 * One audit.k8s.io/v1 Event as a JSON line (no newline), fields in upstream's order and with its
 * omitempty rules; request and response objects are spliced in as the JSON text they are.
 */
export function eventLine(event: EventFields, stage: StageFields): string {
  return stageLine(eventHead(event), event, stage, microTime);
}

/**
 * The part of an event's line that is the same at every stage (from `requestURI` to
 * `objectRef`), so a request encodes it once for all its stages.
 */
export function eventHead(event: EventFields): string {
  let head = `,"requestURI":${JSON.stringify(event.requestURI)},"verb":${JSON.stringify(event.verb)},"user":${userJson(event.user)}`;
  if (event.impersonatedUser !== undefined) {
    head += `,"impersonatedUser":${userJson(event.impersonatedUser)}`;
  }
  if (event.sourceIPs.length > 0) head += `,"sourceIPs":${JSON.stringify(event.sourceIPs)}`;
  if (event.userAgent !== undefined && event.userAgent !== "") {
    head += `,"userAgent":${JSON.stringify(event.userAgent)}`;
  }
  if (event.objectRef !== undefined) head += `,"objectRef":${objectRefJson(event.objectRef)}`;
  return head;
}

/** The whole line of one stage, given the event's `eventHead`; `time` formats timestamps. */
export function stageLine(
  head: string,
  event: EventFields,
  stage: StageFields,
  time: (epochMs: number) => string,
): string {
  let line = `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"${event.level}","auditID":${JSON.stringify(event.auditID)},"stage":"${stage.stage}"${head}`;
  if (stage.responseStatus !== undefined) {
    line += `,"responseStatus":${statusJson(stage.responseStatus)}`;
  }
  if (stage.requestObject !== undefined) line += `,"requestObject":${stage.requestObject}`;
  if (stage.responseObject !== undefined) line += `,"responseObject":${stage.responseObject}`;
  line += `,"requestReceivedTimestamp":"${time(event.requestReceivedTimestamp)}","stageTimestamp":"${time(stage.stageTimestamp)}"`;
  if (event.annotations !== undefined && Object.keys(event.annotations).length > 0) {
    line += `,"annotations":${JSON.stringify(event.annotations)}`;
  }
  return `${line}}`;
}

function userJson(user: AuditUser): string {
  const parts: string[] = [];
  if (user.username !== undefined && user.username !== "") {
    parts.push(`"username":${JSON.stringify(user.username)}`);
  }
  if (user.uid !== undefined && user.uid !== "") parts.push(`"uid":${JSON.stringify(user.uid)}`);
  if (user.groups !== undefined && user.groups.length > 0) {
    parts.push(`"groups":${JSON.stringify(user.groups)}`);
  }
  if (user.extra !== undefined && Object.keys(user.extra).length > 0) {
    parts.push(`"extra":${JSON.stringify(user.extra)}`);
  }
  return `{${parts.join(",")}}`;
}

const objectRefFields = [
  "resource",
  "namespace",
  "name",
  "uid",
  "apiGroup",
  "apiVersion",
  "resourceVersion",
  "subresource",
] as const;

function objectRefJson(ref: ObjectReference): string {
  let out = "";
  for (const field of objectRefFields) {
    const value = ref[field];
    if (value === undefined || value === "") continue;
    out += `${out === "" ? "" : ","}"${field}":${JSON.stringify(value)}`;
  }
  return `{${out}}`;
}

function statusJson(status: ResponseStatus): string {
  let out = `{"metadata":{}`;
  if (status.status !== undefined && status.status !== "") out += `,"status":"${status.status}"`;
  if (status.message !== undefined && status.message !== "") {
    out += `,"message":${JSON.stringify(status.message)}`;
  }
  if (status.reason !== undefined && status.reason !== "") {
    out += `,"reason":${JSON.stringify(status.reason)}`;
  }
  if (status.details !== undefined) out += `,"details":${JSON.stringify(status.details)}`;
  return `${out},"code":${status.code}}`;
}

/** metav1.MicroTime: RFC 3339 in UTC with six fractional digits. */
export function microTime(epochMs: number): string {
  return newMicroTimeFormatter()(epochMs);
}

/**
 * `microTime` with the text of the last whole second remembered: events come many to a second,
 * and `Date#toISOString` is the expensive part.
 */
export function newMicroTimeFormatter(): (epochMs: number) => string {
  let cachedSecond = Number.NaN;
  let cachedPrefix = "";
  return (epochMs) => {
    const micros = Math.floor(epochMs * 1000);
    const second = Math.floor(micros / 1_000_000);
    if (second !== cachedSecond) {
      cachedSecond = second;
      cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    }
    return `${cachedPrefix}${String(micros - second * 1_000_000).padStart(6, "0")}Z`;
  };
}

/** Upstream truncates a User-Agent longer than this, adding `...TRUNCATED`. */
const maxUserAgentLength = 1024;

/** The request's User-Agent as upstream records it. */
export function userAgentOf(req: IncomingMessage): string | undefined {
  const agent = req.headers["user-agent"];
  if (agent === undefined || agent.length <= maxUserAgentLength) return agent;
  return `${agent.slice(0, maxUserAgentLength)}...TRUNCATED`;
}

/**
 * Upstream's `SourceIPs`: the X-Forwarded-For chain, then X-Real-Ip if not in it, then the
 * connection's address unless it is the chain's last.
 */
export function sourceIPsOf(req: IncomingMessage): string[] {
  const ips: string[] = [];
  const forwarded = req.headers["x-forwarded-for"];
  const forwardedText = Array.isArray(forwarded) ? forwarded.join(",") : forwarded;
  if (forwardedText !== undefined && forwardedText !== "") {
    for (const part of forwardedText.split(",")) {
      const ip = normalizeIp(part.trim());
      if (ip !== undefined) ips.push(ip);
    }
  }
  const real = req.headers["x-real-ip"];
  if (typeof real === "string" && real !== "") {
    const ip = normalizeIp(real.trim());
    if (ip !== undefined && !ips.includes(ip)) ips.push(ip);
  }
  const remote = normalizeIp(req.socket.remoteAddress ?? "");
  if (remote !== undefined && ips[ips.length - 1] !== remote) ips.push(remote);
  return ips;
}

/** An IP address as Go prints it (IPv4-mapped IPv6 as IPv4); undefined if not an address. */
function normalizeIp(text: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  if (mapped?.[1] !== undefined) return mapped[1];
  return isIP(text) === 0 ? undefined : text;
}
