import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ApiError, type ConfigMap } from "../api/index.ts";
import { type Client, configMapsResource, namespacesResource, type WatchEvent } from "./client.ts";
import { fromStatus } from "./errors.ts";

/** A server and a client for it, as the list/watch contract needs them. */
export interface ListWatchTarget extends AsyncDisposable {
  readonly client: Client;
  /**
   * Makes every revision written so far unavailable to reads and watches (compaction, or a
   * restart of the server's watch cache), keeping the objects.
   */
  expireHistory(): Promise<void>;
}

/** Bounds every wait of the suite. */
const waitMs = 5000;

/** Every object the suite creates carries this label and every read selects it, so objects the
 * server creates on its own in a namespace (as upstream's root CA publisher does) do not count. */
const mine = "gantry.test/contract=true";

/**
 * The list/watch contract every Client transport must honour against a real API server:
 * selectors, pagination, watch ordering, 410 for expired revisions, and errors that keep the
 * server's Status. `afterSuite` is called at the end of the suite's declaration, after its own
 * `after` hook (which disposes the target) is registered: a caller's leak check goes there.
 */
export function listWatchConformance(
  name: string,
  open: () => Promise<ListWatchTarget>,
  afterSuite: () => void = () => undefined,
): void {
  describe(`${name} list/watch contract`, { timeout: 60_000 }, () => {
    let target: ListWatchTarget;
    let client: Client;
    let namespaces = 0;
    /** A fresh namespace per test, so tests do not see each other's objects. */
    const freshNamespace = async (): Promise<string> => {
      const ns = `contract-${++namespaces}`;
      await client.create(namespacesResource, { metadata: { name: ns } });
      return ns;
    };
    const configMap = (ns: string, cmName: string, labels: Record<string, string> = {}) =>
      client.create<ConfigMap>(configMapsResource, {
        metadata: {
          name: cmName,
          namespace: ns,
          labels: { "gantry.test/contract": "true", ...labels },
        },
        data: { key: cmName },
      });

    before(async () => {
      target = await open();
      client = target.client;
    });
    after(async () => {
      await target[Symbol.asyncDispose]();
    });
    afterSuite();

    const selectorCases = [
      { name: "label equality", options: { labelSelector: `${mine},app=web` }, want: ["a", "c"] },
      { name: "label set-based", options: { labelSelector: `${mine},app in (db)` }, want: ["b"] },
      { name: "label existence", options: { labelSelector: `${mine},!app` }, want: ["d"] },
      { name: "field metadata.name", options: { fieldSelector: "metadata.name=b" }, want: ["b"] },
      {
        name: "label and field together",
        options: { labelSelector: `${mine},app=web`, fieldSelector: "metadata.name!=a" },
        want: ["c"],
      },
    ] as const;
    for (const c of selectorCases) {
      test(`Client.list: ${c.name} selector picks the matching objects`, async () => {
        const ns = await freshNamespace();
        await configMap(ns, "a", { app: "web" });
        await configMap(ns, "b", { app: "db" });
        await configMap(ns, "c", { app: "web" });
        await configMap(ns, "d");
        const got = await client.list<ConfigMap>(configMapsResource, ns, c.options);
        assert.deepEqual(
          got.items.map((item) => item.metadata.name),
          c.want,
        );
      });
    }

    test("Client.list: limit and continue page through every object once, at one revision", async () => {
      const ns = await freshNamespace();
      for (const n of ["a", "b", "c", "d", "e"]) await configMap(ns, n);
      const pages: string[][] = [];
      const revisions = new Set<string>();
      let token: string | undefined;
      do {
        const page = await client.list<ConfigMap>(configMapsResource, ns, {
          labelSelector: mine,
          limit: 2,
          ...(token === undefined ? {} : { continue: token }),
        });
        pages.push(page.items.map((item) => item.metadata.name ?? ""));
        revisions.add(page.metadata.resourceVersion);
        token = page.metadata.continue;
      } while (token !== undefined && pages.length < 10);
      assert.deepEqual(pages, [["a", "b"], ["c", "d"], ["e"]]);
      assert.equal(revisions.size, 1);
    });

    test("Client.list: items carry kind and apiVersion", async () => {
      const ns = await freshNamespace();
      await configMap(ns, "a");
      const got = await client.list<ConfigMap>(configMapsResource, ns, { labelSelector: mine });
      assert.deepEqual(
        got.items.map((item) => [item.apiVersion, item.kind]),
        [["v1", "ConfigMap"]],
      );
    });

    test("Client.watch: from a list's resourceVersion sees ADDED, MODIFIED, DELETED in order", async () => {
      const ns = await freshNamespace();
      const listed = await client.list(configMapsResource, ns);
      const signal = AbortSignal.timeout(waitMs);
      const events = collect(
        client.watch<ConfigMap>(
          configMapsResource,
          ns,
          {
            resourceVersion: listed.metadata.resourceVersion,
            allowWatchBookmarks: true,
            labelSelector: mine,
          },
          signal,
        ),
        3,
      );
      const created = await configMap(ns, "a");
      await client.update<ConfigMap>(configMapsResource, { ...created, data: { key: "changed" } });
      await client.delete(configMapsResource, ns, "a");
      const got = await events;
      assert.deepEqual(
        got.map((e) => [e.type, e.object.metadata.name, dataOf(e)]),
        [
          ["ADDED", "a", "a"],
          ["MODIFIED", "a", "changed"],
          ["DELETED", "a", "changed"],
        ],
      );
      const revisions = got.map((e) => Number(e.object.metadata.resourceVersion));
      assert.deepEqual(
        revisions,
        [...revisions].sort((x, y) => x - y),
      );
      assert.ok(new Set(revisions).size === 3, "every event has its own revision");
    });

    test('Client.watch: resourceVersion "0" starts with ADDED events for what exists', async () => {
      const ns = await freshNamespace();
      await configMap(ns, "a");
      await configMap(ns, "b");
      const got = await collect(
        client.watch<ConfigMap>(
          configMapsResource,
          ns,
          { resourceVersion: "0", labelSelector: mine },
          AbortSignal.timeout(waitMs),
        ),
        2,
      );
      assert.deepEqual(got.map((e) => [e.type, e.object.metadata.name]).sort(), [
        ["ADDED", "a"],
        ["ADDED", "b"],
      ]);
    });

    test("Client.watch: a label selector filters the events", async () => {
      const ns = await freshNamespace();
      const listed = await client.list(configMapsResource, ns);
      const events = collect(
        client.watch<ConfigMap>(
          configMapsResource,
          ns,
          { resourceVersion: listed.metadata.resourceVersion, labelSelector: `${mine},app=web` },
          AbortSignal.timeout(waitMs),
        ),
        2,
      );
      await configMap(ns, "a", { app: "db" });
      await configMap(ns, "b", { app: "web" });
      await configMap(ns, "c", { app: "web" });
      assert.deepEqual(
        (await events).map((e) => [e.type, e.object.metadata.name]),
        [
          ["ADDED", "b"],
          ["ADDED", "c"],
        ],
      );
    });

    test("Client.watch: ends quietly when the signal aborts mid-stream", async () => {
      const ns = await freshNamespace();
      await configMap(ns, "a");
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), waitMs);
      const seen: string[] = [];
      for await (const event of client.watch(
        configMapsResource,
        ns,
        { resourceVersion: "0", labelSelector: mine },
        controller.signal,
      )) {
        seen.push(event.type);
        controller.abort();
      }
      clearTimeout(timer);
      assert.deepEqual(seen, ["ADDED"]);
    });

    test("Client.create: an invalid object rejects with ApiError keeping code, reason and causes", async () => {
      const ns = await freshNamespace();
      const error = await rejection(
        client.create(configMapsResource, {
          metadata: { name: "Not_Valid", namespace: ns },
        }),
      );
      assert.ok(error instanceof ApiError, "error instanceof ApiError");
      assert.equal(error.code, 422);
      assert.equal(error.reason, "Invalid");
      assert.equal(error.details?.kind, "ConfigMap");
      assert.deepEqual(
        error.details?.causes?.map((cause) => [cause.reason, cause.field]),
        [["FieldValueInvalid", "metadata.name"]],
      );
    });

    test("Client.list: a malformed label selector rejects with 400 BadRequest", async () => {
      const error = await rejection(
        client.list(configMapsResource, undefined, { labelSelector: "a in (" }),
      );
      assert.ok(error instanceof ApiError, "error instanceof ApiError");
      assert.deepEqual([error.code, error.reason], [400, "BadRequest"]);
    });

    // Last: it makes every earlier revision unavailable.
    test("Client.list and Client.watch: a compacted resourceVersion surfaces as 410", async () => {
      const ns = await freshNamespace();
      for (const n of ["a", "b", "c"]) await configMap(ns, n);
      const first = await client.list(configMapsResource, ns, { limit: 1, labelSelector: mine });
      const old = first.metadata.resourceVersion;
      assert.notEqual(first.metadata.continue, undefined);
      await configMap(ns, "d"); // so that `old` is no longer the latest revision
      await target.expireHistory();

      const exact = await rejection(
        client.list(configMapsResource, ns, {
          resourceVersion: old,
          resourceVersionMatch: "Exact",
        }),
      );
      assert.ok(exact instanceof ApiError, "exact instanceof ApiError");
      assert.deepEqual([exact.code, exact.reason], [410, "Expired"]);

      const continued = await rejection(
        client.list(configMapsResource, ns, {
          limit: 1,
          labelSelector: mine,
          continue: first.metadata.continue ?? "",
        }),
      );
      assert.ok(continued instanceof ApiError, "continued instanceof ApiError");
      assert.deepEqual([continued.code, continued.reason], [410, "Expired"]);

      const events: WatchEvent<ConfigMap>[] = [];
      for await (const event of client.watch<ConfigMap>(
        configMapsResource,
        ns,
        { resourceVersion: old },
        AbortSignal.timeout(waitMs),
      )) {
        events.push(event);
      }
      assert.deepEqual(
        events.map((e) => e.type),
        ["ERROR"],
      );
      const fromEvent = events[0]?.type === "ERROR" ? fromStatus(events[0].object) : undefined;
      assert.ok(fromEvent instanceof ApiError, "fromEvent instanceof ApiError");
      assert.deepEqual([fromEvent.code, fromEvent.reason], [410, "Expired"]);
      assert.match(fromEvent.message, /^too old resource version: /);
    });
  });
}

/** The first `n` non-BOOKMARK events of a watch, then it is closed. */
async function collect<T extends ConfigMap>(
  stream: AsyncIterable<WatchEvent<T>>,
  n: number,
): Promise<Exclude<WatchEvent<T>, { type: "BOOKMARK" | "ERROR" }>[]> {
  const events: Exclude<WatchEvent<T>, { type: "BOOKMARK" | "ERROR" }>[] = [];
  for await (const event of stream) {
    if (event.type === "BOOKMARK") continue;
    if (event.type === "ERROR") throw fromStatus(event.object);
    events.push(event);
    if (events.length === n) break;
  }
  return events;
}

function dataOf(event: { object: ConfigMap }): string | undefined {
  return event.object.data?.["key"];
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error: unknown) {
    return error;
  }
  assert.fail("expected the call to fail");
}
