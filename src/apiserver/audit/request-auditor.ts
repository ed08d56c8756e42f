import type { IncomingMessage, ServerResponse } from "node:http";
import { withoutManagedFields } from "../../api/index.ts";
import { isPlainObject } from "../../util/index.ts";
import type { UserInfo } from "../admission/index.ts";
import type { RequestAudit } from "../handlers/scope.ts";
import type { RequestInfo } from "../http/request-info.ts";
import {
  type AuditUser,
  type EventFields,
  eventHead,
  newMicroTimeFormatter,
  type ObjectReference,
  type ResponseStatus,
  sourceIPsOf,
  stageLine,
  userAgentOf,
} from "./event.ts";
import {
  type AuditLevel,
  type AuditPolicy,
  type AuditStage,
  evaluatePolicy,
  firstSegment,
  type RequestAuditConfig,
} from "./policy.ts";

/** Where finished event lines go (the buffered log). */
export interface AuditSink {
  /** Takes one event line (no newline); must not block. */
  process(line: string): void;
}

/** A user with the optional fields authenticators may know. */
type FullUser = UserInfo & {
  readonly uid?: string;
  readonly extra?: Readonly<Record<string, readonly string[]>>;
};

export interface AuditingOptions {
  readonly policy: AuditPolicy;
  readonly sink: AuditSink;
  /** Epoch milliseconds now, with a fraction for microseconds. */
  readonly now: () => number;
  /** Counts each request's level (`apiserver_audit_level_total`). @default none */
  readonly observeLevel?: (level: AuditLevel) => void;
}

/** What `begin` needs to know about a request. */
export interface AuditBegin {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly info: RequestInfo;
  /** The authenticated user (before impersonation). */
  readonly user: FullUser;
  readonly auditId: string;
  /** Epoch milliseconds when the request arrived. @default now */
  readonly receivedAt?: number;
  /** Watches and other long-running requests also get a ResponseStarted event. */
  readonly longRunning: boolean;
}

/** The audit log's view of the server: one auditor per audited request. */
export interface Auditing {
  /**
   * Evaluates the policy for the request; undefined when its level is None. Otherwise writes the
   * RequestReceived event (unless omitted) and returns the request's auditor, which writes the
   * other stages as the response goes.
   */
  begin(input: AuditBegin): RequestAuditor | undefined;
  /**
   * Upstream's failed-authentication audit: one ResponseStarted event with code 401 and which
   * credentials were tried, for a request that authenticated as nobody.
   */
  failedAuthentication(input: Omit<AuditBegin, "user" | "longRunning">): void;
}

const levelRank: Readonly<Record<AuditLevel, number>> = {
  None: 0,
  Metadata: 1,
  Request: 2,
  RequestResponse: 3,
};

/** Auditing with a policy, writing to `sink`. */
export function newAuditing(auditingOptions: AuditingOptions): Auditing {
  const options = { ...auditingOptions, time: newMicroTimeFormatter() };
  return {
    begin(input) {
      const config = evaluatePolicy(options.policy, { user: input.user, info: input.info });
      options.observeLevel?.(config.level);
      if (config.level === "None") return undefined;
      const auditor = new RequestAuditor(
        options,
        config,
        fieldsOf(input, config.level, input.user, input.receivedAt ?? options.now()),
      );
      auditor.stage("RequestReceived", 0);
      if (levelRank[config.level] >= levelRank.RequestResponse && !input.longRunning) {
        auditor.captureResponse(input.res);
      }
      if (input.longRunning) auditor.watchResponseStart(input.res);
      return auditor;
    },
    failedAuthentication(input) {
      const config = evaluatePolicy(options.policy, { user: undefined, info: input.info });
      options.observeLevel?.(config.level);
      if (config.level === "None") return;
      const auditor = new RequestAuditor(
        options,
        config,
        fieldsOf(input, config.level, undefined, input.receivedAt ?? options.now()),
      );
      auditor.logResponseStatus({ message: authMethodsOf(input.req), code: 401 });
      auditor.stage("ResponseStarted", options.now());
    },
  };
}

