/**
 * An HTTP/1.1 response parser (RFC 9112) for the component client's connection pool: the status
 * line and headers, then a body delimited by Content-Length, by chunked transfer coding, or by
 * the end of the connection. Bytes are fed as they arrive, split anywhere; body bytes are handed
 * on as views of the received buffers, not copied.
 */

/** What the parser reports, in order: one `head`, any number of `body`, one `end`. */
export interface ResponseEvents {
  /** Header names are lower case; a header sent more than once is a list of its values. */
  head(statusCode: number, headers: Record<string, string | string[]>): void;
  body(chunk: Buffer): void;
  /** The response is complete; `keepAlive` tells whether the connection may serve another. */
  end(keepAlive: boolean): void;
}

/** The server sent something that is not an HTTP/1.1 response. */
export class ProtocolError extends Error {
  readonly code = "HPE_INVALID_RESPONSE";

  constructor(message: string) {
    super(message);
    this.name = "ProtocolError";
  }
}

/** Longest status line and header block accepted (Node's default --max-http-header-size). */
const maxHeadBytes = 16 * 1024;
/** Longest chunk-size line accepted: a size, then chunk extensions, which are ignored. */
const maxChunkLineBytes = 4096;

type Phase =
  | "head"
  | "length"
  | "chunk-size"
  | "chunk-data"
  | "chunk-end"
  | "trailers"
  | "close"
  | "done";

export class ResponseParser {
  readonly #events: ResponseEvents;
  /** The request was HEAD: the answer has headers only, whatever they say. */
  readonly #head: boolean;
  #phase: Phase = "head";
  /** Bytes left in the body (`length`) or the current chunk (`chunk-data`). */
  #remaining = 0;
  #keepAlive = true;
  /** Received bytes not parsed yet because they end midway through a line. */
  #pending: Buffer | undefined;

  constructor(events: ResponseEvents, method: string) {
    this.#events = events;
    this.#head = method === "HEAD";
  }

  /** True once `end` was reported. */
  get done(): boolean {
    return this.#phase === "done";
  }

