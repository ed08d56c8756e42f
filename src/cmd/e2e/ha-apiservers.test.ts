/**
 * Several API servers on one etcd: two `gantry apiserver --storage etcd` processes share a
 * 3-member etcd. A write through one is seen by a watch on the other with the same
 * resourceVersion; when one server is killed (SIGKILL) during a stream of writes and watches,
 * clients fail over to the other, resume their watches from the last resourceVersion they saw,
 * and the history checker finds every event, in order, none lost, none duplicated.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { ConfigMap } from "../../api/index.ts";
import {
  configMapsResource,
  type HttpClient,
  namespacesResource,
  newClient,
  TransportError,
} from "../../client/index.ts";
import { type EtcdCluster, startEtcd } from "../../testing/etcd.ts";
import { eventually } from "../../testing/eventually.ts";
import { type GantryProcess, startGantry } from "../../testing/gantry-process.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import {
  checkWatchHistory,
  type ObservedEvent,
  type WatchStream,
  type WriteRecord,
} from "../../testing/watch-history.ts";

const namespace = "ha-history";
const writers = 4;
const watchers = 4;
/** Acknowledged writes before one API server is killed, and in all. */
const killAfterAcks = 120;
const totalAcks = 260;

let etcd: EtcdCluster;
let servers: GantryProcess[] = [];
let clients: HttpClient[] = [];

before(async () => {
  etcd = await startEtcd({ members: 3 });
  // Both start at once: bootstrap must tolerate the other server's objects.
  servers = await Promise.all([
    startGantry({ command: "apiserver", storage: "etcd", etcdEndpoints: etcd.endpoints }),
    startGantry({ command: "apiserver", storage: "etcd", etcdEndpoints: etcd.endpoints }),
  ]);
  clients = servers.map((s) =>
    newClient({ server: s.url, token: s.token, userAgent: "gantry/ha-test" }),
  );
});

after(async () => {
  for (const client of clients) client.close();
  await Promise.allSettled(servers.map((s) => s[Symbol.asyncDispose]()));
  await etcd.close();
});
ensureNoLeaksAfterSuite();

function client(i: number): HttpClient {
  const c = clients[i % clients.length];
  assert.ok(c !== undefined, `no client for server ${i}`);
  return c;
}

