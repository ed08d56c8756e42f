import {
  type ClientHttp2Session,
  type ClientHttp2Stream,
  connect,
  constants,
  type IncomingHttpHeaders,
  type SecureClientSessionOptions,
} from "node:http2";
import { isIP, connect as netConnect, type Socket } from "node:net";
import { type ConnectionOptions, connect as tlsConnect } from "node:tls";
import { FrameParser, frameMessage } from "./framing.ts";
import { decodeGrpcMessage, GrpcError, Status } from "./status.ts";

/** HTTP/2 flow-control windows: a stream's, and the whole connection's. */
const streamWindowBytes = 4 * 1024 * 1024;
const connectionWindowBytes = 32 * 1024 * 1024;

/** TLS material for an `https://` member: PEM text, as `connection.ts` takes it. */
export interface ChannelTls {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

export interface GrpcChannelOptions {
  /** The member's client URL, `http://host:port` (h2c) or `https://host:port`. */
  readonly url: string;
  readonly tls?: ChannelTls;
  /** Ping the member after this long (kube-apiserver's etcd keepalive time). @default 30_000 */
  readonly keepaliveTimeMs?: number;
  /** Drop the connection when a ping is not answered within this. @default 10_000 */
  readonly keepaliveTimeoutMs?: number;
  /** After a failed connection attempt, calls fail at once for this long. @default 100 */
  readonly reconnectBackoffMs?: number;
}

/** A bidirectional gRPC stream: framed messages out, messages in, then one `onClose`. */
export interface GrpcStream {
  /** Sends one encoded message (with its 5 free header bytes). */
  write(message: Buffer): void;
  /** Half-closes: no more messages from this side. */
  end(): void;
  /** Cancels the call (RST_STREAM CANCEL); `onClose` then reports CANCELLED. */
  cancel(): void;
  /** Stops reading: HTTP/2 flow control then holds the member's further messages. */
  pause(): void;
  resume(): void;
}

export interface GrpcStreamHandlers {
  /** One received message (a view on the received bytes). */
  readonly onMessage: (message: Buffer) => void;
  /** The call ended: OK when the server ended it cleanly, else the error. Called once. */
  readonly onClose: (error: GrpcError | undefined) => void;
}

/**
 * gRPC over one HTTP/2 connection to one etcd member (gRPC over HTTP/2 spec): every call is a
 * POST stream with `content-type: application/grpc` and `te: trailers`, the status comes in
 * `grpc-status`/`grpc-message` trailers. The connection is opened on first use and reopened
 * on the next call after it is lost; a request is written only once the member's HTTP/2
 * SETTINGS arrived, so a call that fails before that surely did not reach etcd.
 */
export class GrpcChannel {
  private session: ClientHttp2Session | undefined;
  private ready: Promise<ClientHttp2Session> | undefined;
  private failedAt = 0;
  private lastFailure: GrpcError | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private active = 0;
  private closed = false;
  /** Streams this side cancelled (a deadline, a watch let go): CANCELLED, not a failure. */
  private readonly cancelled = new WeakSet<ClientHttp2Stream>();
  private readonly authority: string;
  private readonly connectOptions: SecureClientSessionOptions;
  /** Where and how `dial` connects: TLS options (with ALPN h2) for https, none for http. */
  private readonly target: { host: string; port: number; tls: ConnectionOptions | undefined };
  /**
   * Each session's own socket, made here rather than by `http2.connect`: a session does not
   * always destroy its socket (a TLS alert for a refused client certificate errors the socket
   * but not the session), and the session's `socket` proxy refuses `destroy`.
   */
  private readonly sockets = new WeakMap<ClientHttp2Session, Socket>();
  private readonly options: GrpcChannelOptions;