  /** Parses the next bytes of the connection; throws ProtocolError when they are malformed. */
  feed(data: Buffer): void {
    let buf = data;
    if (this.#pending !== undefined) {
      buf = Buffer.concat([this.#pending, data]);
      this.#pending = undefined;
    }
    let at = 0;
    while (at < buf.length) {
      switch (this.#phase) {
        case "head": {
          const head = this.#until(buf, at, "\r\n\r\n", maxHeadBytes, "the response headers are");
          if (head === undefined) return;
          at = head.next;
          this.#startResponse(head.text);
          break;
        }
        case "length":
        case "chunk-data": {
          const n = Math.min(this.#remaining, buf.length - at);
          this.#events.body(buf.subarray(at, at + n));
          at += n;
          this.#remaining -= n;
          if (this.#remaining > 0) break;
          if (this.#phase === "length") this.#finish();
          else this.#phase = "chunk-end";
          break;
        }
        case "chunk-end": {
          if (buf.length - at < 2) {
            this.#keep(buf, at);
            return;
          }
          if (buf[at] !== 0x0d || buf[at + 1] !== 0x0a) {
            throw new ProtocolError("a chunk does not end with CRLF");
          }
          at += 2;
          this.#phase = "chunk-size";
          break;
        }
        case "chunk-size": {
          const sizeLine = this.#until(buf, at, "\r\n", maxChunkLineBytes, "a chunk size line is");
          if (sizeLine === undefined) return;
          at = sizeLine.next;
          const line = sizeLine.text;
          const digits = line.split(";", 1)[0]?.trim() ?? "";
          if (!/^[0-9a-fA-F]{1,12}$/.test(digits)) {
            throw new ProtocolError(`invalid chunk size ${JSON.stringify(line.slice(0, 40))}`);
          }
          const size = Number.parseInt(digits, 16);
          if (size === 0) {
            this.#phase = "trailers";
          } else {
            this.#remaining = size;
            this.#phase = "chunk-data";
          }
          break;
        }
        case "trailers": {
          // No trailer fields: the last chunk is followed by CRLF at once.
          if (buf.length - at >= 2 && buf[at] === 0x0d && buf[at + 1] === 0x0a) {
            at += 2;
            this.#finish();
            break;
          }
          const trailers = this.#until(
            buf,
            at,
            "\r\n\r\n",
            maxHeadBytes,
            "the response trailers are",
          );
          if (trailers === undefined) return;
          at = trailers.next;
          this.#finish();
          break;
        }
        case "close":
          this.#events.body(at === 0 ? buf : buf.subarray(at));
          at = buf.length;
          break;
        case "done":
          throw new ProtocolError("the server sent data after the response ended");
      }
    }
  }

  /**
   * The connection ended. A body delimited by the connection's end is now complete (reported and
   * true); any other response still incomplete is not (false): the connection broke.
   */
  eof(): boolean {
    if (this.#phase === "close") {
      this.#finish();
      return true;
    }
    return this.#phase === "done";
  }

  /**
   * The text from `at` up to `delimiter`, and the offset after the delimiter. When the delimiter
   * has not arrived, keeps the rest for the next feed and returns undefined, unless the rest is
   * already longer than `limit`: then "`what` too long".
   */
  #until(
    buf: Buffer,
    at: number,
    delimiter: string,
    limit: number,
    what: string,
  ): { text: string; next: number } | undefined {
    const end = buf.indexOf(delimiter, at, "latin1");
    if (end >= 0) return { text: buf.toString("latin1", at, end), next: end + delimiter.length };
    if (buf.length - at > limit) throw new ProtocolError(`${what} too long`);
    this.#keep(buf, at);
    return undefined;
  }

  /** Keeps `buf[at…]` for the next feed. */
  #keep(buf: Buffer, at: number): void {
    this.#pending = at === 0 ? buf : buf.subarray(at);
  }

  #startResponse(text: string): void {
    const lines = text.split("\r\n");
    const status = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? "");
    if (status === null) {
      throw new ProtocolError(
        `invalid status line ${JSON.stringify((lines[0] ?? "").slice(0, 60))}`,
      );
    }
    const statusCode = Number(status[2]);
    const headers: Record<string, string | string[]> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(":");
      if (colon <= 0)
        throw new ProtocolError(`invalid header line ${JSON.stringify(line.slice(0, 60))}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      const seen = headers[name];
      if (seen === undefined) headers[name] = value;
      else if (Array.isArray(seen)) seen.push(value);
      else headers[name] = [seen, value];
    }
    // An interim answer (100 Continue, 103 Early Hints) precedes the real one.
    if (statusCode >= 100 && statusCode < 200 && statusCode !== 101) return;

    const connection = lastValue(headers["connection"]).toLowerCase();
    this.#keepAlive =
      status[1] === "1" ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
    this.#events.head(statusCode, headers);
    if (this.#head || statusCode === 204 || statusCode === 304 || statusCode === 101) {
      this.#finish();
      return;
    }
    if (/\bchunked\b/i.test(lastValue(headers["transfer-encoding"]))) {
      this.#phase = "chunk-size";
      return;
    }
    const length = headers["content-length"];
    if (length === undefined) {
      this.#keepAlive = false;
      this.#phase = "close";
      return;
    }
    const declared = lastValue(length);
    if (
      !/^\d{1,15}$/.test(declared) ||
      (Array.isArray(length) && length.some((v) => v !== declared))
    ) {
      throw new ProtocolError(`invalid Content-Length ${JSON.stringify(String(length))}`);
    }
    this.#remaining = Number(declared);
    if (this.#remaining === 0) this.#finish();
    else this.#phase = "length";
  }

  #finish(): void {
    this.#phase = "done";
    this.#events.end(this.#keepAlive);
  }
}

function lastValue(value: string | string[] | undefined): string {
  if (value === undefined) return "";
  return Array.isArray(value) ? (value.at(-1) ?? "") : value;
}
