import assert from "node:assert/strict";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { test } from "node:test";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { Http1Pool, type PoolOptions, type PoolResponse } from "./http1-pool.ts";

ensureNoLeaksInEachTest();

interface Served {
  readonly pool: Http1Pool;
  /** Every connection the server accepted, in order. */
  readonly sockets: Socket[];
  get: (path: string, signal?: AbortSignal) => Promise<PoolResponse>;
}

/** Runs `body` against a server answering with `handler`, then closes both. */
async function withServer(
  handler: RequestListener,
  body: (served: Served) => Promise<void>,
  options: Partial<PoolOptions> = {},
): Promise<void> {
  const server: Server = createServer({ keepAliveTimeout: 10_000 }, handler);
  const sockets: Socket[] = [];
  server.on("connection", (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const pool = new Http1Pool({
    origin: `http://127.0.0.1:${port}`,
    host: "127.0.0.1",
    port,
    ...options,
  });
  const get = (path: string, signal = AbortSignal.timeout(5000)): Promise<PoolResponse> =>
    pool.request({
      method: "GET",
      head: `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
      timeoutMs: 5000,
      signal,
    });
  try {
    await body({ pool, sockets, get });
  } finally {
    pool.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test("Http1Pool: requests one after another share one keep-alive connection", async () => {
  await withServer(
    (req, res) => res.end(`you asked for ${req.url}`),
    async ({ get, sockets }) => {
      for (const path of ["/a", "/b", "/c"]) {
        const res = await get(path);
        assert.equal(res.statusCode, 200);
        assert.equal(await res.body.text(), `you asked for ${path}`);
      }
      assert.equal(sockets.length, 1, "one connection served the three requests");
    },
  );
});

test("Http1Pool: concurrent requests open connections, and at most maxFreeSockets stay", async () => {
  const waiting: (() => void)[] = [];
  await withServer(
    (_req, res) => {
      // Hold every answer until all three requests are in, so that they overlap.
      waiting.push(() => res.end("ok"));
      if (waiting.length === 3) for (const answer of waiting) answer();
    },
    async ({ get, sockets }) => {
      const answers = await Promise.all([get("/1"), get("/2"), get("/3")]);
      assert.deepEqual(await Promise.all(answers.map((r) => r.body.text())), ["ok", "ok", "ok"]);
      assert.equal(sockets.length, 3, "three requests in flight, three connections");
      // The server sees the pool's closes a moment later; its own idle timeout is 10 s.
      const open = (): number => sockets.filter((s) => !s.closed).length;
      for (let waited = 0; open() > 1 && waited < 2000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(open(), 1, "the pool closed the connections beyond maxFreeSockets");
    },
    { maxFreeSockets: 1 },
  );
});

test("Http1Pool: a connection the server closes is not reused", async () => {
  await withServer(
    (_req, res) => {
      res.setHeader("Connection", "close");
      res.end("bye");
    },
    async ({ get, sockets }) => {
      assert.equal(await (await get("/")).body.text(), "bye");
      assert.equal(await (await get("/")).body.text(), "bye");
      assert.equal(sockets.length, 2, "each request needed a new connection");
    },
  );
});

test("Http1Pool: a streamed body larger than the read buffer arrives whole", async () => {
  const piece = "0123456789abcdef".repeat(4096); // 64 KiB
  const pieces = 64; // 4 MiB in all, more than ResponseBody buffers before pausing the socket
  await withServer(
    (_req, res) => {
      let sent = 0;
      const more = (): void => {
        while (sent < pieces) {
          sent++;
          if (!res.write(piece)) {
            res.once("drain", more);
            return;
          }
        }
        res.end();
      };
      more();
    },
    async ({ get }) => {
      const res = await get("/stream");
      let bytes = 0;
      let chunks = 0;
      for await (const chunk of res.body) {
        bytes += chunk.length;
        chunks++;
        // A slow reader: the server must wait for it (backpressure), not fill memory.
        if (chunks % 16 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      assert.equal(bytes, piece.length * pieces);
      assert.ok(res.body.complete, "the body is complete after the last chunk");
    },
  );
});

test("Http1Pool: a body read whole with text() is not held back, however large", async () => {
  const big = "x".repeat(6 * 1024 * 1024); // more than a streaming reader may leave unread
  await withServer(
    (_req, res) => res.end(big),
    async ({ get }) => {
      const res = await get("/big");
      assert.equal((await res.body.text()).length, big.length);
    },
  );
});

test("Http1Pool: aborting the signal stops a streaming body with the signal's reason", async () => {
  await withServer(
    (_req, res) => {
      res.write("first part\n");
    },
    async ({ get }) => {
      const stop = new AbortController();
      const res = await get("/watch", stop.signal);
      const seen: string[] = [];
      const reading = (async () => {
        for await (const chunk of res.body) {
          seen.push(chunk.toString());
          stop.abort(new Error("stopped by the caller"));
        }
      })();
      await assert.rejects(reading, /stopped by the caller/);
      assert.deepEqual(seen, ["first part\n"]);
    },
  );
});

test("Http1Pool: a refused connection rejects with ECONNREFUSED", async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const pool = new Http1Pool({ origin: `http://127.0.0.1:${port}`, host: "127.0.0.1", port });
  try {
    await assert.rejects(
      pool.request({
        method: "GET",
        head: "GET / HTTP/1.1\r\nHost: x\r\n\r\n",
        timeoutMs: 5000,
        signal: AbortSignal.timeout(5000),
      }),
      (error: unknown) => (error as { code?: string }).code === "ECONNREFUSED",
    );
  } finally {
    pool.destroy();
  }
});

test("Http1Pool: after destroy, requests in flight and new ones fail", async () => {
  await withServer(
    () => undefined,
    async ({ pool, get }) => {
      const inFlight = get("/never-answered");
      await new Promise((resolve) => setTimeout(resolve, 20));
      pool.destroy();
      await assert.rejects(inFlight, (error: unknown) => {
        assert.equal((error as { code?: string }).code, "ECONNRESET");
        return true;
      });
      await assert.rejects(get("/"), (error: unknown) => {
        assert.equal((error as { code?: string }).code, "ECLOSED");
        return true;
      });
    },
  );
});