  constructor(options: GrpcChannelOptions) {
    this.options = options;
    const url = new URL(options.url);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new RangeError(`Invalid etcd endpoint "${options.url}": use http:// or https://`);
    }
    this.authority = `${url.protocol}//${url.host}`;
    const tls = options.tls ?? {};
    this.connectOptions = {
      // Large windows: a list of thousands of objects is many MiB in one message.
      settings: { initialWindowSize: streamWindowBytes, enablePush: false },
      maxSessionMemory: 256,
    };
    const secure = url.protocol === "https:";
    // An IPv6 literal is bracketed in a URL but not in a socket address.
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    this.target = {
      host,
      port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
      tls: secure
        ? {
            ...(isIP(host) === 0 ? { servername: host } : {}),
            ...(tls.ca === undefined ? {} : { ca: tls.ca }),
            ...(tls.cert === undefined ? {} : { cert: tls.cert }),
            ...(tls.key === undefined ? {} : { key: tls.key }),
            ALPNProtocols: ["h2"],
          }
        : undefined,
    };
  }

  /** The member's URL. */
  get url(): string {
    return this.options.url;
  }

  /**
   * A unary call: sends `request` (an encoded message with 5 free bytes at the start) to
   * `path` and resolves with the response message. Rejects with a GrpcError: the server's
   * status, DEADLINE_EXCEEDED at `deadline` (ms since the epoch), UNAVAILABLE when the
   * connection fails.
   */
  unary(path: string, request: Buffer, deadline: number): Promise<Buffer> {
    const current = this.session;
    if (
      current !== undefined &&
      this.ready === undefined &&
      !current.closed &&
      !current.destroyed
    ) {
      return this.send(current, path, request, deadline);
    }
    return this.connected(deadline).then((session) => this.send(session, path, request, deadline));
  }

