import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { TransportError } from "./errors.ts";
import { newConnection, readText, send, warningsOf } from "./http-request.ts";

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
      connection.agent.destroy();
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
    connection.agent.destroy();
    await close(server);
  }
});

test("send: a server that never answers times out with ETIMEDOUT", async () => {
  const server = createServer(() => undefined);
  const url = await listen(server);
  const connection = newConnection({ server: url, userAgent: "gantry/test", timeoutMs: 50 });
  try {
    const error = await send(connection, {
      method: "GET",
      path: "/",
      signal: AbortSignal.timeout(5000),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof TransportError, "error instanceof TransportError");
    assert.equal(error.code, "ETIMEDOUT");
  } finally {
    connection.agent.destroy();
    await close(server);
  }
});

test("newConnection: rejects a URL that is not http or https", () => {
  assert.throws(
    () => newConnection({ server: "ftp://h", userAgent: "x", timeoutMs: 0 }),
    TypeError,
  );
});

test("warningsOf: reads every quoted warning text", async () => {
  const server = createServer((_req, res) => {
    res.setHeader("Warning", ['299 - "first"', '299 - "a \\"quoted\\" word"']);
    res.end();
  });
  const url = await listen(server);
  const connection = newConnection({ server: url, userAgent: "gantry/test", timeoutMs: 5000 });
  try {
    const res = await send(connection, {
      method: "GET",
      path: "/",
      signal: AbortSignal.timeout(5000),
    });
    await readText(res, "GET /");
    assert.deepEqual(warningsOf(res), ["first", 'a "quoted" word']);
  } finally {
    connection.agent.destroy();
    await close(server);
  }
});

test("readText: a body in several chunks comes back whole", async () => {
  const server = createServer((_req, res) => {
    res.write('{"a":');
    setImmediate(() => res.end("1}"));
  });
  const url = await listen(server);
  const connection = newConnection({ server: url, userAgent: "gantry/test", timeoutMs: 5000 });
  try {
    const res = await send(connection, {
      method: "GET",
      path: "/",
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(await readText(res, "GET /"), '{"a":1}');
  } finally {
    connection.agent.destroy();
    await close(server);
  }
});

test("readText: a connection lost midway through the body is a TransportError", async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Length": "100" });
    res.write("only part");
    setImmediate(() => res.socket?.destroy());
  });
  const url = await listen(server);
  const connection = newConnection({ server: url, userAgent: "gantry/test", timeoutMs: 5000 });
  try {
    const res = await send(connection, {
      method: "GET",
      path: "/",
      signal: AbortSignal.timeout(5000),
    });
    await assert.rejects(readText(res, "GET /"), (error: unknown) => {
      assert.ok(error instanceof TransportError, "the failure is a TransportError");
      assert.match(error.message, /^Cannot GET \/: /);
      return true;
    });
  } finally {
    connection.agent.destroy();
    await close(server);
  }
});
