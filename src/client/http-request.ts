import { errorMessage } from "../util/index.ts";
import { TransportError } from "./errors.ts";
import { Http1Pool, type PoolResponse, StaleSocketError } from "./http1-pool.ts";

/** How to reach one server: the parsed URL, the connection pool and the fixed headers. */
export interface Connection {
  readonly base: URL;
  readonly pool: Http1Pool;
  /** `Host` and the headers every request carries, as request-head lines. */
  readonly fixedHeaders: string;
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
  /** See `HttpClientOptions.socketPath`. @default none: the URL's host and port */
  readonly socketPath?: string;
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
  const https = base.protocol === "https:";
  // An IPv6 literal is bracketed in a URL but not in a socket address.
  const host = base.hostname.startsWith("[") ? base.hostname.slice(1, -1) : base.hostname;
  const port = base.port === "" ? (https ? 443 : 80) : Number(base.port);
  const pool = new Http1Pool({
    origin: base.origin,
    host,
    port,
    ...(options.socketPath !== undefined
      ? { socketPath: options.socketPath }
      : https
        ? {
            tls: {
              ...(options.ca === undefined ? {} : { ca: Buffer.from(options.ca).toString("utf8") }),
              ...(options.cert === undefined || options.key === undefined
                ? {}
                : { cert: options.cert, key: options.key }),
              rejectUnauthorized: options.insecureSkipTlsVerify !== true,
            },
          }
        : {}),
  });
  const headers: [string, string][] = [
    ["Host", base.host],
    ["Accept", "application/json"],
    ["User-Agent", options.userAgent],
  ];
  if (options.token !== undefined && options.token !== "") {
    headers.push(["Authorization", `Bearer ${options.token}`]);
  }
  for (const [name, value] of headers) {
    if (/[\r\n\0]/.test(value)) {
      throw new TypeError(`Cannot use ${name} ${JSON.stringify(value)}: it holds a line break`);
    }
  }
  const fixedHeaders = headers.map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return { base, pool, fixedHeaders, timeoutMs: options.timeoutMs };
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

/** An answer whose headers have arrived; its body follows. */
export type HttpResponse = PoolResponse;

/** Methods that may be sent twice without changing the outcome (RFC 9110 idempotent methods). */
const idempotentMethods: ReadonlySet<string> = new Set(["GET", "PUT", "DELETE"]);

/**
 * Sends a request and resolves once the response headers arrive. Network failures reject with a
 * TransportError; aborting `signal` rejects with its reason. An idempotent request that fails
 * because the server had closed the pooled keep-alive connection it went out on (a restart, an
 * idle timeout) is sent once more on a new connection, as Go's transport does.
 */
export async function send(connection: Connection, spec: HttpRequest): Promise<HttpResponse> {
  try {
    return await sendOnce(connection, spec);
  } catch (error: unknown) {
    if (!(error instanceof StaleSocketError) || !idempotentMethods.has(spec.method)) {
      throw transportErrorOf(error, spec);
    }
  }
  try {
    return await sendOnce(connection, spec);
  } catch (error: unknown) {
    throw transportErrorOf(error, spec);
  }
}

/** Characters a request target cannot hold unescaped (Node's ERR_UNESCAPED_CHARACTERS). */
const unescaped = /[\0-\x20\x7f]/;

function sendOnce(connection: Connection, spec: HttpRequest): Promise<HttpResponse> {
  if (unescaped.test(spec.path)) {
    throw new TypeError(
      `Cannot ${spec.method} ${JSON.stringify(spec.path)}: the path holds unescaped characters`,
    );
  }
  let head = `${spec.method} ${spec.path} HTTP/1.1\r\n${connection.fixedHeaders}`;
  if (spec.body !== undefined) {
    head += `Content-Type: ${spec.contentType ?? "application/json"}\r\nContent-Length: ${Buffer.byteLength(spec.body)}\r\n`;
  }
  return connection.pool.request({
    method: spec.method,
    head: `${head}\r\n`,
    body: spec.body,
    timeoutMs: spec.stream === true ? 0 : connection.timeoutMs,
    signal: spec.signal,
  });
}

/** The signal's reason once it aborted; otherwise the failure as a TransportError. */
function transportErrorOf(error: unknown, spec: HttpRequest): unknown {
  if (spec.signal.aborted) return spec.signal.reason;
  if (error instanceof TypeError) return error;
  const cause = error instanceof StaleSocketError ? error.cause : error;
  return asTransportError(cause, `${spec.method} ${spec.path}`);
}

/** Reads a whole response body as text; a connection lost midway is a TransportError. */
export async function readText(res: HttpResponse, describe: string): Promise<string> {
  try {
    return await res.body.text();
  } catch (error: unknown) {
    throw asTransportError(error, describe);
  }
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
export function warningsOf(res: HttpResponse): string[] {
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