function fieldsOf(
  input: Omit<AuditBegin, "user" | "longRunning">,
  level: AuditLevel,
  user: FullUser | undefined,
  receivedAt: number,
): MutableFields {
  const { req, info } = input;
  const userAgent = userAgentOf(req);
  return {
    level,
    auditID: input.auditId,
    requestURI: req.url ?? "/",
    verb: info.verb,
    user: user === undefined ? {} : auditUserOf(user),
    sourceIPs: sourceIPsOf(req),
    ...(userAgent === undefined ? {} : { userAgent }),
    ...(info.kind === "resource"
      ? {
          objectRef: {
            resource: info.resource,
            namespace: info.namespace,
            name: info.name,
            apiGroup: info.group,
            apiVersion: info.version,
            subresource: firstSegment(info.subresource),
          },
        }
      : {}),
    requestReceivedTimestamp: receivedAt,
    annotations: {},
  };
}

/** The user as an audit event records it. */
export function auditUserOf(user: FullUser): AuditUser {
  return {
    username: user.username,
    ...(user.uid === undefined ? {} : { uid: user.uid }),
    groups: user.groups,
    ...(user.extra === undefined ? {} : { extra: user.extra }),
  };
}

/** Upstream's `getAuthMethods`: which credentials a request that failed authentication sent. */
function authMethodsOf(req: IncomingMessage): string {
  const methods: string[] = [];
  const authorization = (req.headers.authorization ?? "").trim();
  const [scheme, ...rest] = authorization.split(" ");
  if (scheme?.toLowerCase() === "basic") methods.push("basic");
  if (scheme?.toLowerCase() === "bearer" && rest.join(" ").trim() !== "") methods.push("bearer");
  const socket = req.socket as { getPeerCertificate?: () => { raw?: unknown } };
  if (socket.getPeerCertificate?.()?.raw !== undefined) methods.push("x509");
  return methods.length > 0
    ? `Authentication failed, attempted: ${methods.join(", ")}`
    : "Authentication failed, no credentials provided";
}

/** The auditing options plus the timestamp formatter its auditors share. */
type AuditorOptions = AuditingOptions & { readonly time: (epochMs: number) => string };

type MutableFields = Omit<EventFields, "impersonatedUser" | "objectRef" | "annotations"> & {
  impersonatedUser?: AuditUser;
  objectRef?: ObjectReference;
  annotations: Record<string, string>;
};

/** The largest response body recorded as `responseObject`; bigger ones are left out. */
const maxCapturedBytes = 16 * 1024 * 1024;

/**
 * One audited request: collects what handlers and filters report and writes the event at each
 * stage (RequestReceived, ResponseStarted for long-running requests, ResponseComplete), skipping
 * the stages the policy omits.
 */
export class RequestAuditor implements RequestAudit {
  readonly config: RequestAuditConfig;
  readonly #options: AuditorOptions;
  readonly #fields: MutableFields;
  /** The encoded fields every stage shares; undefined once one of them changed. */
  #head: string | undefined;
  #responseStatus: ResponseStatus | undefined;
  #requestObject: string | undefined;
  #captured: (string | Buffer)[] | undefined;
  #capturedBytes = 0;
  #contentType: (() => string | undefined) | undefined;
  #completed = false;

  constructor(options: AuditorOptions, config: RequestAuditConfig, fields: MutableFields) {
    this.#options = options;
    this.config = config;
    this.#fields = fields;
  }

  get annotations(): Record<string, string> {
    return this.#fields.annotations;
  }

