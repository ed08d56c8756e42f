/**
 * Crash safety over HTTP: SIGKILL `gantry up` (SQLite) while clients write concurrently, restart
 * it on the same data dir, and check that every acknowledged write is there and that a watch from
 * the last revision seen before the crash either resumes without gaps or duplicates, or gets 410.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { test } from "node:test";
import { type GantryProcess, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

const namespace = "crash";
const writers = 8;
/** Acknowledged writes after which the server is killed; writers keep going until it dies. */
const killAfterAcks = 400;

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** One JSON request; rejects when the connection fails. */
function call(
  base: URL,
  agent: Agent,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        headers: {
          accept: "application/json",
          ...(data === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(data.length) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          try {
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(text) as Record<string, unknown>,
            });
          } catch (error: unknown) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error("no answer within 10 s")));
    req.on("error", reject);
    req.end(data);
  });
}

interface WatchEvent {
  readonly type: string;
  readonly name: string;
  readonly rv: number;
  readonly code: number | undefined;
}

/** A streaming watch that records events until the connection ends or `close` is called. */
function openWatch(base: URL, path: string) {
  const events: WatchEvent[] = [];
  let close: () => void = () => undefined;
  let responded = false;
  const ended = new Promise<void>((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, method: "GET" }, (res) => {
      responded = true;
      if (res.statusCode !== 200) {
        events.push({ type: "HTTP", name: "", rv: 0, code: res.statusCode });
        res.resume();
        res.on("end", () => resolve());
        return;
      }
      let buffered = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffered += chunk;
        for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (line.trim() === "") continue;
          const event = JSON.parse(line) as { type: string; object: Record<string, unknown> };
          const meta = (event.object["metadata"] ?? {}) as Record<string, unknown>;
          events.push({
            type: event.type,
            name: String(meta["name"] ?? ""),
            rv: Number(meta["resourceVersion"] ?? 0),
            code: typeof event.object["code"] === "number" ? event.object["code"] : undefined,
          });
        }
      });
      res.on("end", () => resolve());
      res.on("error", () => resolve());
      res.on("close", () => resolve());
    });
    // Once the answer has started, an error only means the stream ended (closed, or the crash).
    req.on("error", (error: Error) => (responded ? resolve() : reject(error)));
    req.end();
    close = () => req.destroy();
  });
  return { events, ended, close: () => close(), responded: () => responded };
}

