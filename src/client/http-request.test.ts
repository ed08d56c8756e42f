import assert from "node:assert/strict";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { TransportError } from "./errors.ts";
import {
  type Connection,
  type HttpResponse,
  newConnection,
  readText,
  send,
  warningsOf,
} from "./http-request.ts";

ensureNoLeaksInEachTest();

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const cases = [
  { method: "GET", want: "retried" },
  { method: "PUT", want: "retried" },
  { method: "POST", want: "ECONNRESET" },
] as const;
for (const c of cases) {
  test(`send: a ${c.method} on a pooled connection the server closed is ${c.want === "retried" ? "sent again" : "not repeated"}`, async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.method ?? "");
      res.end("ok");
    });
    const url = await listen(server);
    const connection = newConnection({ server: url, userAgent: "gantry/test", timeoutMs: 5000 });
    const signal = AbortSignal.timeout(5000);
    try {
      // The first request leaves a keep-alive connection in the pool.
      await readText(await send(connection, { method: "GET", path: "/", signal }), "GET /");
      // The server drops it; the client has not noticed yet when it reuses it.
      server.closeAllConnections();
      const outcome = await send(connection, {
        method: c.method,
        path: "/",
        body: "{}",
        signal,
      }).then(
        async (res) => ((await readText(res, c.method)) === "ok" ? "retried" : "?"),
        (error: unknown) => (error instanceof TransportError ? error.code : String(error)),
      );
      assert.equal(outcome, c.want);
      assert.deepEqual(seen, c.want === "retried" ? ["GET", c.method] : ["GET"]);
    } finally {
      connection.pool.destroy();
      await close(server);
    }
  });
}

test("send: sends the user agent, bearer token and JSON content type", async () => {
  let headers: Record<string, unknown> = {};
  const server = createServer((req, res) => {
    headers = { ...req.headers };
    res.end();
  });
  const url = await listen(server);
  const connection = newConnection({
    server: url,
    userAgent: "gantry/kubelet",
    token: "t0k",
    timeoutMs: 5000,
  });
  try {
    const res = await send(connection, {
      method: "POST",
      path: "/x",
      body: "{}",
      signal: AbortSignal.timeout(5000),
    });
    await readText(res, "POST /x");
    assert.deepEqual(
      [headers["user-agent"], headers["authorization"], headers["content-type"], headers["accept"]],
      ["gantry/kubelet", "Bearer t0k", "application/json", "application/json"],
    );
  } finally {
    connection.pool.destroy();
    await close(server);
  }
});

/** Runs `body` with a connection to a server answering with `handler`, then closes both. */
async function withServer(
  handler: RequestListener,
  body: (connection: Connection) => Promise<void>,
  timeoutMs = 5000,
): Promise<void> {
  const server = createServer(handler);
  const url = await listen(server);
  const connection = newConnection({ server: url, userAgent: "gantry/test", timeoutMs });
  try {
    await body(connection);
  } finally {
    connection.pool.destroy();
    await close(server);
  }
}

const getRoot = (connection: Connection): Promise<HttpResponse> =>
  send(connection, { method: "GET", path: "/", signal: AbortSignal.timeout(5000) });

test("send: a server that never answers times out with ETIMEDOUT", async () => {
  await withServer(
    () => undefined,
    async (connection) => {
      const error = await getRoot(connection).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof TransportError, "error instanceof TransportError");
      assert.equal(error.code, "ETIMEDOUT");
    },
    50,
  );
});

test("newConnection: rejects a URL that is not http or https", () => {
  assert.throws(
    () => newConnection({ server: "ftp://h", userAgent: "x", timeoutMs: 0 }),
    TypeError,
  );
});

test("warningsOf: reads every quoted warning text", async () => {
  const handler: RequestListener = (_req, res) => {
    res.setHeader("Warning", ['299 - "first"', '299 - "a \\"quoted\\" word"']);
    res.end();
  };
  await withServer(handler, async (connection) => {
    const res = await getRoot(connection);
    await readText(res, "GET /");
    assert.deepEqual(warningsOf(res), ["first", 'a "quoted" word']);
  });
});

test("readText: a body in several chunks comes back whole", async () => {
  const handler: RequestListener = (_req, res) => {
    res.write('{"a":');
    setImmediate(() => res.end("1}"));
  };
  await withServer(handler, async (connection) => {
    assert.equal(await readText(await getRoot(connection), "GET /"), '{"a":1}');
  });
});

test("readText: a connection lost midway through the body is a TransportError", async () => {
  const handler: RequestListener = (_req, res) => {
    res.writeHead(200, { "Content-Length": "100" });
    res.write("only part");
    setImmediate(() => res.socket?.destroy());
  };
  await withServer(handler, async (connection) => {
    await assert.rejects(readText(await getRoot(connection), "GET /"), (error: unknown) => {
      assert.ok(error instanceof TransportError, "the failure is a TransportError");
      assert.match(error.message, /^Cannot GET \/: /);
      return true;
    });
  });
});
