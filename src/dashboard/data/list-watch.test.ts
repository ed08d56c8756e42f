import assert from "node:assert/strict";
import { test } from "node:test";
import { type FetchLike, newApiClient } from "./api-client.ts";
import { backoffMs, runListWatch } from "./list-watch.ts";
import { ResourceStore, type StoredObject } from "./resource-store.ts";

interface Obj extends StoredObject {
  readonly metadata: { name: string; namespace?: string; resourceVersion: string };
}

const obj = (name: string, rv: string): Obj => ({ metadata: { name, resourceVersion: rv } });
const line = (type: string, object: unknown): string => `${JSON.stringify({ type, object })}\n`;

/**
 * A fake server: answers each request with the next scripted response and records the URL.
 * When the script runs out it aborts the run, so every test ends on its own.
 */
function fakeFetch(script: readonly (() => Response)[], stop: AbortController) {
  const urls: string[] = [];
  const fetch: FetchLike = async (url) => {
    urls.push(url);
    const next = script[urls.length - 1];
    if (next === undefined) {
      stop.abort();
      throw new DOMException("aborted", "AbortError");
    }
    return next();
  };
  return { fetch, urls };
}

const json =
  (body: unknown, status = 200) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const stream = (text: string) => () => new Response(text, { status: 200 });

async function run(script: readonly (() => Response)[], store = new ResourceStore<Obj>("things")) {
  const stop = new AbortController();
  const { fetch, urls } = fakeFetch(script, stop);
  const api = newApiClient({ fetch, token: () => "t0ken" });
  const sleeps: number[] = [];
  await runListWatch(
    api,
    store,
    {
      path: "/api/v1/things",
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
    stop.signal,
  );
  return { store, urls, sleeps };
}

test("runListWatch: lists, then watches from the list's resourceVersion and applies events", async () => {
  const { store, urls } = await run([
    json({ metadata: { resourceVersion: "10" }, items: [obj("a", "5"), obj("b", "6")] }),
    stream(
      line("ADDED", obj("c", "11")) +
        line("MODIFIED", { metadata: { name: "a", resourceVersion: "12" }, spec: 1 }) +
        line("DELETED", obj("b", "13")) +
        line("BOOKMARK", { metadata: { resourceVersion: "14" } }),
    ),
  ]);
  assert.deepEqual(
    store.items().map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`),
    ["a@12", "c@11"],
  );
  assert.equal(store.resourceVersion, "14");
  assert.equal(urls[0], "/api/v1/things");
  assert.match(
    urls[1] ?? "",
    /^\/api\/v1\/things\?watch=1&resourceVersion=10&allowWatchBookmarks=true/,
  );
});

test("runListWatch: a watch that ends is resumed from the last resourceVersion seen", async () => {
  const { urls } = await run([
    json({ metadata: { resourceVersion: "10" }, items: [] }),
    stream(line("ADDED", obj("a", "11"))),
    stream(""),
  ]);
  assert.equal(urls.length, 4);
  assert.match(urls[2] ?? "", /resourceVersion=11&/);
});

test("runListWatch: a 410 Gone ERROR event lists again", async () => {
  const { store, urls } = await run([
    json({ metadata: { resourceVersion: "10" }, items: [obj("a", "5")] }),
    stream(line("ERROR", { kind: "Status", code: 410, reason: "Expired", message: "too old" })),
    json({ metadata: { resourceVersion: "30" }, items: [obj("z", "29")] }),
  ]);
  assert.equal(urls[2], "/api/v1/things");
  assert.deepEqual(
    store.items().map((o) => o.metadata.name),
    ["z"],
  );
});

test("runListWatch: a watch answered 410 lists again", async () => {
  const { urls } = await run([
    json({ metadata: { resourceVersion: "10" }, items: [] }),
    json({ kind: "Status", code: 410, message: "too old resource version" }, 410),
    json({ metadata: { resourceVersion: "40" }, items: [] }),
  ]);
  assert.deepEqual(urls.filter((u) => u === "/api/v1/things").length, 2);
});

test("runListWatch: a failed list backs off, shows the Status message, and retries", async () => {
  const { store, sleeps } = await run([
    json({ kind: "Status", code: 403, message: "forbidden: no" }, 403),
    json({ kind: "Status", code: 500, message: "broken" }, 500),
  ]);
  assert.deepEqual(sleeps, [backoffMs(1), backoffMs(2)]);
  assert.deepEqual(store.state, { kind: "failing", message: "broken" });
});

test("runListWatch: a store kept from an earlier run resumes its watch without listing", async () => {
  const store = new ResourceStore<Obj>("things");
  store.replace([obj("a", "5")], "50");
  const { urls } = await run([stream("")], store);
  assert.match(urls[0] ?? "", /watch=1&resourceVersion=50&/);
});

test("newApiClient.get: sends the bearer token and reports a 401", async () => {
  let unauthorized = 0;
  let sent: HeadersInit | undefined;
  const api = newApiClient({
    fetch: async (_url, init) => {
      sent = init.headers;
      return new Response(JSON.stringify({ message: "Unauthorized" }), { status: 401 });
    },
    token: () => "secret",
    onUnauthorized: () => unauthorized++,
  });
  await assert.rejects(api.get("/api", new AbortController().signal), {
    name: "ApiRequestError",
    status: 401,
    message: "Unauthorized",
  });
  assert.equal(unauthorized, 1);
  assert.deepEqual(sent, { Accept: "application/json", Authorization: "Bearer secret" });
});

test("backoffMs: doubles from half a second up to eight", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 9].map(backoffMs), [500, 1000, 2000, 4000, 8000, 8000, 8000]);
});
