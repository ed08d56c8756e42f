import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, badRequest, methodNotAllowed, pathNotFound } from "../api/index.ts";
import type { Storage } from "../storage/index.ts";
import type { Clock, Logger } from "../util/index.ts";
import type { UserInfo } from "./admission/index.ts";
import type { Auditing } from "./audit/index.ts";
import type { Authenticator } from "./authn.ts";
import {
  type Authorizer,
  attributesOf,
  forbiddenError,
  hasImpersonation,
  impersonate,
} from "./authz/index.ts";
import { type DashboardAssets, isDashboardPath } from "./dashboard-assets.ts";
import { deprecationWarning } from "./deprecations.ts";
import {
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  serverVersion,
} from "./discovery/discovery.ts";
import {
  type Deadlines,
  type RequestLimiter,
  requestTimeoutOf,
  type WatchLimiter,
} from "./flowcontrol/index.ts";
import { handleNodeProxy } from "./handlers/node-proxy.ts";
import { handlePatch } from "./handlers/patch.ts";
import { handlePodLog, refuseStream } from "./handlers/pod-log.ts";
import { handleGet, handleList, isWatchRequest } from "./handlers/read.ts";
import { handleScale } from "./handlers/scale.ts";
import type { HandlerDeps, RequestScope } from "./handlers/scope.ts";
import {
  handleBinding,
  handleEviction,
  handleFinalize,
  unknownSubresource,
} from "./handlers/subresources.ts";
import { handleWatch } from "./handlers/watch.ts";
import {
  handleCreate,
  handleDelete,
  handleDeleteCollection,
  handleUpdate,
} from "./handlers/write.ts";
import { parseAccept, wantsAggregatedDiscovery } from "./http/accept.ts";
import { parseRequestInfo, type RequestInfo, type ResourceRequest } from "./http/request-info.ts";
import { writeError, writeJson, writeText } from "./http/responses.ts";
import { parseRequestTarget } from "./http/target.ts";
import { isLongRunning } from "./max-in-flight.ts";
import { type ApiServerMetrics, reportedVerb } from "./metrics.ts";
import { OpenApiDocuments } from "./openapi/openapi.ts";
import { negotiateSwagger, SwaggerDocuments } from "./openapi/openapi-v2.ts";
import { handleReview, reviewResources } from "./registry/reviews.ts";
import {
  closeExchange,
  DeadlineAbort,
  type Exchange,
  newExchange,
  timeOut,
  whenAdmitted,
} from "./request-exchange.ts";
import {
  handleTokenRequest,
  type ServiceAccountTokens,
  serveIssuerDiscovery,
} from "./serviceaccount/index.ts";

export interface HttpHandlerDeps extends HandlerDeps {
  readonly logger: Logger;
  readonly metrics: ApiServerMetrics;
  readonly authenticate: Authenticator;
  /** Decides every authenticated request; impersonation headers are checked against it too. */
  readonly authorizer: Authorizer;
  /** `host:port` the server advertises in `/api`. */
  readonly address: () => string;
  /** Whether every component is up, for `/readyz`. */
  readonly isReady: () => boolean;
  readonly storage: Storage;
  readonly clock: Clock;
  /**
   * Seats for requests in flight: priority and fairness, or `--max-requests-inflight` and
   * `--max-mutating-requests-inflight` alone.
   */
  readonly limiter: RequestLimiter;
  /** Drives request deadlines. */
  readonly deadlines: Deadlines;
  /** `--request-timeout` for requests that are not long-running, in milliseconds. */
  readonly requestTimeoutMs: number;
  /** The per-user cap on open watches; none: no cap. */
  readonly watchLimiter?: WatchLimiter;
  /** The audit policy and log; none: nothing is audited. */
  readonly auditing?: Auditing;
  /** The dashboard's bundle, served at `/ui/` without authentication; none: `/ui/` is a 404. */
  readonly dashboard?: DashboardAssets;
  /**
   * Service account tokens: `serviceaccounts/token` and the issuer's discovery documents.
   * @default none (both 404)
   */
  readonly serviceAccountTokens?: ServiceAccountTokens;
}

