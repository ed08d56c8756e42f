import { isIP, connect as netConnect, type Socket } from "node:net";
import { type ConnectionOptions as TlsOptions, connect as tlsConnect } from "node:tls";
import { ResponseParser } from "./http1-parser.ts";

/**
 * A keep-alive pool of HTTP/1.1 connections to one server, for the components' API client.
 *
 * Node's `http.request` builds a ClientRequest, an IncomingMessage and their streams for every
 * request: about half of the scheduler's thread went to that machinery when it binds a pod and
 * records its event. The API client needs much less: one request at a time per connection, a
 * JSON body, headers read once. Sockets are plain `net`/`tls` sockets and responses are parsed
 * by `ResponseParser`; like Node's agent with `keepAlive`, free sockets are reused newest first,
 * kept at most `maxFreeSockets`, unref'd while idle (they never keep the process alive), and TCP
 * keep-alive probes them.
 */
export interface PoolOptions {
  /** The server's URL origin, for messages: `http://127.0.0.1:6443`. */
  readonly origin: string;
  /** Host name or IP address (an IPv6 address without brackets). */
  readonly host: string;
  readonly port: number;
  /** Connect over TLS with these options (https). @default plain TCP */
  readonly tls?: Pick<TlsOptions, "ca" | "cert" | "key" | "rejectUnauthorized">;
  /**
   * Connect to this Unix domain socket instead of `host` and `port`, with plain HTTP (`tls`
   * must be unset). @default TCP
   */
  readonly socketPath?: string;
  /** Free sockets kept for reuse; more are closed. @default 32 */
  readonly maxFreeSockets?: number;
  /** TCP keep-alive delay of pooled sockets (ms). @default 30000 */
  readonly keepAliveMs?: number;
}

export interface PoolRequest {
  readonly method: string;
  /** The request line and headers, ending with the empty line. */
  readonly head: string;
  readonly body?: string | undefined;
  /** Fail after this long without data from the server (ms); 0 for never. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

export interface PoolResponse {
  readonly statusCode: number;
  /** Lower-case names; a header the server sent more than once is a list. */
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: ResponseBody;
}

/** Body bytes waiting for a streaming reader beyond which the socket stops reading. */
const highWaterBytes = 1 << 20;

/**
 * A response body as it arrives: read whole with `text()` or chunk by chunk by iterating it.
 * A connection lost midway rejects (or throws from the iteration) with the socket's error.
 */
export class ResponseBody implements AsyncIterable<Buffer> {
  #chunks: Buffer[] = [];
  #bytes = 0;
  #state: "open" | "done" | "failed" = "open";
  #error: unknown;
  #wake: (() => void) | undefined;
  /** Someone iterates the chunks (a watch): it may fall behind, so the socket may pause. */
  #streaming = false;
  #paused = false;
  readonly #pause: () => void;
  readonly #resume: () => void;

  constructor(pause: () => void, resume: () => void) {
    this.#pause = pause;
    this.#resume = resume;
  }

  /** True once the whole body has arrived. */
  get complete(): boolean {
    return this.#state === "done";
  }