/** Polls until `done` holds or `ms` pass. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

test("Gantry.up: after SIGKILL during concurrent writes every acknowledged write survives and a watch resumes or gets 410", {
  timeout: 90_000,
}, async (t) => {
  const first = await startGantry({ storage: "sqlite" });
  const dataDir = first.dataDir;
  let second: GantryProcess | undefined;
  let agent = new Agent({ keepAlive: true, maxSockets: writers });
  try {
    const base = new URL(first.url);
    const created = await call(base, agent, "POST", "/api/v1/namespaces", {
      metadata: { name: namespace },
    });
    assert.equal(created.status, 201);
    const collection = `/api/v1/namespaces/${namespace}/configmaps`;
    const listed = await call(base, agent, "GET", collection);
    const startRv = String((listed.body["metadata"] as Record<string, unknown>)["resourceVersion"]);
    const watch = openWatch(base, `${collection}?watch=true&resourceVersion=${startRv}`);

    // Every acknowledged write: name → the highest revision and sequence number acknowledged.
    const acked = new Map<string, { rv: number; seq: number }>();
    const ackedRvs: number[] = [];
    let acks = 0;
    const ack = (name: string, answer: Answer, seq: number): void => {
      const rv = Number((answer.body["metadata"] as Record<string, unknown>)["resourceVersion"]);
      const before = acked.get(name);
      if (before === undefined || rv > before.rv) acked.set(name, { rv, seq });
      ackedRvs.push(rv);
      acks++;
      if (acks === killAfterAcks) first.child.kill("SIGKILL");
    };
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; ; i++) {
        const name = `w${w}-${i}`;
        try {
          const made = await call(base, agent, "POST", collection, {
            metadata: { name },
            data: { seq: "0" },
          });
          assert.equal(made.status, 201, JSON.stringify(made.body));
          ack(name, made, 0);
          for (let seq = 1; seq <= 2; seq++) {
            const updated = await call(base, agent, "PUT", `${collection}/${name}`, {
              metadata: { name },
              data: { seq: String(seq) },
            });
            assert.equal(updated.status, 200, JSON.stringify(updated.body));
            ack(name, updated, seq);
          }
        } catch (error: unknown) {
          if (error instanceof assert.AssertionError) throw error;
          return; // the server is gone: this writer's in-flight request was never acknowledged
        }
      }
    };
    await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
    await first.stop();
    await watch.ended;
    assert.ok(acks >= killAfterAcks, `${acks} writes were acknowledged before the crash`);
    const seen = watch.events.filter((e) => e.type !== "BOOKMARK");
    const lastSeen = seen.reduce((max, e) => Math.max(max, e.rv), Number(startRv));
    t.diagnostic(`${acks} acknowledged writes, ${seen.length} watch events, last seen ${lastSeen}`);

    second = await startGantry({ storage: "sqlite", dataDir });
    const again = new URL(second.url);
    // The restarted server may reuse the port: drop the keep-alive sockets to the dead one.
    agent.destroy();
    agent = new Agent({ keepAlive: true, maxSockets: writers });
    for (const [name, want] of acked) {
      const got = await call(again, agent, "GET", `${collection}/${name}`);
      assert.equal(got.status, 200, `acknowledged configmap ${name} is missing after the crash`);
      const meta = got.body["metadata"] as Record<string, unknown>;
      const rv = Number(meta["resourceVersion"]);
      assert.ok(
        rv >= want.rv,
        `${name}: resourceVersion ${rv} is older than the acknowledged ${want.rv}`,
      );
      const seq = Number((got.body["data"] as Record<string, unknown>)["seq"]);
      // The write after the last acknowledged one may have landed unacknowledged, no further.
      assert.ok(
        seq === want.seq || seq === want.seq + 1,
        `${name}: data.seq ${seq}, acknowledged ${want.seq}`,
      );
    }

    const resumed = openWatch(
      again,
      `${collection}?watch=true&resourceVersion=${lastSeen}&timeoutSeconds=10`,
    );
    const expected = ackedRvs.filter((rv) => rv > lastSeen).sort((a, b) => a - b);
    const covered = (): boolean => {
      const rvs = new Set(resumed.events.map((e) => e.rv));
      return resumed.events.some((e) => e.code === 410) || expected.every((rv) => rvs.has(rv));
    };
    await until(() => resumed.responded() && covered(), 10_000);
    // Anything more (a duplicate, an event from before lastSeen) would arrive right behind.
    await new Promise((r) => setTimeout(r, 300));
    resumed.close();
    await resumed.ended;
    const first410 = resumed.events[0];
    if (first410 !== undefined && (first410.code === 410 || first410.type === "HTTP")) {
      assert.equal(first410.code, 410, `the resumed watch answered ${JSON.stringify(first410)}`);
      assert.equal(resumed.events.length, 1, "nothing follows the 410");
      t.diagnostic(`the watch from ${lastSeen} got 410 Expired after the restart`);
    } else {
      const rvs = resumed.events.filter((e) => e.type !== "BOOKMARK").map((e) => e.rv);
      for (let i = 0; i < rvs.length; i++) {
        assert.ok((rvs[i] ?? 0) > lastSeen, `event ${rvs[i]} is not after ${lastSeen}`);
        if (i > 0)
          assert.ok((rvs[i] ?? 0) > (rvs[i - 1] ?? 0), `duplicate or out-of-order event ${rvs[i]}`);
      }
      const got = new Set(rvs);
      assert.deepEqual(
        expected.filter((rv) => !got.has(rv)),
        [],
        "the resumed watch has no gaps",
      );
      t.diagnostic(`the watch from ${lastSeen} resumed with ${rvs.length} events`);
    }
  } finally {
    agent.destroy();
    await first.stop("SIGKILL");
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