/** The OpenAPI documents served: v3 per group/version, and the one Swagger 2.0 document. */
interface OpenApi {
  readonly v3: OpenApiDocuments;
  readonly v2: SwaggerDocuments;
}

/** Builds the request listener: routing, authentication, in-flight limits, metrics, errors. */
export function newHttpHandler(
  deps: HttpHandlerDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
  const openapi: OpenApi = {
    v3: new OpenApiDocuments(deps.registry),
    v2: new SwaggerDocuments(deps.registry),
  };
  // The verbosity is fixed when the logger is made: ask once, not on every request.
  const httpLog = deps.logger.v(4);
  // Per request, only anonymous arrows are made: named closures cost a `__name` call under tsx.
  return (req, res) => {
    const started = process.hrtime.bigint();
    const target = parseRequestTarget(req.url ?? "/");
    if (target === undefined) {
      // Node accepts request targets a URL parser rejects (`GET http://[/api`): answer, don't crash.
      writeError(res, badRequest(`invalid request URL ${JSON.stringify(req.url)}`), []);
      return;
    }
    const { pathname, query } = target;
    if (deps.dashboard !== undefined && isDashboardPath(pathname)) {
      serveDashboard(deps, deps.dashboard, req, res, pathname);
      return;
    }
    const method = req.method ?? "GET";
    let info: RequestInfo;
    try {
      // Only a target with a `%` escape can decode to something else (or fail to decode).
      const path = pathname.includes("%") ? decodeURIComponent(pathname) : pathname;
      info = parseRequestInfo(method, path, isWatchRequest(query));
    } catch (error: unknown) {
      if (!(error instanceof URIError)) {
        writeError(res, error, []);
        return;
      }
      // A path with a malformed escape names no resource.
      info = { kind: "nonResource", path: pathname, verb: method.toLowerCase() };
    }
    const exchange = newExchange(req, res, info, started);
    const auditId = deps.random.uuid();
    res.setHeader("Audit-Id", auditId);
    res.on("finish", () => recordRequest(deps, httpLog, exchange));
    // `close` follows `finish`, and also comes when the client goes away first.
    res.on("close", () => closeExchange(exchange));
    // Upstream's filter order: the request deadline, authentication, audit, impersonation,
    // priority and fairness (or the in-flight limit), authorization, then the handler.
    if (!isLongRunning(info)) {
      const timeoutMs = requestTimeoutOf(query, deps.requestTimeoutMs);
      if (timeoutMs instanceof ApiError) {
        failRequest(deps, exchange, timeoutMs);
        return;
      }
      exchange.deadline = deps.deadlines.add(deps.clock.now().getTime() + timeoutMs, () =>
        timeOut(exchange),
      );
      if (info.verb !== "get" && info.verb !== "list") exchange.abort = new DeadlineAbort();
    }
    let user: UserInfo;
    try {
      user = deps.authenticate(req);
    } catch (error: unknown) {
      deps.auditing?.failedAuthentication({ req, res, info, auditId });
      failRequest(deps, exchange, error);
      return;
    }
    if (deps.auditing !== undefined) {
      exchange.audit = deps.auditing.begin({
        req,
        res,
        info,
        user,
        auditId,
        longRunning: exchange.deadline === undefined,
      });
    }
    if (hasImpersonation(req.headers)) {
      try {
        user = impersonate(req.headers, user, deps.authorizer);
        exchange.audit?.impersonated(user);
      } catch (error: unknown) {
        failRequest(deps, exchange, error);
        return;
      }
    }
    const admission = deps.limiter.admit(info, user);
    whenAdmitted(
      exchange,
      admission,
      (kind) => deps.metrics.observeDropped(kind),
      () => authorizeAndServe(deps, openapi, exchange, user, pathname, query),
    );
  };
}

