import type { IncomingMessage, ServerResponse } from "node:http";
import { badRequest, methodNotAllowed, pathNotFound } from "../api/index.ts";
import type { Storage } from "../storage/index.ts";
import type { Clock, Logger } from "../util/index.ts";
import type { UserInfo } from "./admission/index.ts";
import type { Authenticator } from "./authn.ts";
import {
  type Authorizer,
  attributesOf,
  forbiddenError,
  hasImpersonation,
  impersonate,
} from "./authz/index.ts";
import { type DashboardAssets, isDashboardPath } from "./dashboard-assets.ts";
import {
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  serverVersion,
} from "./discovery/discovery.ts";
import { handleNodeProxy } from "./handlers/node-proxy.ts";
import { handlePatch } from "./handlers/patch.ts";
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
import {
  type MaxInFlightLimiter,
  maxInFlightMessage,
  maxInFlightRetryAfterSeconds,
} from "./max-in-flight.ts";
import { type ApiServerMetrics, reportedVerb } from "./metrics.ts";
import { OpenApiDocuments } from "./openapi/openapi.ts";
import { handleReview, reviewResources } from "./registry/reviews.ts";

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
  /** Seats for requests in flight (`--max-requests-inflight`). */
  readonly limiter: MaxInFlightLimiter;
  /** The dashboard's bundle, served at `/ui/` without authentication; none: `/ui/` is a 404. */
  readonly dashboard?: DashboardAssets;
}

/** Builds the request listener: routing, authentication, in-flight limits, metrics, errors. */
export function newHttpHandler(
  deps: HttpHandlerDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
  const openapi = new OpenApiDocuments(deps.registry);
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
    const exchange: Exchange = { req, res, info, started, warnings: [] };
    res.setHeader("Audit-Id", deps.random.uuid());
    res.on("finish", () => recordRequest(deps, httpLog, exchange));
    // Upstream's filter order: authentication, then the in-flight limit, then the handler.
    let user: UserInfo;
    try {
      user = deps.authenticate(req);
      if (hasImpersonation(req.headers)) user = impersonate(req.headers, user, deps.authorizer);
    } catch (error: unknown) {
      failRequest(deps, exchange, error);
      return;
    }
    const admission = deps.limiter.admit(info, user);
    if (admission.kind === "rejected") {
      deps.metrics.observeDropped(admission.requestKind);
      writeTooManyRequests(res);
      return;
    }
    if (admission.kind === "admitted") {
      const { seat } = admission;
      // `close` follows `finish`, and also comes when the client goes away first.
      res.on("close", () => seat.release());
    }
    // Upstream's WithAuthorization runs inside the in-flight limit; AlwaysAllow needs no attributes.
    if (deps.authorizer.mode !== "AlwaysAllow") {
      const attributes = attributesOf(info, user, pathname, query);
      const decision = deps.authorizer.authorize(attributes);
      if (!decision.allowed) {
        failRequest(deps, exchange, forbiddenError(attributes, decision.reason));
        return;
      }
    }
    serveRequest(deps, openapi, exchange, user, pathname, query).catch((error: unknown) =>
      failRequest(deps, exchange, error),
    );
  };
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

/** One request on its way through the listener. */
interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly info: RequestInfo;
  /** `process.hrtime.bigint()` when it arrived. */
  readonly started: bigint;
  /** Warnings for `Warning` headers, added to by handlers. */
  readonly warnings: string[];
}

async function serveRequest(
  deps: HttpHandlerDeps,
  openapi: OpenApiDocuments,
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
  const scope: RequestScope = { req, res, info, query, store, user, warnings };
  if (reviewResources.has(`${info.group}/${info.resource}`)) {
    if (!store.entry.definition.namespaced && info.namespace !== "") throw pathNotFound();
    await handleReview(deps, scope, deps.authorizer);
    return;
  }
  await serveResource(deps, scope);
}

/** Answers a failed request with its Status, logging server-side failures. */
function failRequest(deps: HttpHandlerDeps, exchange: Exchange, error: unknown): void {
  const apiError = writeError(exchange.res, error, exchange.warnings);
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

/**
 * Upstream's `tooManyRequests` in the max-in-flight filter: `Retry-After: 1` and Go's
 * `http.Error` answer, a plain-text line rather than a Status.
 */
function writeTooManyRequests(res: ServerResponse): void {
  res.setHeader("Retry-After", String(maxInFlightRetryAfterSeconds));
  writeText(res, 429, `${maxInFlightMessage}\n`);
}

async function serveResource(deps: HandlerDeps, scope: RequestScope): Promise<void> {
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
  deps: HandlerDeps,
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
    default:
      if (extra.includes("proxy") && /^proxy(\/|$)/.test(info.subresource)) {
        return handleNodeProxy(scope);
      }
      return unknownSubresource(scope);
  }
}

async function serveNonResource(
  deps: HttpHandlerDeps,
  openapi: OpenApiDocuments,
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
      writeJson(res, 200, openapi.index());
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
  if (path.startsWith("/openapi/v3/")) {
    const doc = openapi.document(path.slice("/openapi/v3/".length));
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
