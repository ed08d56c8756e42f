import assert from "node:assert/strict";
import { test } from "node:test";
import { ProtocolError, ResponseParser } from "./http1-parser.ts";

interface Parsed {
  statusCode?: number;
  headers?: Record<string, string | string[]>;
  body: string;
  ends: boolean[];
}

/** Feeds `wire` in pieces cut at `cuts` (byte offsets) and records what the parser reports. */
function parse(
  wire: string,
  cuts: readonly number[] = [],
  method = "GET",
): Parsed & { eof: boolean } {
  const parsed: Parsed = { body: "", ends: [] };
  const parser = new ResponseParser(
    {
      head: (statusCode, headers) => {
        parsed.statusCode = statusCode;
        parsed.headers = headers;
      },
      body: (chunk) => {
        parsed.body += chunk.toString("latin1");
      },
      end: (keepAlive) => parsed.ends.push(keepAlive),
    },
    method,
  );
  const bytes = Buffer.from(wire, "latin1");
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut > from) parser.feed(bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
  return { ...parsed, eof: parser.eof() };
}

/** Parses `wire` whole, then cut at every single byte offset and at every pair: all agree. */
function parseEverySplit(wire: string): Parsed & { eof: boolean } {
  const whole = parse(wire);
  for (let i = 1; i < wire.length; i++) {
    assert.deepEqual(parse(wire, [i]), whole, `split at byte ${i}`);
  }
  for (let i = 1; i < wire.length; i += 3) {
    for (let j = i + 1; j < wire.length; j += 5) {
      assert.deepEqual(parse(wire, [i, j]), whole, `split at bytes ${i} and ${j}`);
    }
  }
  return whole;
}

test("ResponseParser: a Content-Length body, however the bytes are split", () => {
  // Bytes on the wire, one latin1 character each: the body is UTF-8 with a two-byte character.
  const body = Buffer.from('{"a":"é"}', "utf8").toString("latin1");
  const got = parseEverySplit(
    `HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  assert.equal(got.statusCode, 201);
  assert.equal(got.headers?.["content-type"], "application/json");
  assert.equal(Buffer.from(got.body, "latin1").toString("utf8"), '{"a":"é"}');
  assert.deepEqual(got.ends, [true]);
});

test("ResponseParser: a chunked body with extensions and trailers, however the bytes are split", () => {
  const got = parseEverySplit(
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
      "5;name=value\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n",
  );
  assert.equal(got.body, "hello 0123456789");
  assert.deepEqual(got.ends, [true]);
});

test("ResponseParser: a chunked body without trailers ends at the last chunk's CRLF", () => {
  const got = parseEverySplit(
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
  );
  assert.equal(got.body, "abc");
  assert.deepEqual(got.ends, [true]);
});

test("ResponseParser: a body without length runs to the end of the connection", () => {
  const wire = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome text";
  const parsed: string[] = [];
  let ended: boolean | undefined;
  const parser = new ResponseParser(
    {
      head: () => undefined,
      body: (chunk) => parsed.push(chunk.toString()),
      end: (keepAlive) => {
        ended = keepAlive;
      },
    },
    "GET",
  );
  parser.feed(Buffer.from(wire));
  assert.equal(ended, undefined, "not complete before the connection ends");
  assert.equal(parser.eof(), true, "complete at the end of the connection");
  assert.equal(parsed.join(""), "some text");
  assert.equal(ended, false, "such a connection cannot be reused");
});

test("ResponseParser: 204, 304 and answers to HEAD have no body", () => {
  for (const [status, method] of [
    ["204 No Content", "DELETE"],
    ["304 Not Modified", "GET"],
    ["200 OK", "HEAD"],
  ] as const) {
    const got = parse(`HTTP/1.1 ${status}\r\nContent-Length: 42\r\n\r\n`, [], method);
    assert.deepEqual([got.body, got.ends], ["", [true]], `${status} to ${method}`);
  }
});

test("ResponseParser: an interim 100 Continue is skipped", () => {
  const got = parseEverySplit(
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
  );
  assert.deepEqual([got.statusCode, got.body, got.ends], [200, "ok", [true]]);
});

test("ResponseParser: header names are lower case and repeated headers become a list", () => {
  const got = parse(
    'HTTP/1.1 200 OK\r\nWarning: 299 - "a"\r\nX-One:  spaced  \r\nWARNING: 299 - "b"\r\nContent-Length: 0\r\n\r\n',
  );
  assert.deepEqual(got.headers, {
    warning: ['299 - "a"', '299 - "b"'],
    "x-one": "spaced",
    "content-length": "0",
  });
});

test("ResponseParser: which connections may be reused", () => {
  const keepAlive = (head: string): boolean | undefined => parse(`${head}\r\n\r\n`).ends[0];
  assert.equal(keepAlive("HTTP/1.1 200 OK\r\nContent-Length: 0"), true);
  assert.equal(keepAlive("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0"), false);
  assert.equal(keepAlive("HTTP/1.0 200 OK\r\nContent-Length: 0"), false);
  assert.equal(keepAlive("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0"), true);
});

test("ResponseParser: a connection that ends midway through a response is incomplete", () => {
  for (const wire of [
    "HTTP/1.1 200 OK\r\nContent-Len",
    "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n",
  ]) {
    const got = parse(wire);
    assert.deepEqual([got.ends, got.eof], [[], false], JSON.stringify(wire));
  }
});

test("ResponseParser: malformed answers are ProtocolErrors", () => {
  for (const [wire, message] of [
    ["SSH-2.0-OpenSSH\r\n\r\n", /invalid status line/],
    ["HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", /invalid header line/],
    ["HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", /invalid Content-Length/],
    ["HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", /Content-Length/],
    ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", /invalid chunk size/],
    ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc", /does not end with CRLF/],
    ["HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab", /data after the response/],
    [`HTTP/1.1 200 OK\r\nX: ${"x".repeat(20_000)}`, /headers are too long/],
    [
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;${"e".repeat(5000)}`,
      /chunk size line is too long/,
    ],
    [
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: ${"t".repeat(20_000)}`,
      /trailers are too long/,
    ],
  ] as const) {
    assert.throws(
      () => parse(wire),
      (error: unknown) => error instanceof ProtocolError && message.test(error.message),
      JSON.stringify(wire.slice(0, 60)),
    );
  }
});
