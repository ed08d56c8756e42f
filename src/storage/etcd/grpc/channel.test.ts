import assert from "node:assert/strict";
import { once } from "node:events";
import {
  createServer,
  type Http2Server,
  type Http2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from "node:http2";
import { createServer as createTcpServer, type Server, type Socket } from "node:net";
import { after, before, describe, test } from "node:test";
import { ensureNoLeaksAfterSuite, ensureNoLeaksInEachTest } from "../../../testing/leak-check.ts";
import { freePort } from "../../../testing/ports.ts";
import { GrpcChannel } from "./channel.ts";
import { FrameParser, frameMessage } from "./framing.ts";
import { GrpcError } from "./status.ts";

/** A message with the 5 free bytes the encoders leave for the frame header. */
const request = (text: string): Buffer => Buffer.concat([Buffer.alloc(5), Buffer.from(text)]);
const framed = (text: string): Buffer => frameMessage(request(text));

type Handler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, body: Buffer[]) => void;

/** A gRPC-shaped HTTP/2 server whose answer to each call the test decides. */
async function fakeServer(): Promise<{
  server: Http2Server;
  url: string;
  sessions: Set<Http2Session>;
  handle: (handler: Handler) => void;
  seen: IncomingHttpHeaders[];
}> {
  let handler: Handler = () => undefined;
  const seen: IncomingHttpHeaders[] = [];
  const sessions = new Set<Http2Session>();
  const server = createServer();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  server.on("stream", (stream, headers) => {
    seen.push(headers);
    const body: Buffer[] = [];
    const parser = new FrameParser();
    stream.on("data", (chunk: Buffer) => body.push(...parser.push(chunk)));
    stream.on("error", () => undefined);
    handler(stream, headers, body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no address");
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    sessions,
    handle: (h) => {
      handler = h;
    },
    seen,
  };
}

const ok = { ":status": 200, "content-type": "application/grpc" };

/** Answers each whole request with `reply(request)`, then the trailers. */
const replyWith =
  (reply: (body: string) => string, trailers: Record<string, string> = { "grpc-status": "0" }) =>
  (stream: ServerHttp2Stream, _headers: IncomingHttpHeaders, body: Buffer[]): void => {
    stream.on("end", () => {
      stream.respond(ok, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers(trailers));
      const answer = framed(reply(body.map((b) => b.toString()).join("")));
      // Two DATA writes that split the frame header: the client must join them.
      stream.write(answer.subarray(0, 3));
      stream.end(answer.subarray(3));
    });
  };

describe("GrpcChannel against an HTTP/2 server", () => {
  let fake: Awaited<ReturnType<typeof fakeServer>>;
  let channel: GrpcChannel;
  before(async () => {
    fake = await fakeServer();
    channel = new GrpcChannel({ url: fake.url });
  });
  after(() => {
    channel.close();
    for (const session of fake.sessions) session.destroy();
    fake.server.close();
  });
  ensureNoLeaksAfterSuite();
  const soon = (): number => Date.now() + 5000;

  test("unary: POSTs a framed message with gRPC headers and reads the framed answer", async () => {
    fake.handle(replyWith((body) => `echo:${body}`));
    const answer = await channel.unary("/etcdserverpb.KV/Range", request("hello"), soon());
    assert.equal(answer.toString(), "echo:hello");
    const headers = fake.seen.at(-1) ?? {};
    assert.equal(headers[":method"], "POST");
    assert.equal(headers[":path"], "/etcdserverpb.KV/Range");
    assert.equal(headers["content-type"], "application/grpc");
    assert.equal(headers["te"], "trailers");
    assert.match(String(headers["grpc-timeout"]), /^\d+m$/, "the deadline travels as grpc-timeout");
    const millis = Number(String(headers["grpc-timeout"]).slice(0, -1));
    assert.ok(millis > 0 && millis <= 5000, `grpc-timeout ${millis} ms is what was left`);
  });

  test("unary: a non-zero grpc-status in the trailers is a GrpcError with the decoded grpc-message", async () => {
    fake.handle(
      replyWith(() => "", {
        "grpc-status": "11",
        "grpc-message": "etcdserver%3A mvcc%3A required revision has been compacted %25",
      }),
    );
    await assert.rejects(channel.unary("/etcdserverpb.KV/Range", request("x"), soon()), (error) => {
      assert.ok(error instanceof GrpcError, `a GrpcError: ${String(error)}`);
      assert.equal(error.code, 11);
      assert.equal(error.details, "etcdserver: mvcc: required revision has been compacted %");
      assert.equal(
        error.message,
        "11 OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted %",
      );
      assert.equal(error.sent, true);
      return true;
    });
  });

  test("unary: a trailers-only answer (status in the headers) is read too", async () => {
    fake.handle((stream) => {
      stream.respond(
        { ...ok, "grpc-status": "14", "grpc-message": "etcdserver: no leader" },
        { endStream: true },
      );
    });
    await assert.rejects(
      channel.unary("/etcdserverpb.KV/Txn", request("x"), soon()),
      /14 UNAVAILABLE: etcdserver: no leader/,
    );
  });

  test("unary: an OK status without a message is INTERNAL, a non-200 answer UNKNOWN", async () => {
    fake.handle((stream) => stream.respond({ ...ok, "grpc-status": "0" }, { endStream: true }));
    await assert.rejects(
      channel.unary("/p", request("x"), soon()),
      /13 INTERNAL: the server sent no response message/,
    );
    fake.handle((stream) => stream.respond({ ":status": 404 }, { endStream: true }));
    await assert.rejects(channel.unary("/p", request("x"), soon()), /2 UNKNOWN: HTTP status 404/);
  });

  test("unary: a compressed message is refused", async () => {
    fake.handle((stream) => {
      stream.respond(ok, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      const answer = framed("zz");
      answer[0] = 1;
      stream.end(answer);
    });
    await assert.rejects(channel.unary("/p", request("x"), soon()), /13 INTERNAL: .*compressed/);
  });

  test("unary: no answer by the deadline is DEADLINE_EXCEEDED, and the call is cancelled on the server", async () => {
    let cancelled: Promise<unknown> | undefined;
    fake.handle((stream) => {
      cancelled = once(stream, "close");
    });
    const started = Date.now();
    await assert.rejects(channel.unary("/p", request("x"), Date.now() + 200), (error) => {
      assert.ok(error instanceof GrpcError, String(error));
      assert.equal(error.message, "4 DEADLINE_EXCEEDED: Deadline exceeded");
      assert.equal(error.sent, true, "the request may have been processed");
      return true;
    });
    assert.ok(Date.now() - started >= 150, "not before the deadline");
    await cancelled;
  });

  test("unary: the connection dropping during a call is UNAVAILABLE and may have been sent; the next call reconnects", async () => {
    fake.handle((stream) => {
      stream.on("end", () => stream.session?.destroy());
    });
    await assert.rejects(channel.unary("/p", request("x"), soon()), (error) => {
      assert.ok(error instanceof GrpcError, String(error));
      assert.equal(error.code, 14);
      assert.equal(error.sent, true);
      return true;
    });
    fake.handle(replyWith((body) => `again:${body}`));
    assert.equal((await channel.unary("/p", request("y"), soon())).toString(), "again:y");
  });

  test("stream: messages both ways as they come, then a clean end", async () => {
    fake.handle((stream) => {
      stream.respond(ok, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      const parser = new FrameParser();
      stream.on("data", (chunk: Buffer) => {
        for (const m of parser.push(chunk)) stream.write(framed(`<${m.toString()}>`));
      });
      stream.on("end", () => stream.end());
    });
    const received: string[] = [];
    let closed: (error: GrpcError | undefined) => void = () => undefined;
    const end = new Promise<GrpcError | undefined>((resolve) => {
      closed = resolve;
    });
    const s = await channel.stream("/etcdserverpb.Watch/Watch", soon(), {
      onMessage: (m) => received.push(m.toString()),
      onClose: (error) => closed(error),
    });
    s.write(request("a"));
    s.write(request("b"));
    s.write(request("c"));
    s.end();
    assert.equal(await end, undefined, "a clean end has no error");
    assert.deepEqual(received, ["<a>", "<b>", "<c>"]);
    assert.equal(fake.seen.at(-1)?.["grpc-timeout"], undefined, "a stream has no deadline");
  });
});

describe("GrpcChannel without a server", () => {
  ensureNoLeaksInEachTest();

  test("a refused connection is UNAVAILABLE and surely not sent", async () => {
    const port = await freePort();
    const channel = new GrpcChannel({ url: `http://127.0.0.1:${port}` });
    try {
      await assert.rejects(channel.unary("/p", request("x"), Date.now() + 2000), (error) => {
        assert.ok(error instanceof GrpcError, String(error));
        assert.equal(error.code, 14);
        assert.equal(error.sent, false, "nothing was sent");
        assert.match(
          error.message,
          /No connection established to http:\/\/127\.0\.0\.1:\d+\. Last error: .*ECONNREFUSED/,
        );
        return true;
      });
      // Within the reconnect backoff the same failure comes back at once.
      await assert.rejects(channel.unary("/p", request("x"), Date.now() + 2000), /ECONNREFUSED/);
    } finally {
      channel.close();
    }
  });

  test("a peer that never speaks HTTP/2 is UNAVAILABLE at the deadline, not sent", async () => {
    const sockets = new Set<Socket>();
    const server: Server = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => undefined);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no address");
    const channel = new GrpcChannel({ url: `http://127.0.0.1:${address.port}` });
    try {
      await assert.rejects(channel.unary("/p", request("x"), Date.now() + 300), (error) => {
        assert.ok(error instanceof GrpcError, String(error));
        assert.equal(error.code, 14);
        assert.equal(error.sent, false);
        assert.match(error.message, /the connection was not up before the deadline/);
        return true;
      });
    } finally {
      channel.close();
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  test("keepalive: a member that stops answering pings is dropped, failing its open streams", async () => {
    // Speaks just enough HTTP/2 to be connected (its SETTINGS, an ACK of ours), then nothing.
    const sockets = new Set<Socket>();
    const server: Server = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.write(Buffer.from("000000040000000000" + "000000040100000000", "hex"));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no address");
    const channel = new GrpcChannel({
      url: `http://127.0.0.1:${address.port}`,
      keepaliveTimeMs: 100,
      keepaliveTimeoutMs: 100,
    });
    try {
      const closed = new Promise<GrpcError | undefined>((resolve) => {
        void channel.stream("/etcdserverpb.Watch/Watch", Date.now() + 2000, {
          onMessage: () => undefined,
          onClose: resolve,
        });
      });
      const error = await closed;
      assert.ok(error instanceof GrpcError, `the stream failed: ${String(error)}`);
      assert.equal(error.code, 14);
      assert.match(error.message, /keepalive ping not answered within 100 ms/);
    } finally {
      channel.close();
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  test("a closed channel refuses calls", async () => {
    const channel = new GrpcChannel({ url: "http://127.0.0.1:1" });
    channel.close();
    await assert.rejects(
      channel.unary("/p", request("x"), Date.now() + 1000),
      /Channel already closed/,
    );
  });

  test("only http:// and https:// endpoints are accepted", () => {
    assert.throws(
      () => new GrpcChannel({ url: "unix:///tmp/etcd.sock" }),
      /use http:\/\/ or https:\/\//,
    );
  });
});

describe("FrameParser", () => {
  test("messages split at every byte, and several in one chunk", () => {
    const bytes = Buffer.concat([framed("one"), framed(""), framed("three".repeat(100))]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const parser = new FrameParser();
      const got = [...parser.push(bytes.subarray(0, cut)), ...parser.push(bytes.subarray(cut))];
      assert.deepEqual(
        got.map((m) => m.toString()),
        ["one", "", "three".repeat(100)],
        `cut at ${cut}`,
      );
      assert.equal(parser.buffered, 0, "nothing left over");
    }
    const parser = new FrameParser();
    const oneByOne = [...bytes].flatMap((byte) => parser.push(Buffer.from([byte])));
    assert.equal(oneByOne.length, 3, "byte by byte");
  });
});