  push(chunk: Buffer): void {
    if (this.#state !== "open" || chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    // Only a reader taking chunks as they come can fall behind; `text()` waits for them all.
    if (this.#streaming && this.#bytes > highWaterBytes && !this.#paused) {
      this.#paused = true;
      this.#pause();
    }
    this.#notify();
  }

  end(): void {
    if (this.#state !== "open") return;
    this.#state = "done";
    this.#notify();
  }

  fail(error: unknown): void {
    if (this.#state !== "open") return;
    this.#state = "failed";
    this.#error = error;
    this.#notify();
  }

  /** The whole body as UTF-8 text. */
  async text(): Promise<string> {
    while (this.#state === "open") await this.#next();
    if (this.#state === "failed") throw this.#error;
    const chunks = this.#take();
    const only = chunks.length === 1 ? chunks[0] : undefined;
    return (only ?? Buffer.concat(chunks)).toString("utf8");
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer, void, undefined> {
    this.#streaming = true;
    for (;;) {
      if (this.#chunks.length > 0) {
        yield* this.#take();
        continue;
      }
      if (this.#state === "done") return;
      if (this.#state === "failed") throw this.#error;
      await this.#next();
    }
  }

  #take(): Buffer[] {
    const chunks = this.#chunks;
    this.#chunks = [];
    this.#bytes = 0;
    if (this.#paused) {
      this.#paused = false;
      this.#resume();
    }
    return chunks;
  }

  #next(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** A reused connection closed before any answer: the server had closed it while it was idle. */
export class StaleSocketError extends Error {
  readonly code: string;

  constructor(cause: Error & { code?: string }) {
    super(cause.message, { cause });
    this.name = "StaleSocketError";
    this.code = cause.code ?? "ECONNRESET";
  }
}

/** What one request in flight on a connection hears from it. */
interface Exchange {
  head(statusCode: number, headers: Record<string, string | string[]>): void;
  body(chunk: Buffer): void;
  end(keepAlive: boolean): void;
  fail(error: Error, beforeAnswer: boolean): void;
}

/** One connection of the pool and the request it serves, if any. */
class PooledSocket {
  readonly socket: Socket;
  /** Responses completed on it: more than 0 means a request on it reuses it. */
  served = 0;
  #exchange: Exchange | undefined;
  #parser: ResponseParser | undefined;
  #received = false;
  #error: Error | undefined;
  readonly #gone: (conn: PooledSocket) => void;

  constructor(socket: Socket, gone: (conn: PooledSocket) => void) {
    this.socket = socket;
    this.#gone = gone;
    socket.on("data", (data: Buffer) => this.#onData(data));
    socket.on("error", (error: Error) => {
      this.#error ??= error;
    });
    socket.on("close", () => this.#onClose());
  }

  get alive(): boolean {
    return !this.socket.destroyed;
  }

  begin(method: string, exchange: Exchange): void {
    this.#exchange = exchange;
    this.#received = false;
    this.#parser = new ResponseParser(
      {
        head: (statusCode, headers) => exchange.head(statusCode, headers),
        body: (chunk) => exchange.body(chunk),
        end: (keepAlive) => {
          this.#exchange = undefined;
          this.#parser = undefined;
          this.served++;
          exchange.end(keepAlive);
        },
      },
      method,
    );
  }

  destroy(error?: Error): void {
    this.#error ??= error;
    this.socket.destroy();
  }

  #onData(data: Buffer): void {
    const parser = this.#parser;
    if (parser === undefined) {
      // Nothing was asked: whatever this is, the connection cannot be trusted any more.
      this.socket.destroy();
      return;
    }
    this.#received = true;
    try {
      parser.feed(data);
    } catch (error: unknown) {
      this.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #onClose(): void {
    const exchange = this.#exchange;
    const parser = this.#parser;
    this.#exchange = undefined;
    this.#parser = undefined;
    this.#gone(this);
    if (exchange === undefined || parser === undefined) return;
    // A body that runs to the end of the connection is complete now.
    if (parser.eof()) return;
    const error =
      this.#error ??
      Object.assign(new Error(this.#received ? "aborted" : "socket hang up"), {
        code: "ECONNRESET",
      });
    exchange.fail(error, !this.#received);
  }
}

export class Http1Pool {
  readonly #options: PoolOptions;
  readonly #free: PooledSocket[] = [];
  readonly #all = new Set<PooledSocket>();
  #closed = false;

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  /**
   * Sends a request and resolves once the response's headers arrive; its body follows. Rejects
   * with the socket's error (`code` set: ECONNREFUSED, ECONNRESET, ETIMEDOUT, a TLS code), with
   * StaleSocketError when a reused connection closed before answering, or with the signal's
   * reason once it aborts.
   */
  request(request: PoolRequest): Promise<PoolResponse> {
    const { signal } = request;
    return new Promise<PoolResponse>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      if (this.#closed) {
        reject(Object.assign(new Error("the connection pool is closed"), { code: "ECLOSED" }));
        return;
      }
      const conn = this.#acquire();
      const reused = conn.served > 0;
      const { socket } = conn;
      let body: ResponseBody | undefined;
      const onAbort = (): void => conn.destroy(abortError(signal));
      const onTimeout = (): void =>
        conn.destroy(
          Object.assign(
            new Error(`no answer from ${this.#options.origin} in ${request.timeoutMs}ms`),
            { code: "ETIMEDOUT" },
          ),
        );
      const settle = (): void => {
        signal.removeEventListener("abort", onAbort);
        if (request.timeoutMs > 0) {
          socket.setTimeout(0);
          socket.off("timeout", onTimeout);
        }
      };
      signal.addEventListener("abort", onAbort, { once: true });
      if (request.timeoutMs > 0) {
        socket.setTimeout(request.timeoutMs);
        socket.on("timeout", onTimeout);
      }
      conn.begin(request.method, {
        head: (statusCode, headers) => {
          body = new ResponseBody(
            () => socket.pause(),
            () => socket.resume(),
          );
          resolve({ statusCode, headers, body });
        },
        body: (chunk) => body?.push(chunk),
        end: (keepAlive) => {
          settle();
          body?.end();
          this.#release(conn, keepAlive);
        },
        fail: (error, beforeAnswer) => {
          settle();
          const reason = signal.aborted ? signal.reason : error;
          if (body !== undefined) body.fail(reason);
          else if (reused && beforeAnswer && !signal.aborted) reject(new StaleSocketError(error));
          else reject(reason);
        },
      });
      socket.write(request.body === undefined ? request.head : request.head + request.body);
    });
  }

  /** Closes every connection; requests in flight fail. Idempotent. */
  destroy(): void {
    this.#closed = true;
    for (const conn of this.#all) conn.destroy();
    this.#free.length = 0;
  }

  #acquire(): PooledSocket {
    for (;;) {
      const conn = this.#free.pop();
      if (conn === undefined) break;
      if (!conn.alive) continue;
      conn.socket.ref();
      return conn;
    }
    const conn = new PooledSocket(this.#connect(), (gone) => this.#forget(gone));
    this.#all.add(conn);
    return conn;
  }

  #release(conn: PooledSocket, keepAlive: boolean): void {
    if (!keepAlive || this.#closed || this.#free.length >= (this.#options.maxFreeSockets ?? 32)) {
      conn.destroy();
      return;
    }
    conn.socket.unref();
    this.#free.push(conn);
  }

  #forget(conn: PooledSocket): void {
    this.#all.delete(conn);
    const at = this.#free.indexOf(conn);
    if (at >= 0) this.#free.splice(at, 1);
  }

  #connect(): Socket {
    const { host, port, tls, socketPath } = this.#options;
    if (socketPath !== undefined) return netConnect({ path: socketPath });
    const socket =
      tls === undefined
        ? netConnect({ host, port })
        : tlsConnect({
            host,
            port,
            ...(isIP(host) === 0 ? { servername: host } : {}),
            ...tls,
            ALPNProtocols: ["http/1.1"],
          });
    socket.setNoDelay(true);
    socket.setKeepAlive(true, this.#options.keepAliveMs ?? 30_000);
    return socket;
  }
}

/** The error a socket is destroyed with when its request's signal aborts. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}
