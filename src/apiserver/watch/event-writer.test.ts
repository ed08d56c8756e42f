import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, test } from "node:test";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { frameLine } from "./event-frame.ts";
import { EventWriter } from "./event-writer.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) =>
    server === undefined ? resolve() : server.close(() => resolve()),
  );
  server = undefined;
});

ensureNoLeaksInEachTest();

async function serve(handler: Handler): Promise<number> {
  const errors: unknown[] = [];
  server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      errors.push(error);
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  return (server.address() as AddressInfo).port;
}

/** Sends `requests` in one TCP write and reads everything until the server closes. */
function exchange(port: number, requests: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(requests));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString()));
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer within 10 s")));
  });
}

const get = (path: string, close: boolean): string =>
  `GET ${path} HTTP/1.1\r\nHost: test\r\n${close ? "Connection: close\r\n" : ""}\r\n`;

/** The bodies of the responses in `wire`, chunked or not, in order. */
function bodies(wire: string): string[] {
  const out: string[] = [];
  let rest = wire;
  while (rest.length > 0) {
    const headEnd = rest.indexOf("\r\n\r\n");
    assert.ok(headEnd >= 0, `a response head in ${JSON.stringify(rest.slice(0, 80))}`);
    const head = rest.slice(0, headEnd);
    rest = rest.slice(headEnd + 4);
    if (/transfer-encoding: chunked/i.test(head)) {
      let body = "";
      for (;;) {
        const lineEnd = rest.indexOf("\r\n");
        const size = Number.parseInt(rest.slice(0, lineEnd), 16);
        assert.ok(
          Number.isInteger(size),
          `a chunk size line in ${JSON.stringify(rest.slice(0, 20))}`,
        );
        const data = Buffer.from(rest.slice(lineEnd + 2));
        body += data.subarray(0, size).toString();
        rest = data.subarray(size).toString();
        assert.equal(rest.slice(0, 2), "\r\n", "each chunk ends in CRLF");
        rest = rest.slice(2);
        if (size === 0) break;
      }
      out.push(body);
    } else {
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      out.push(rest.slice(0, length));
      rest = rest.slice(length);
    }
  }
  return out;
}

function startEvents(res: ServerResponse): void {
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Transfer-Encoding", "chunked");
  res.flushHeaders();
}

/** Counts the writes to the response's socket from now on. */
function countSocketWrites(res: ServerResponse): { readonly count: number } {
  const socket = res.socket as Socket;
  const counter = { count: 0 };
  const write = socket.write;
  socket.write = function (this: Socket, ...args: unknown[]) {
    counter.count++;
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as Socket["write"];
  return counter;
}

const endOfTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("EventWriter", () => {
  test("events of one turn leave in one socket write, at the end of that turn", async () => {
    const counts: number[] = [];
    const port = await serve(async (_req, res) => {
      startEvents(res);
      const writes = countSocketWrites(res);
      const writer = new EventWriter(res, 1 << 20, () => assert.fail("not too slow"));
      writer.write(frameLine("a\n"));
      writer.write(frameLine("b\n"));
      writer.write(frameLine("c\n"));
      counts.push(writes.count);
      await endOfTurn();
      counts.push(writes.count);
      writer.write(frameLine("d\n"));
      await endOfTurn();
      counts.push(writes.count);
      writer.write(frameLine("e\n"));
      writer.close(true);
      counts.push(writes.count);
      res.end();
    });
    const wire = await exchange(port, get("/", true));
    assert.deepEqual(bodies(wire), ["a\nb\nc\nd\ne\n"]);
    assert.deepEqual(counts, [0, 1, 2, 3], "nothing before the turn ends, then one write per turn");
  });

  test("a burst beyond the flush size is written at once, in order", async () => {
    const counts: number[] = [];
    const big = (tag: string): string => `${tag.repeat(100 * 1024)}\n`;
    const port = await serve(async (_req, res) => {
      startEvents(res);
      const writes = countSocketWrites(res);
      const writer = new EventWriter(res, 64 << 20, () => assert.fail("not too slow"));
      writer.write(frameLine(big("a")));
      writer.write(frameLine(big("b")));
      counts.push(writes.count);
      writer.write(frameLine(big("c")));
      counts.push(writes.count);
      writer.write(frameLine("d\n"));
      await endOfTurn();
      counts.push(writes.count);
      writer.close(true);
      res.end();
    });
    const [body] = bodies(await exchange(port, get("/", true)));
    assert.equal(body, `${big("a")}${big("b")}${big("c")}d\n`);
    assert.deepEqual(counts, [0, 1, 2], "300 KiB pending goes out without waiting for the turn");
  });

  test("a response queued behind a pipelined one keeps its events in order", async () => {
    let eventsWritten: () => void = () => undefined;
    const written = new Promise<void>((resolve) => {
      eventsWritten = resolve;
    });
    const port = await serve(async (req, res) => {
      if (req.url === "/first") {
        await written;
        res.end("first");
        return;
      }
      startEvents(res);
      assert.equal(res.socket, null, "the second response waits for the first one's socket");
      const writer = new EventWriter(res, 1 << 20, () => assert.fail("not too slow"));
      writer.write(frameLine("a\n"));
      writer.write(frameLine("b\n"));
      await endOfTurn();
      eventsWritten();
      // The first response ends: this one gets the socket, with "a" and "b" still buffered.
      for (let turn = 0; turn < 1000 && res.socket === null; turn++) await endOfTurn();
      assert.notEqual(res.socket, null, "the socket passes to the second response");
      writer.write(frameLine("c\n"));
      await endOfTurn();
      writer.write(frameLine("d\n"));
      writer.close(true);
      res.end();
    });
    const wire = await exchange(port, `${get("/first", false)}${get("/events", true)}`);
    assert.deepEqual(bodies(wire), ["first", "a\nb\nc\nd\n"]);
  });

  test("a client that stops reading is reported too slow once, and nothing more is written", async () => {
    let slow = 0;
    let afterSlow = -1;
    let turns = 0;
    let handled: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      handled = resolve;
    });
    const port = await serve(async (_req, res) => {
      startEvents(res);
      const writer = new EventWriter(res, 256 * 1024, () => slow++);
      const frame = frameLine(`${"x".repeat(64 * 1024)}\n`);
      // Loopback buffers hold a few MiB: 64 MiB unread is far past them.
      while (slow === 0 && turns < 1024) {
        writer.write(frame);
        await endOfTurn();
        turns++;
      }
      const writes = countSocketWrites(res);
      writer.write(frame);
      await endOfTurn();
      afterSlow = writes.count;
      res.destroy();
      handled();
    });
    const reading = connect(port, "127.0.0.1", () => reading.write(get("/", true)));
    reading.once("data", () => reading.pause());
    await done;
    reading.destroy();
    assert.equal(slow, 1, `too slow reported once (after ${turns} turns)`);
    assert.ok(turns < 1024, `reported before 64 MiB were queued (${turns} turns)`);
    assert.equal(afterSlow, 0, "nothing is written after the report");
  });
});
