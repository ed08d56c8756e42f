import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { errorMessage } from "../util/index.ts";
import { TransportError } from "./errors.ts";

/** How to reach one server: the parsed URL, the connection pool and the fixed headers. */
export interface Connection {
  readonly base: URL;
  /** The parts of `base` each request goes to, worked out once (no URL per request). */
  readonly target: { readonly protocol: string; readonly hostname: string; readonly port: string };
  readonly agent: HttpAgent;
  readonly headers: Readonly<Record<string, string>>;
  /** Non-watch requests fail after this much socket inactivity (ms); 0 for none. */
  readonly timeoutMs: number;
}

export interface ConnectionOptions {
  readonly server: string;
  readonly token?: string;
  readonly ca?: string | Uint8Array;
  /** PEM client certificate and its key, presented in the TLS handshake. */
  readonly cert?: string;
  readonly key?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly userAgent: string;
  readonly timeoutMs: number;
}

/** Builds the keep-alive pool and headers for a server. No I/O happens until the first request. */
export function newConnection(options: ConnectionOptions): Connection {
  const base = new URL(options.server);
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new TypeError(
      `Cannot use server ${JSON.stringify(options.server)}: the URL must start with http:// or https://`,
    );
  }
  const pool = { keepAlive: true, keepAliveMsecs: 30_000, maxFreeSockets: 32 };
  const agent =
    base.protocol === "https:"
      ? new HttpsAgent({
          ...pool,
          ...(options.ca === undefined ? {} : { ca: Buffer.from(options.ca).toString("utf8") }),
          ...(options.cert === undefined || options.key === undefined
            ? {}
            : { cert: options.cert, key: options.key }),
          rejectUnauthorized: options.insecureSkipTlsVerify !== true,
        })
      : new HttpAgent(pool);
  const headers: Record<string, string> = {
    Accept: "application/json",
    "User-Agent": options.userAgent,
  };
  if (options.token !== undefined && options.token !== "") {
    headers["Authorization"] = `Bearer ${options.token}`;
  }
  // An IPv6 literal is bracketed in a URL but not in a socket address.
  const hostname = base.hostname.startsWith("[") ? base.hostname.slice(1, -1) : base.hostname;
  const target = { protocol: base.protocol, hostname, port: base.port };
  return { base, target, agent, headers, timeoutMs: options.timeoutMs };
}

export interface HttpRequest {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path and query: `/api/v1/pods?watch=true`. */
  readonly path: string;
  /** A JSON text. */
  readonly body?: string;
  readonly contentType?: string;
  /** Long-running (watch): no inactivity timeout. */
  readonly stream?: boolean;
  readonly signal: AbortSignal;
}

/** Methods that may be sent twice without changing the outcome (RFC 9110 idempotent methods). */
const idempotentMethods: ReadonlySet<string> = new Set(["GET", "PUT", "DELETE"]);

/**
 * Sends a request and resolves once the response headers arrive. Network failures reject with a
 * TransportError; aborting `signal` rejects with its reason. An idempotent request that fails
 * because the server had closed the pooled keep-alive connection it went out on (a restart, an
 * idle timeout) is sent once more on a new connection, as Go's transport does.
 */
export async function send(connection: Connection, spec: HttpRequest): Promise<IncomingMessage> {
  try {
    return await sendOnce(connection, spec);
  } catch (error: unknown) {
    if (!(error instanceof StaleConnectionError) || !idempotentMethods.has(spec.method)) {
      throw error instanceof StaleConnectionError ? error.transportError : error;
    }
  }
  try {
    return await sendOnce(connection, spec);
  } catch (error: unknown) {
    throw error instanceof StaleConnectionError ? error.transportError : error;
  }
}

/** A reset on a reused pooled connection: the server closed it before our request arrived. */
class StaleConnectionError extends Error {
  readonly transportError: TransportError;

  constructor(transportError: TransportError) {
    super(transportError.message, { cause: transportError });
    this.name = "StaleConnectionError";
    this.transportError = transportError;
  }
}

function sendOnce(connection: Connection, spec: HttpRequest): Promise<IncomingMessage> {
  const describe = `${spec.method} ${spec.path}`;
  return new Promise<IncomingMessage>((resolve, reject) => {
    if (spec.signal.aborted) {
      reject(spec.signal.reason);
      return;
    }
    const headers: Record<string, string | number> = { ...connection.headers };
    if (spec.body !== undefined) {
      headers["Content-Type"] = spec.contentType ?? "application/json";
      headers["Content-Length"] = Buffer.byteLength(spec.body);
    }
    const { target } = connection;
    const requestFn = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = requestFn({
      ...target,
      path: spec.path,
      method: spec.method,
      headers,
      agent: connection.agent,
      signal: spec.signal,
    });
    if (spec.stream !== true && connection.timeoutMs > 0) {
      req.setTimeout(connection.timeoutMs, () => {
        req.destroy(
          new TransportError(
            `Cannot ${describe}: no answer from ${connection.base.origin} in ${connection.timeoutMs}ms`,
            "ETIMEDOUT",
          ),
        );
      });
    }
    req.once("response", resolve);
    req.once("error", (error: unknown) => {
      if (spec.signal.aborted) {
        reject(spec.signal.reason);
        return;
      }
      const transportError = asTransportError(error, describe);
      reject(
        req.reusedSocket && transportError.code === "ECONNRESET"
          ? new StaleConnectionError(transportError)
          : transportError,
      );
    });
    req.end(spec.body);
  });
}

/**
 * Reads a whole response body as text; a connection lost midway is a TransportError. Listens for
 * the stream's events rather than iterating it: most answers are one chunk, and an async
 * iterator costs more than the read itself.
 */
export function readText(res: IncomingMessage, describe: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on("data", (chunk: Buffer) => chunks.push(chunk));
    res.once("end", () => {
      const only = chunks.length === 1 ? chunks[0] : undefined;
      resolve((only ?? Buffer.concat(chunks)).toString("utf8"));
    });
    res.once("error", (error: unknown) => reject(asTransportError(error, describe)));
    res.once("close", () => {
      if (!res.complete) reject(asTransportError(new Error("aborted"), describe));
    });
  });
}

/** Wraps a socket error (ECONNREFUSED, ECONNRESET, …) as a TransportError; keeps TransportErrors. */
export function asTransportError(error: unknown, describe: string): TransportError {
  if (error instanceof TransportError) return error;
  const code =
    error instanceof Error && "code" in error && typeof error.code === "string"
      ? error.code
      : "ECONNRESET";
  const message = errorMessage(error);
  return new TransportError(`Cannot ${describe}: ${message}`, code, { cause: error });
}

/** The texts of `Warning: 299 - "text"` response headers. */
export function warningsOf(res: IncomingMessage): string[] {
  const header = res.headers["warning"];
  if (header === undefined) return [];
  const texts: string[] = [];
  for (const value of Array.isArray(header) ? header : [header]) {
    for (const match of value.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) {
      texts.push((match[1] ?? "").replace(/\\(.)/g, "$1"));
    }
  }
  return texts;
}