/**
 * Upstream's WithAuthorization (inside the in-flight limit; AlwaysAllow needs no attributes),
 * the watch cap, then the handler. A watch holds its priority-and-fairness seat only while it
 * is initialised: the handler subscribes before its first `await`, and the seat goes back then.
 */
function authorizeAndServe(
  deps: HttpHandlerDeps,
  openapi: OpenApi,
  exchange: Exchange,
  user: UserInfo,
  pathname: string,
  query: URLSearchParams,
): void {
  const { info } = exchange;
  if (deps.authorizer.mode !== "AlwaysAllow") {
    const attributes = attributesOf(info, user, pathname, query);
    const decision = deps.authorizer.authorize(attributes);
    if (exchange.audit !== undefined) {
      exchange.audit.annotations["authorization.k8s.io/decision"] = decision.allowed
        ? "allow"
        : "forbid";
      exchange.audit.annotations["authorization.k8s.io/reason"] = decision.reason;
    }
    if (!decision.allowed) {
      failRequest(deps, exchange, forbiddenError(attributes, decision.reason));
      return;
    }
  } else if (exchange.audit !== undefined) {
    exchange.audit.annotations["authorization.k8s.io/decision"] = "allow";
    exchange.audit.annotations["authorization.k8s.io/reason"] = "";
  }
  const watch = info.verb === "watch";
  if (watch && deps.watchLimiter !== undefined) {
    const ticket = deps.watchLimiter.open(user);
    if (ticket instanceof ApiError) {
      failRequest(deps, exchange, ticket);
      return;
    }
    exchange.closeWatch = () => ticket.close();
  }
  serveRequest(deps, openapi, exchange, user, pathname, query).catch((error: unknown) =>
    failRequest(deps, exchange, error),
  );
  if (watch) {
    exchange.seat?.release();
    exchange.seat = undefined;
  }
}

/** Static files of the dashboard: no authentication, no in-flight seat, no API metrics. */
function serveDashboard(
  deps: HttpHandlerDeps,
  dashboard: DashboardAssets,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): void {
  dashboard.serve(req, res, pathname).catch((error: unknown) => {
    deps.logger.error("Dashboard request failed", { uri: req.url, error });
    if (res.headersSent) res.destroy();
    else writeText(res, 500, "Internal Server Error\n");
  });
}

async function serveRequest(
  deps: HttpHandlerDeps,
  openapi: OpenApi,
  exchange: Exchange,
  user: UserInfo,
  pathname: string,
  query: URLSearchParams,
): Promise<void> {
  const { req, res, info, warnings } = exchange;
  if (info.kind === "nonResource") {
    await serveNonResource(deps, openapi, req, res, pathname, query);
    return;
  }
  const store = deps.registry.lookup(info.group, info.version, info.resource);
  if (store === undefined || (info.prefix === "api") !== (info.group === "")) throw pathNotFound();
  const deprecation = deprecationWarning(info.group, info.version, info.resource);
  if (deprecation !== undefined) warnings.push(deprecation);
  const scope: RequestScope = {
    req,
    res,
    info,
    query,
    store,
    user,
    warnings,
    audit: exchange.audit,
    signal: exchange.abort,
  };
  if (reviewResources.has(`${info.group}/${info.resource}`)) {
    if (!store.entry.definition.namespaced && info.namespace !== "") throw pathNotFound();
    await handleReview(deps, scope, deps.authorizer);
    return;
  }
  await serveResource(deps, scope);
}

/** Answers a failed request with its Status, logging server-side failures. */
function failRequest(deps: HttpHandlerDeps, exchange: Exchange, error: unknown): void {
  // After a timeout the client has its 504: what the abandoned handler does is dropped.
  if (exchange.timedOut) return;
  const apiError = writeError(exchange.res, error, exchange.warnings);
  exchange.audit?.logResponseStatus(apiError.toStatus());
  if (apiError.code >= 500) {
    deps.logger.error("Request failed", {
      uri: exchange.req.url,
      error: apiError.cause ?? apiError,
    });
  }
}