  private send(
    session: ClientHttp2Session,
    path: string,
    request: Buffer,
    deadline: number,
  ): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      let response: Buffer | undefined;
      let stream: ClientHttp2Stream;
      const timer = setTimeout(
        () => {
          this.cancel(stream);
          done(new GrpcError(Status.DEADLINE_EXCEEDED, "Deadline exceeded", true));
        },
        Math.max(0, deadline - Date.now()),
      );
      let settled = false;
      const done = (error: GrpcError | undefined): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.release();
        if (error !== undefined) reject(error);
        else if (response === undefined) {
          reject(new GrpcError(Status.INTERNAL, "the server sent no response message", true));
        } else resolve(response);
      };
      try {
        stream = this.open(session, path, deadline);
      } catch (error: unknown) {
        settled = true;
        clearTimeout(timer);
        reject(error);
        return;
      }
      this.listen(stream, {
        onMessage: (message) => {
          response ??= message;
        },
        onClose: done,
      });
      stream.end(frameMessage(request));
    });
  }

  /**
   * Opens a bidirectional stream on `path`: resolves once the connection is up (rejects with
   * UNAVAILABLE otherwise, by `deadline`); messages and the end go to `handlers`.
   */
  async stream(path: string, deadline: number, handlers: GrpcStreamHandlers): Promise<GrpcStream> {
    const session = await this.connected(deadline);
    const stream = this.open(session, path, undefined);
    let closed = false;
    this.listen(stream, {
      onMessage: handlers.onMessage,
      onClose: (error) => {
        if (closed) return;
        closed = true;
        this.release();
        handlers.onClose(error);
      },
    });
    return {
      write: (message) => {
        if (!stream.closed && stream.writable) stream.write(frameMessage(message));
      },
      end: () => {
        if (!stream.closed && stream.writable) stream.end();
      },
      cancel: () => this.cancel(stream),
      pause: () => {
        stream.pause();
      },
      resume: () => {
        stream.resume();
      },
    };
  }

  /** Closes the connection; calls then fail with UNAVAILABLE. */
  close(): void {
    this.closed = true;
    this.drop(this.session);
  }

  /** Starts a stream on `session`, counting it as active. Throws a GrpcError (not sent). */
  private open(
    session: ClientHttp2Session,
    path: string,
    deadline: number | undefined,
  ): ClientHttp2Stream {
    const headers: Record<string, string> = {
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
    };
    if (deadline !== undefined) {
      // At most 8 digits (gRPC over HTTP/2 spec): about 27 hours in milliseconds.
      const millis = Math.min(99_999_999, Math.max(1, Math.ceil(deadline - Date.now())));
      headers["grpc-timeout"] = `${millis}m`;
    }
    let stream: ClientHttp2Stream;
    try {
      stream = session.request(headers, { endStream: false });
    } catch (error: unknown) {
      // The session is closing (GOAWAY, lost): nothing was sent.
      this.drop(session);
      throw this.unreachable(error);
    }
    this.active++;
    if (this.active === 1) session.ref();
    return stream;
  }

  private release(): void {
    this.active--;
    if (this.active === 0) this.session?.unref();
  }

  /**
   * Wires a stream's events to `handlers`: messages as they complete, then the status from the
   * trailers (or from headers, for a trailers-only answer), or the stream's failure.
   */
  private listen(stream: ClientHttp2Stream, handlers: GrpcStreamHandlers): void {
    const parser = new FrameParser();
    let status: number | undefined;
    let message = "";
    let failure: GrpcError | undefined;
    let httpStatus = 0;
    const takeStatus = (headers: IncomingHttpHeaders): void => {
      const code = headers["grpc-status"];
      if (code === undefined) return;
      status = Number(code);
      message = decodeGrpcMessage(headers["grpc-message"] as string | undefined);
    };
    stream.on("response", (headers) => {
      httpStatus = Number(headers[":status"]);
      takeStatus(headers);
    });
    stream.on("trailers", takeStatus);
    stream.on("data", (chunk: Buffer) => {
      if (failure !== undefined) return;
      let messages: Buffer[];
      try {
        messages = parser.push(chunk);
      } catch (error: unknown) {
        failure = new GrpcError(Status.INTERNAL, String(error), true);
        this.cancel(stream);
        return;
      }
      for (const m of messages) handlers.onMessage(m);
    });
    stream.on("error", (error: Error) => {
      failure ??= this.streamFailure(stream, error);
    });
    stream.on("close", () => {
      if (failure !== undefined) return handlers.onClose(failure);
      if (status === undefined) {
        const rst = stream.rstCode;
        return handlers.onClose(
          httpStatus !== 0 && httpStatus !== 200
            ? new GrpcError(Status.UNKNOWN, `HTTP status ${httpStatus} from ${this.url}`, true)
            : this.cancelled.has(stream)
              ? new GrpcError(Status.CANCELLED, "Cancelled on client", true)
              : new GrpcError(
                  Status.UNAVAILABLE,
                  `Connection dropped (stream closed without a status, code ${rst ?? "none"})`,
                  rst !== constants.NGHTTP2_REFUSED_STREAM,
                ),
        );
      }
      if (status !== Status.OK) return handlers.onClose(new GrpcError(status, message, true));
      handlers.onClose(undefined);
    });
    // Drain the readable side (the stream is consumed through "data").
    stream.resume();
  }

  private cancel(stream: ClientHttp2Stream): void {
    this.cancelled.add(stream);
    if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
  }

  /** A stream's error: sent unless the member refused the stream unprocessed. */
  private streamFailure(stream: ClientHttp2Stream, error: Error): GrpcError {
    const refused = stream.rstCode === constants.NGHTTP2_REFUSED_STREAM;
    return new GrpcError(Status.UNAVAILABLE, `Connection dropped: ${error.message}`, !refused, {
      cause: error,
    });
  }

  private unreachable(error: unknown): GrpcError {
    const reason = error instanceof Error ? error.message : String(error);
    return new GrpcError(
      Status.UNAVAILABLE,
      `No connection established to ${this.url}. Last error: ${reason}`,
      false,
      { cause: error },
    );
  }

  /**
   * The connected session (the current one, one being connected, or a new one). Rejects with
   * UNAVAILABLE (not sent) when the connection fails or is not up by `deadline`.
   */
  private async connected(deadline: number): Promise<ClientHttp2Session> {
    if (this.closed) {
      throw new GrpcError(Status.UNAVAILABLE, "Channel already closed", false);
    }
    const current = this.session;
    if (
      current !== undefined &&
      !current.closed &&
      !current.destroyed &&
      this.ready === undefined
    ) {
      return current;
    }
    const backoff = this.options.reconnectBackoffMs ?? 100;
    if (this.ready === undefined && this.lastFailure !== undefined) {
      if (Date.now() - this.failedAt < backoff) throw this.lastFailure;
    }
    this.ready ??= this.connect();
    const ready = this.ready;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        ready,
        new Promise<never>((_, reject) => {
          // The previous attempt's failure (a TLS error, a refusal) explains more than this.
          timer = setTimeout(
            () =>
              reject(
                this.lastFailure ??
                  this.unreachable(new Error("the connection was not up before the deadline")),
              ),
            Math.max(0, deadline - Date.now()),
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private connect(): Promise<ClientHttp2Session> {
    return new Promise<ClientHttp2Session>((resolve, reject) => {
      const socket = this.dial();
      const session = connect(this.authority, {
        ...this.connectOptions,
        createConnection: () => socket,
      });
      this.sockets.set(session, socket);
      this.session = session;
      let up = false;
      const fail = (error: unknown): void => {
        if (up) return;
        up = true;
        const failure = this.unreachable(error);
        this.lastFailure = failure;
        this.failedAt = Date.now();
        this.ready = undefined;
        this.drop(session);
        reject(failure);
      };
      session.on("error", (error) => {
        fail(error);
        this.drop(session);
      });
      session.on("close", () => {
        fail(new Error("the connection closed before the member's HTTP/2 settings arrived"));
        this.drop(session);
      });
      session.on("goaway", () => this.drop(session, false));
      // A TLS alert after the client's side of the handshake (a refused client certificate)
      // errors the socket without always erroring the session: watch the socket too.
      session.socket.on("error", (error: Error) => {
        fail(error);
        this.drop(session);
      });
      // Ready once the member's SETTINGS arrived: past TLS, including a refused client
      // certificate, which TLS 1.3 reports only after the client's side of the handshake.
      session.once("remoteSettings", () => {
        if (up) return;
        up = true;
        this.ready = undefined;
        this.lastFailure = undefined;
        if (this.closed) {
          this.drop(session);
          reject(new GrpcError(Status.UNAVAILABLE, "Channel already closed", false));
          return;
        }
        // The connection's window too (it stays at HTTP/2's 64 KiB otherwise): one large
        // list answer then streams without waiting on WINDOW_UPDATEs.
        session.setLocalWindowSize(connectionWindowBytes);
        this.startKeepalive(session);
        if (this.active === 0) session.unref();
        resolve(session);
      });
    });
  }

  /**
   * Pings every keepaliveTimeMs while calls or streams are open (as gRPC clients do without
   * permit-without-stream: etcd answers idle pings with GOAWAY too_many_pings); a ping
   * unanswered within keepaliveTimeoutMs drops the session, failing its calls.
   */
  private startKeepalive(session: ClientHttp2Session): void {
    clearInterval(this.keepalive);
    const timeoutMs = this.options.keepaliveTimeoutMs ?? 10_000;
    this.keepalive = setInterval(() => {
      if (session.closed || session.destroyed || this.active === 0) return;
      const timer = setTimeout(() => {
        session.destroy(new Error(`keepalive ping not answered within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      try {
        session.ping(() => clearTimeout(timer));
      } catch {
        clearTimeout(timer);
      }
    }, this.options.keepaliveTimeMs ?? 30_000);
    this.keepalive.unref();
  }

  /** Forgets `session` (the next call connects again); destroys it unless `destroy` is false. */
  private drop(session: ClientHttp2Session | undefined, destroy = true): void {
    if (session === undefined) return;
    if (this.session === session) {
      this.session = undefined;
      clearInterval(this.keepalive);
      this.keepalive = undefined;
    }
    if (destroy) {
      if (!session.destroyed) session.destroy();
      this.sockets.get(session)?.destroy();
    } else if (!session.closed) session.close();
  }

  /** A new connection to the member: TLS with ALPN h2 for https, plain TCP for http. */
  private dial(): Socket {
    const { host, port, tls } = this.target;
    return tls === undefined ? netConnect({ host, port }) : tlsConnect({ host, port, ...tls });
  }
}
