import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, test } from "node:test";
import { FakeClock } from "./fake-clock.ts";
import {
  activeResources,
  ensureNoLeaks,
  ensureNoLeaksAfterSuite,
  leaksSince,
} from "./leak-check.ts";

test("leaksSince: a server left listening is reported, and nothing once it is closed", async () => {
  const before = activeResources();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const leaks = await leaksSince(before, { settleMs: 50 });
  assert.match(leaks, /still keeping the process alive: 1 TCPServerWrap/);
  assert.match(leaks, /dispose what it started/);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.equal(await leaksSince(before, { settleMs: 1000 }), "");
});

test("leaksSince: a pending timer is reported; an unref'd one keeps nothing alive", async () => {
  const before = activeResources();
  const pending = setTimeout(() => undefined, 60_000);
  const idle = setTimeout(() => undefined, 60_000).unref();
  try {
    assert.match(await leaksSince(before, { settleMs: 50 }), /1 Timeout/);
    clearTimeout(pending);
    assert.equal(await leaksSince(before, { settleMs: 50 }), "");
  } finally {
    clearTimeout(pending);
    clearTimeout(idle);
  }
});

test("leaksSince: a sleep still pending on the FakeClock is reported", async () => {
  const clock = new FakeClock(new Date("2026-01-01T00:00:00Z"));
  const stop = new AbortController();
  const before = activeResources();
  const sleeping = clock.sleep(1000, stop.signal).catch(() => "aborted");
  assert.match(await leaksSince(before, { clock, settleMs: 50 }), /1 sleep\(s\) still pending/);
  stop.abort();
  assert.equal(await sleeping, "aborted");
  assert.equal(await leaksSince(before, { clock, settleMs: 50 }), "");
});

test("ensureNoLeaks: a test that closes what it opened passes its check", async (t) => {
  ensureNoLeaks(t);
  const server = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  assert.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), "ok");
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("ensureNoLeaksAfterSuite: a suite sharing a server", () => {
  let server: Server | undefined;
  before(async () => {
    server = createServer((_req, res) => res.end("shared"));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });
  ensureNoLeaksAfterSuite();

  for (const n of [1, 2]) {
    test(`request ${n} over the shared server`, async () => {
      const address = server?.address();
      assert.ok(typeof address === "object" && address !== null, "the shared server listens");
      const { port } = address;
      assert.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), "shared");
    });
  }
});