/** Metrics and the verbosity-4 access log line, once the response is sent. */
function recordRequest(
  deps: HttpHandlerDeps,
  httpLog: Pick<Logger, "info">,
  exchange: Exchange,
): void {
  const { req, res, info } = exchange;
  const seconds = Number(process.hrtime.bigint() - exchange.started) / 1e9;
  const resource = info.kind === "resource" ? info.resource : "";
  const subresource = info.kind === "resource" ? info.subresource : "";
  const verb =
    info.kind === "resource"
      ? reportedVerb(info.verb, subresource, req.headers["content-type"])
      : (req.method ?? "GET");
  deps.metrics.observeRequest(verb, resource, subresource, res.statusCode, seconds);
  httpLog.info("HTTP", {
    verb: info.verb,
    uri: req.url,
    status: res.statusCode,
    latency: `${(seconds * 1000).toFixed(2)}ms`,
    userAgent: req.headers["user-agent"],
  });
}

async function serveResource(deps: HttpHandlerDeps, scope: RequestScope): Promise<void> {
  const { info, store } = scope;
  const definition = store.entry.definition;
  if (!definition.namespaced && info.namespace !== "") throw pathNotFound();
  if (info.subresource !== "") {
    await serveSubresource(deps, scope, info);
    return;
  }
  switch (info.verb) {
    case "get":
      return handleGet(deps, scope);
    case "list":
      return handleList(deps, scope);
    case "watch":
      return handleWatch(deps, scope);
    case "create":
      if (info.name !== "") throw methodNotAllowed();
      return handleCreate(deps, scope);
    case "update":
      if (info.name === "") throw methodNotAllowed();
      return handleUpdate(deps, scope, "");
    case "patch":
      if (info.name === "") throw methodNotAllowed();
      return handlePatch(deps, scope, "");
    case "delete":
      return handleDelete(deps, scope);
    case "deletecollection":
      return handleDeleteCollection(deps, scope);
    default:
      throw methodNotAllowed();
  }
}

async function serveSubresource(
  deps: HttpHandlerDeps,
  scope: RequestScope,
  info: ResourceRequest,
): Promise<void> {
  const { store } = scope;
  const definition = store.entry.definition;
  const extra = store.entry.strategy.subresources ?? [];
  switch (info.subresource) {
    case "status":
      if (!definition.subresources.status) return unknownSubresource(scope);
      if (info.verb === "get") return handleGet(deps, scope);
      if (info.verb === "update") return handleUpdate(deps, scope, "status");
      if (info.verb === "patch") return handlePatch(deps, scope, "status");
      throw methodNotAllowed();
    case "scale":
      if (definition.subresources.scale === undefined) return unknownSubresource(scope);
      return handleScale(deps, scope);
    case "binding":
      if (!extra.includes("binding")) return unknownSubresource(scope);
      return handleBinding(deps, scope);
    case "eviction":
      if (!extra.includes("eviction")) return unknownSubresource(scope);
      return handleEviction(deps, scope);
    case "finalize":
      if (!extra.includes("finalize")) return unknownSubresource(scope);
      return handleFinalize(deps, scope);
    case "log":
      if (!extra.includes("log")) return unknownSubresource(scope);
      return handlePodLog(deps, scope);
    case "attach":
    case "exec":
    case "portforward":
      if (!extra.includes(info.subresource)) return unknownSubresource(scope);
      return refuseStream(scope);
    case "token":
      if (!extra.includes("token") || deps.serviceAccountTokens === undefined) {
        return unknownSubresource(scope);
      }
      return handleTokenRequest(deps, scope, deps.serviceAccountTokens);
    default:
      if (extra.includes("proxy") && /^proxy(\/|$)/.test(info.subresource)) {
        return handleNodeProxy(scope);
      }
      return unknownSubresource(scope);
  }
}