test("gantry apiserver: two servers on one etcd share objects, resourceVersions and watches", async () => {
  const [a, b] = [client(0), client(1)];
  const namespaces = await b.list(namespacesResource, undefined);
  assert.deepEqual(
    namespaces.items.map((n) => n.metadata.name).sort(),
    ["default", "kube-node-lease", "kube-public", "kube-system"],
    "bootstrap created each namespace once",
  );
  const stop = new AbortController();
  const from = (await b.list(configMapsResource, "default")).metadata.resourceVersion;
  const seen = (async () => {
    const events = b.watch<ConfigMap>(
      configMapsResource,
      "default",
      { resourceVersion: from },
      stop.signal,
    );
    for await (const event of events) {
      if (event.type === "ADDED") return event.object;
    }
    return undefined;
  })();
  try {
    const created = await a.create<ConfigMap>(configMapsResource, {
      metadata: { name: "shared", namespace: "default" },
      data: { written: "through a" },
    });
    const watched = await seen;
    assert.equal(watched?.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.deepEqual(watched?.data, { written: "through a" });
    const read = await b.get<ConfigMap>(configMapsResource, "default", "shared");
    assert.equal(read.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.equal(read.metadata.uid, created.metadata.uid);
  } finally {
    stop.abort();
  }
});

test("gantry apiserver: clients failing over after one server is killed see every event once, in order", async () => {
  const ns = await client(0).create(namespacesResource, {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: namespace },
  });
  const from = BigInt(ns.metadata.resourceVersion ?? "0");
  const dead = new Set<number>();
  const writes: WriteRecord[] = [];
  let acks = 0;
  let killed: Promise<void> | undefined;
  const victim = servers[0];
  assert.ok(victim !== undefined, "two API servers run");

  const stopWatching = new AbortController();
  const streams = Array.from({ length: watchers }, (_, i) =>
    follow(`watcher-${i}`, i, from, stopWatching.signal),
  );

  /** Sends one write to a live server, in turn; records what came back. */
  const write = async (
    turn: number,
    key: string,
    type: WriteRecord["type"],
    send: (c: HttpClient) => Promise<string | undefined>,
  ): Promise<boolean> => {
    const live = [0, 1].filter((i) => !dead.has(i));
    const server = live[turn % live.length] ?? 1;
    try {
      const revision = await send(client(server));
      writes.push({
        key,
        type,
        revision: revision === undefined ? undefined : BigInt(revision),
        acknowledged: true,
      });
      acks++;
      if (acks === killAfterAcks) killed = victim.stop("SIGKILL");
      return true;
    } catch (error: unknown) {
      if (!(error instanceof TransportError)) throw error;
      // No answer: the write may or may not have happened; this key is abandoned.
      writes.push({ key, type, revision: undefined, acknowledged: false });
      dead.add(server);
      return false;
    }
  };

  const writer = async (id: number): Promise<void> => {
    let turn = id;
    for (let k = 0; acks < totalAcks; k++) {
      const name = `w${id}-${k}`;
      const key = `${namespace}/${name}`;
      const ok =
        (await write(turn++, key, "ADDED", async (c) => {
          const created = await c.create<ConfigMap>(configMapsResource, {
            metadata: { name, namespace },
            data: { n: "0" },
          });
          return created.metadata.resourceVersion;
        })) &&
        (await write(turn++, key, "MODIFIED", async (c) => {
          const patched = await c.patch<ConfigMap>(configMapsResource, namespace, name, "merge", {
            data: { n: "1" },
          });
          return patched.metadata.resourceVersion;
        })) &&
        (k % 2 === 0 ||
          (await write(turn++, key, "DELETED", async (c) => {
            await c.delete(configMapsResource, namespace, name);
            return undefined;
          })));
      if (!ok) continue;
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, i) => writer(i)));
  await killed;
  assert.ok(killed !== undefined, "an API server was killed during the writes");

  // A last write after all others: once every stream has seen it, it has seen everything
  // before it too (deletes answer without a revision to wait for).
  const marker = await client(1).create<ConfigMap>(configMapsResource, {
    metadata: { name: "the-end", namespace },
  });
  const newest = BigInt(marker.metadata.resourceVersion ?? "0");
  writes.push({ key: `${namespace}/the-end`, type: "ADDED", revision: newest, acknowledged: true });
  const results = streams.map((s) => s.events);
  await eventually(() => {
    for (const [i, events] of results.entries()) {
      const last = events.at(-1)?.revision ?? from;
      assert.ok(last >= newest, `watcher-${i} is at ${last}, the last write at ${newest}`);
    }
  }, 30_000);
  stopWatching.abort();
  await Promise.all(streams.map((s) => s.done));

  const history: WatchStream[] = streams.map((s) => ({
    name: s.name,
    from,
    events: s.events,
  }));
  assert.deepEqual(checkWatchHistory(writes, history), []);
  assert.ok(
    streams.some((s) => s.failovers > 0),
    "some watcher should have failed over to the surviving server",
  );
});

interface FollowedStream {
  readonly name: string;
  readonly events: ObservedEvent[];
  failovers: number;
  readonly done: Promise<void>;
}

/**
 * A client's watch on the namespace's ConfigMaps from `from`, starting on server `first`;
 * when its server fails or the stream ends it resumes from the last resourceVersion it saw on
 * the next server.
 */
function follow(name: string, first: number, from: bigint, signal: AbortSignal): FollowedStream {
  const stream: FollowedStream = { name, events: [], failovers: 0, done: Promise.resolve() };
  const run = async (): Promise<void> => {
    let last = from;
    let server = first;
    while (!signal.aborted) {
      try {
        const events = client(server).watch<ConfigMap>(
          configMapsResource,
          namespace,
          { resourceVersion: String(last), allowWatchBookmarks: true },
          signal,
        );
        for await (const event of events) {
          if (event.type === "ERROR") {
            throw new Error(`${name}: watch error ${JSON.stringify(event.object)}`);
          }
          const revision = BigInt(event.object.metadata.resourceVersion ?? "0");
          if (event.type !== "BOOKMARK") {
            const object = event.object;
            stream.events.push({
              key: `${object.metadata.namespace}/${object.metadata.name}`,
              type: event.type,
              revision,
            });
          }
          if (revision > last) last = revision;
        }
      } catch (error: unknown) {
        if (signal.aborted) return;
        if (!(error instanceof TransportError)) throw error;
      }
      if (signal.aborted) return;
      server++;
      stream.failovers++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  Object.assign(stream, { done: run() });
  return stream;
}
