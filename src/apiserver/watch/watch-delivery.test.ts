import assert from "node:assert/strict";
import { type IncomingMessage, request } from "node:http";
import { describe, test } from "node:test";
import { startTestApiServer } from "../../testing/api-server.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

/** One open watch: its lines as they arrive. */
interface OpenWatch {
  readonly lines: string[];
  /** Resolves once `count` lines have arrived (rejects after 10 s). */
  take(count: number): Promise<string[]>;
  /** Resolves with every line once the server ends the response. */
  readonly ended: Promise<string[]>;
  close(): void;
}

function openWatch(base: string, path: string, accept = "application/json"): Promise<OpenWatch> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(url, { headers: { accept } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch ${path}: HTTP ${res.statusCode}`));
        return;
      }
      const lines: string[] = [];
      const waiters: (() => void)[] = [];
      let carry = "";
      res.setEncoding("utf8");
      res.on("data", (text: string) => {
        const parts = (carry + text).split("\n");
        carry = parts.pop() ?? "";
        lines.push(...parts);
        for (const wake of waiters.splice(0)) wake();
      });
      const ended = new Promise<string[]>((done) => res.on("end", () => done(lines)));
      resolve({
        lines,
        take: async (count) => {
          const deadline = Date.now() + 10_000;
          while (lines.length < count) {
            if (Date.now() > deadline)
              throw new Error(`${lines.length} of ${count} lines on ${path}`);
            await new Promise<void>((wake) => {
              waiters.push(wake);
              setTimeout(wake, 100).unref();
            });
          }
          return lines.slice(0, count);
        },
        ended,
        close: () => req.destroy(),
      });
    });
    req.on("error", (error) => {
      if (!("code" in error && error.code === "ECONNRESET")) reject(error);
    });
    req.end();
  });
}

interface Event {
  readonly type: string;
  readonly object: {
    readonly kind?: string;
    readonly metadata: { readonly name?: string; readonly resourceVersion?: string };
    readonly columnDefinitions?: unknown[];
    readonly rows?: { readonly object: { readonly metadata: { readonly name: string } } }[];
    readonly code?: number;
    readonly message?: string;
  };
}

/** The resourceVersion of a written object ("" when there is none). */
const rvOf = (object: Record<string, unknown> | undefined): string =>
  String((object?.["metadata"] as { resourceVersion?: string } | undefined)?.resourceVersion ?? "");

const parse = (lines: readonly string[]): Event[] => lines.map((line) => JSON.parse(line));

const configMap = (name: string, app: string) => ({
  metadata: { name, labels: { app } },
  data: { key: name },
});

describe("watch delivery", { timeout: 60_000 }, () => {
  test("every watcher gets each event once, in order, as its selector and encoding want", async () => {
    await using server = await startTestApiServer();
    const ns = "fanout";
    const sent = await server.send("POST", "/api/v1/namespaces", {
      body: { metadata: { name: ns } },
    });
    assert.equal(sent.status, 201, "namespace created");
    const listed = await server.send("GET", `/api/v1/namespaces/${ns}/configmaps`);
    const rv = ((await listed.json()) as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion;
    const path = `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${rv}`;
    const plain = await Promise.all([openWatch(server.url, path), openWatch(server.url, path)]);
    const selected = await openWatch(server.url, `${path}&labelSelector=app%3Dweb`);
    const table = await openWatch(
      server.url,
      path,
      "application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
    );
    try {
      const written: Record<string, unknown>[] = [];
      const keep = async (response: Response, status: number): Promise<void> => {
        assert.equal(response.status, status, `write answered ${status}`);
        written.push((await response.json()) as Record<string, unknown>);
      };
      const cms = `/api/v1/namespaces/${ns}/configmaps`;
      await keep(await server.send("POST", cms, { body: configMap("a", "web") }), 201);
      await keep(await server.send("POST", cms, { body: configMap("b", "db") }), 201);
      // "a" leaves the selection of app=web: the selecting watcher sees it DELETED.
      await keep(await server.send("PUT", `${cms}/a`, { body: configMap("a", "api") }), 200);
      const deleted = await server.send("DELETE", `${cms}/b`);
      assert.equal(deleted.status, 200, "delete answered 200");

      const want = ["ADDED", "ADDED", "MODIFIED", "DELETED"];
      for (const watch of plain) {
        const events = parse(await watch.take(4));
        assert.deepEqual(
          events.map((e) => e.type),
          want,
          "every change, in revision order",
        );
        assert.deepEqual(
          events.slice(0, 3).map((e) => e.object),
          written,
          "each event carries the object as the write answered it",
        );
        const gone = events[3]?.object.metadata;
        assert.equal(gone?.name, "b");
        assert.ok(
          Number(gone?.resourceVersion) > Number(rvOf(written[2])),
          "the DELETED event carries the deletion's resourceVersion",
        );
      }
      assert.deepEqual(
        await plain[0]?.take(4),
        await plain[1]?.take(4),
        "watchers of the same encoding receive the same text",
      );

      const chosen = parse(await selected.take(2));
      assert.deepEqual(
        chosen.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]),
        [
          ["ADDED", "a", rvOf(written[0])],
          ["DELETED", "a", rvOf(written[2])],
        ],
        "the selector's own view: a DELETED at the update that took the object out",
      );

      const rows = parse(await table.take(4));
      assert.deepEqual(
        rows.map((e) => [e.type, e.object.kind, e.object.rows?.[0]?.object.metadata.name]),
        [
          ["ADDED", "Table", "a"],
          ["ADDED", "Table", "b"],
          ["MODIFIED", "Table", "a"],
          ["DELETED", "Table", "b"],
        ],
        "Table watchers get one row per event",
      );
      assert.ok(
        (rows[0]?.object.columnDefinitions?.length ?? 0) > 0,
        "the first Table event carries the columns",
      );
      assert.ok(
        rows.slice(1).every((e) => (e.object.columnDefinitions?.length ?? 0) === 0),
        "later Table events leave the columns out",
      );
      // A last change every watcher sees: nothing else came before it (nothing about "b" for the
      // selecting watcher, no event twice for the others).
      await keep(await server.send("POST", cms, { body: configMap("c", "web") }), 201);
      const last = ["ADDED", "c"];
      const afterSelected = parse(await selected.take(3)).slice(2);
      assert.deepEqual(
        afterSelected.map((e) => [e.type, e.object.metadata.name]),
        [last],
      );
      for (const watch of plain) {
        const after = parse(await watch.take(5)).slice(4);
        assert.deepEqual(
          after.map((e) => [e.type, e.object.metadata.name]),
          [last],
        );
      }
    } finally {
      for (const watch of [...plain, selected, table]) watch.close();
    }
  });

  test("initial events end with the initial-events-end bookmark", async () => {
    await using server = await startTestApiServer();
    const ns = "initial";
    await server.send("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    for (const name of ["x", "y", "z"]) {
      const res = await server.send("POST", cms, { body: configMap(name, "web") });
      assert.equal(res.status, 201, `configmap ${name} created`);
    }
    const watch = await openWatch(
      server.url,
      `${cms}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
    );
    try {
      const events = parse(await watch.take(4));
      assert.deepEqual(
        events.map((e) => [e.type, e.object.metadata.name ?? ""]),
        [
          ["ADDED", "x"],
          ["ADDED", "y"],
          ["ADDED", "z"],
          ["BOOKMARK", ""],
        ],
        "the current objects, then the bookmark",
      );
      const bookmark = events[3]?.object.metadata as { annotations?: Record<string, string> };
      assert.deepEqual(bookmark.annotations, { "k8s.io/initial-events-end": "true" });
    } finally {
      watch.close();
    }
  });

  test("a resourceVersion older than the history gets one 410 ERROR event and the end", async () => {
    await using server = await startTestApiServer({ watchHistorySize: 2 });
    const ns = "expired";
    await server.send("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const first = await server.send("POST", cms, { body: configMap("c0", "web") });
    const rv = ((await first.json()) as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion;
    for (let i = 1; i <= 4; i++) {
      const res = await server.send("POST", cms, { body: configMap(`c${i}`, "web") });
      assert.equal(res.status, 201, `configmap c${i} created`);
    }
    const watch = await openWatch(server.url, `${cms}?watch=true&resourceVersion=${rv}`);
    const events = parse(await watch.ended);
    assert.equal(events.length, 1, "one event, then the response ends");
    assert.equal(events[0]?.type, "ERROR");
    assert.equal(events[0]?.object.code, 410);
    assert.match(events[0]?.object.message ?? "", /^too old resource version: /);
  });

  test("timeoutSeconds ends the watch, with the events before it delivered", async () => {
    await using server = await startTestApiServer();
    const ns = "timeout";
    await server.send("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const res = await server.send("POST", cms, { body: configMap("t", "web") });
    assert.equal(res.status, 201, "configmap created");
    const watch = await openWatch(server.url, `${cms}?watch=true&timeoutSeconds=1`);
    const events = parse(await watch.ended);
    assert.deepEqual(
      events.map((e) => [e.type, e.object.metadata.name]),
      [["ADDED", "t"]],
      "the initial event, then the end",
    );
  });
});