async function serveNonResource(
  deps: HttpHandlerDeps,
  openapi: OpenApi,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  query: URLSearchParams,
): Promise<void> {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (req.method !== "GET" && req.method !== "HEAD") throw methodNotAllowed();
  const accept = parseAccept(req.headers.accept);
  switch (path) {
    case "/healthz":
    case "/livez":
      writeText(res, 200, "ok");
      return;
    case "/readyz":
      if (deps.isReady()) writeText(res, 200, "ok");
      else writeText(res, 500, "[-]gantry not ready\nreadyz check failed");
      return;
    case "/version":
      writeJson(res, 200, serverVersion);
      return;
    case "/metrics":
      res.setHeader("Content-Type", deps.metrics.registry.contentType);
      res.end(await deps.metrics.registry.metrics());
      return;
    case "/api": {
      const aggregated = wantsAggregatedDiscovery(accept);
      if (aggregated !== undefined) {
        writeJson(res, 200, aggregatedDiscovery(deps.registry, true, aggregated), {
          contentType: aggregatedContentType(aggregated),
        });
      } else writeJson(res, 200, apiVersions(deps.address()));
      return;
    }
    case "/apis": {
      const aggregated = wantsAggregatedDiscovery(accept);
      if (aggregated !== undefined) {
        writeJson(res, 200, aggregatedDiscovery(deps.registry, false, aggregated), {
          contentType: aggregatedContentType(aggregated),
        });
      } else writeJson(res, 200, apiGroupList(deps.registry));
      return;
    }
    case "/openapi/v3":
      writeJson(res, 200, openapi.v3.index());
      return;
    case "/openapi/v2":
      serveSwagger(req, res, openapi.v2);
      return;
    default:
      break;
  }
  if (path === "/api/v1") {
    writeJson(res, 200, apiResourceList(deps.registry, "", "v1"));
    return;
  }
  const groupMatch = /^\/apis\/([^/]+)$/.exec(path);
  if (groupMatch?.[1] !== undefined) {
    const group = apiGroup(deps.registry, groupMatch[1]);
    if (group === undefined) throw pathNotFound();
    writeJson(res, 200, group);
    return;
  }
  const gvMatch = /^\/apis\/([^/]+)\/([^/]+)$/.exec(path);
  if (gvMatch?.[1] !== undefined && gvMatch[2] !== undefined) {
    if (!deps.registry.hasGroupVersion(gvMatch[1], gvMatch[2])) throw pathNotFound();
    writeJson(res, 200, apiResourceList(deps.registry, gvMatch[1], gvMatch[2]));
    return;
  }
  if (serveIssuerDiscovery(res, path, deps.serviceAccountTokens?.discovery, deps.address())) {
    return;
  }
  if (path.startsWith("/openapi/v3/")) {
    const doc = openapi.v3.document(path.slice("/openapi/v3/".length));
    if (doc === undefined) throw pathNotFound();
    const immutable = query.get("hash") === doc.hash;
    res.setHeader("ETag", `"${doc.hash}"`);
    if (immutable) res.setHeader("Cache-Control", "public, immutable");
    res.setHeader("Content-Type", "application/json");
    res.end(doc.text);
    return;
  }
  throw pathNotFound();
}

/**
 * `GET /openapi/v2` as kube-openapi's handler serves it: JSON or protobuf by the Accept header
 * (406 for neither), `Vary: Accept`, the quoted ETag, and 304 for a matching If-None-Match.
 */
function serveSwagger(
  req: IncomingMessage,
  res: ServerResponse,
  documents: SwaggerDocuments,
): void {
  res.setHeader("Vary", "Accept");
  const chosen = negotiateSwagger(req.headers.accept);
  if (chosen === undefined) {
    res.statusCode = 406;
    res.end();
    return;
  }
  const doc = documents.current();
  res.setHeader("Content-Type", chosen.contentType);
  res.setHeader("Etag", `"${doc.etag}"`);
  const matches = req.headers["if-none-match"]
    ?.split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === `"${doc.etag}"`);
  if (matches === true) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const body = chosen.form === "json" ? Buffer.from(doc.json) : doc.protobuf;
  res.setHeader("Content-Length", body.length);
  res.end(body);
}
