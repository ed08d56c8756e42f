import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { Gauge, Registry } from "prom-client";
import { builtInKinds, qosClassOf } from "../api/index.ts";
import { newMemoryStorage } from "../storage/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { discardLogger, seededRandom, systemClock } from "../util/index.ts";
import { admit } from "./admission/index.ts";
import { ApiServer } from "./api-server.ts";
import { newAnonymousAuthenticator } from "./authn.ts";

ensureNoLeaksInEachTest();

/** A point a request stops at until the test opens it; `reached` settles once one is there. */
interface Gate {
  readonly reached: Promise<void>;
  /** Called by the request: marks the gate reached and waits until it opens. */
  pass(): Promise<void>;
  open(): void;
}

function newGate(): Gate {
  let markReached: () => void = () => undefined;
  let markOpen: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    markReached = resolve;
  });
  const opened = new Promise<void>((resolve) => {
    markOpen = resolve;
  });
  return {
    reached,
    pass: () => {
      markReached();
      return opened;
    },
    open: () => markOpen(),
  };
}

/** Rejects when `promise` has not settled within `ms`, so a stuck request fails the test. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

const adminToken = "admin-token";
const limitBody = "Too many requests, please try again later.\n";

/**
 * An ApiServer allowing one read-only and one mutating request at a time. Creating a pod named
 * `held` stops in admission at `creates`; a `/metrics` scrape stops at `scrapes` while
 * `holdScrapes` is set.
 */
async function startLimitedServer() {
  const creates = newGate();
  const scrapes = newGate();
  let holdScrapes = false;
  const registry = new Registry();
  new Gauge({
    name: "test_scrape_gate",
    help: "Stops a scrape while the test holds it.",
    registers: [registry],
    async collect() {
      if (holdScrapes) await scrapes.pass();
      this.set(1);
    },
  });
  const storage = newMemoryStorage();
  const server = new ApiServer({
    storage,
    clock: systemClock,
    random: seededRandom(3),
    logger: discardLogger,
    authenticate: newAnonymousAuthenticator(adminToken),
    kinds: builtInKinds(),
    qosClassOf: qosClassOf as never,
    metricsRegistry: registry,
    maxRequestsInFlight: 1,
    maxMutatingRequestsInFlight: 1,
    extraAdmission: () => [
      {
        name: "TestGate",
        handles: (a) => a.operation === "CREATE" && a.resource === "pods" && a.name === "held",
        mutate: async () => {
          await creates.pass();
          return admit;
        },
      },
    ],
  });
  const stop = new AbortController();
  const { done } = await server.start(stop.signal);
  const http = createServer(server.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const send = (method: string, path: string, body?: unknown, token?: string) =>
    within(
      fetch(`${url}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
      10_000,
      `${method} ${path}`,
    );
  const pod = (name: string) => ({
    metadata: { name },
    spec: { containers: [{ name: "c", image: "busybox" }] },
  });
  return {
    send,
    pod,
    creates,
    scrapes,
    holdScrapes: (hold: boolean) => {
      holdScrapes = hold;
    },
    url,
    async [Symbol.asyncDispose]() {
      creates.open();
      scrapes.open();
      stop.abort();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await done;
      await storage.close();
    },
  };
}

/** Checks a response is the limiter's 429, byte for byte as upstream writes it. */
async function assertTooManyRequests(response: Response): Promise<void> {
  assert.equal(response.status, 429);
  assert.equal(await response.text(), limitBody);
  assert.equal(response.headers.get("retry-after"), "1");
  assert.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
}

test("HttpHandler: a full mutating pool answers 429 with Retry-After until a seat frees", async () => {
  await using s = await startLimitedServer();
  const namespace = await s.send("POST", "/api/v1/namespaces", { metadata: { name: "default" } });
  assert.equal(namespace.status, 201, await namespace.text());
  const pods = "/api/v1/namespaces/default/pods";
  const held = s.send("POST", pods, s.pod("held"));
  await within(s.creates.reached, 10_000, "the held create reaching admission");

  await assertTooManyRequests(await s.send("POST", pods, s.pod("turned-away")));
  const read = await s.send("GET", "/api/v1/namespaces/default");
  assert.equal(read.status, 200, "reads have their own pool");
  const byAdmin = await s.send("POST", pods, s.pod("by-admin"), adminToken);
  assert.equal(byAdmin.status, 201, "system:masters is served over the limit");

  s.creates.open();
  assert.equal((await held).status, 201);
  const after = await s.send("POST", pods, s.pod("after"));
  assert.equal(after.status, 201, await after.text());
  const missing = await s.send("GET", `${pods}/turned-away`);
  assert.equal(missing.status, 404, "the rejected create wrote nothing");
});

test("HttpHandler: a full read-only pool answers 429, but watches and writes still go through", async () => {
  await using s = await startLimitedServer();
  const namespace = await s.send("POST", "/api/v1/namespaces", { metadata: { name: "default" } });
  assert.equal(namespace.status, 201, await namespace.text());
  const pods = "/api/v1/namespaces/default/pods";
  s.holdScrapes(true);
  const scrape = s.send("GET", "/metrics");
  await within(s.scrapes.reached, 10_000, "the held scrape reaching its collector");

  await assertTooManyRequests(await s.send("GET", "/api/v1/namespaces/default"));
  const created = await s.send("POST", pods, s.pod("web"));
  assert.equal(created.status, 201, "writes have their own pool");
  const watchAbort = new AbortController();
  const watch = await within(
    fetch(`${s.url}${pods}?watch=1`, { signal: watchAbort.signal }),
    10_000,
    "a watch",
  );
  assert.equal(watch.status, 200, "a watch is long-running and takes no seat");
  watchAbort.abort();

  s.holdScrapes(false);
  s.scrapes.open();
  assert.equal((await scrape).status, 200);
  const after = await s.send("GET", `${pods}/web`);
  assert.equal(after.status, 200, await after.text());
  // A scrape takes a read-only seat itself, and counts what was turned away before it.
  const metrics = await (await s.send("GET", "/metrics")).text();
  assert.match(metrics, /^apiserver_dropped_requests_total\{request_kind="readOnly"\} 1$/m);
  assert.match(metrics, /^apiserver_current_inflight_requests\{request_kind="readOnly"\} 1$/m);
  assert.match(
    metrics,
    /^apiserver_request_total\{verb="GET",resource="namespaces",subresource="",code="429"\} 1$/m,
  );
});