  logRequestObject(object: Readonly<Record<string, unknown>>): void {
    const ref = this.#fields.objectRef;
    const meta = object["metadata"];
    if (ref !== undefined && isPlainObject(meta)) {
      for (const field of ["namespace", "name", "uid", "resourceVersion"] as const) {
        const value = meta[field];
        if ((ref[field] ?? "") === "" && typeof value === "string" && value !== "") {
          ref[field] = value;
          this.#head = undefined;
        }
      }
    }
    if (levelRank[this.config.level] < levelRank.Request) return;
    this.#requestObject = JSON.stringify(
      this.config.omitManagedFields ? withoutAnyManagedFields(object) : object,
    );
  }

  logRequestPatch(patch: unknown): void {
    if (levelRank[this.config.level] < levelRank.Request) return;
    this.#requestObject = JSON.stringify(patch);
  }

  /** The user the request acts as after impersonation. */
  impersonated(user: FullUser): void {
    this.#fields.impersonatedUser = auditUserOf(user);
    this.#head = undefined;
  }

  /** The Status the response carries (failures), recorded as `responseStatus`. */
  logResponseStatus(status: {
    readonly status?: string;
    readonly message?: string;
    readonly reason?: string;
    readonly details?: unknown;
    readonly code: number;
  }): void {
    this.#responseStatus = {
      metadata: {},
      ...(status.status === undefined ? {} : { status: status.status }),
      ...(status.message === undefined ? {} : { message: status.message }),
      ...(status.reason === undefined ? {} : { reason: status.reason }),
      ...(status.details === undefined ? {} : { details: status.details }),
      code: status.code,
    };
  }

  /**
   * Writes the event for `stage` (unless the policy omits it), stamped `at` (epoch ms); the
   * RequestReceived event is stamped with the time the request arrived.
   */
  stage(stage: AuditStage, at: number): void {
    if (this.config.omitStages.includes(stage)) return;
    const requestObject = stage === "RequestReceived" ? undefined : this.#requestObject;
    const responseObject = stage === "ResponseComplete" ? this.#responseObject() : undefined;
    this.#head ??= eventHead(this.#fields);
    this.#options.sink.process(
      stageLine(
        this.#head,
        this.#fields,
        {
          stage,
          stageTimestamp: stage === "RequestReceived" ? this.#fields.requestReceivedTimestamp : at,
          ...(this.#responseStatus === undefined || stage === "RequestReceived"
            ? {}
            : { responseStatus: this.#responseStatus }),
          ...(requestObject === undefined ? {} : { requestObject }),
          ...(responseObject === undefined ? {} : { responseObject }),
        },
        this.#options.time,
      ),
    );
  }

  /** The response is done (or its client went away): the ResponseComplete event, once. */
  complete(code: number): void {
    if (this.#completed) return;
    this.#completed = true;
    this.#responseStatus ??= { metadata: {}, code };
    this.stage("ResponseComplete", this.#options.now());
  }

  /** Records the body of a RequestResponse-level response as it is written. */
  captureResponse(res: ServerResponse): void {
    this.#captured = [];
    this.#contentType = () => {
      const type = res.getHeader("content-type");
      return typeof type === "string" ? type : undefined;
    };
    const write = res.write;
    const end = res.end;
    const keep = (chunk: unknown): void => {
      if (this.#captured === undefined) return;
      if (typeof chunk !== "string" && !Buffer.isBuffer(chunk)) return;
      this.#capturedBytes += chunk.length;
      if (this.#capturedBytes > maxCapturedBytes) this.#captured = undefined;
      else this.#captured.push(chunk);
    };
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]): boolean {
      keep(chunk);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse["write"];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      if (typeof chunk !== "function") keep(chunk);
      return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse["end"];
  }

  /**
   * For long-running requests: the ResponseStarted event when the response's headers go out
   * (a watch's 200, before its first event), with the status code.
   */
  watchResponseStart(res: ServerResponse): void {
    const writeHead = res.writeHead;
    const auditor = this;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const code = typeof args[0] === "number" ? args[0] : this.statusCode;
      auditor.#responseStatus ??= { metadata: {}, code };
      auditor.stage("ResponseStarted", auditor.#options.now());
      res.writeHead = writeHead;
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse["writeHead"];
  }

  #responseObject(): string | undefined {
    const chunks = this.#captured;
    if (chunks === undefined || chunks.length === 0) return undefined;
    const type = (this.#contentType?.() ?? "").split(";")[0]?.trim();
    if (type !== "application/json") return undefined;
    const text = chunks.map((c) => (typeof c === "string" ? c : c.toString("utf8"))).join("");
    if (!this.config.omitManagedFields) return text;
    try {
      return JSON.stringify(withoutAnyManagedFields(JSON.parse(text) as Record<string, unknown>));
    } catch (error: unknown) {
      if (error instanceof SyntaxError) return undefined;
      throw error;
    }
  }
}

/** `object` without `metadata.managedFields`, nor on any item of a list (upstream's rule). */
function withoutAnyManagedFields(
  object: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const stripped = withoutManagedFields(object);
  const items = stripped["items"];
  if (!Array.isArray(items)) return stripped;
  return {
    ...stripped,
    items: items.map((item: unknown) => (isPlainObject(item) ? withoutManagedFields(item) : item)),
  };
}
