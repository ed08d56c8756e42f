import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { builtInKinds, qosClassOf } from "../api/index.ts";
import { ApiServer, newAnonymousAuthenticator } from "../apiserver/index.ts";
import { openEtcdStorage } from "../storage/index.ts";
import { discardLogger, seededRandom, systemClock } from "../util/index.ts";
import { startEtcd } from "./etcd.ts";
import { eventually } from "./eventually.ts";
import { ensureNoLeaksInEachTest } from "./leak-check.ts";

ensureNoLeaksInEachTest();

interface Reply {
  readonly status: number;
  readonly body: { [key: string]: unknown };
}

test("startEtcd: an API server on etcd answers 504 Timeout while etcd is down and serves again once it is back", {
  timeout: 120_000,
}, async () => {
  await using cluster = await startEtcd({ members: 1 });
  const member = cluster.members[0];
  assert.ok(member !== undefined, "one member");
  await using storage = await openEtcdStorage({
    endpoints: cluster.endpoints,
    requestTimeoutMs: 1000,
  });
  const server = new ApiServer({
    storage,
    clock: systemClock,
    random: seededRandom(7),
    logger: discardLogger,
    authenticate: newAnonymousAuthenticator(),
    kinds: builtInKinds(),
    qosClassOf: qosClassOf as never,
  });
  const stop = new AbortController();
  const http = createServer(server.handler());
  try {
    const { done } = await server.start(stop.signal);
    done.catch(() => undefined);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const request = async (method: string, path: string, body?: unknown): Promise<Reply> => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Reply["body"] };
    };
    const configMaps = "/api/v1/namespaces/default/configmaps";
    const configMap = (name: string) => ({ metadata: { name }, data: { k: name } });

    assert.equal(
      (await request("POST", "/api/v1/namespaces", { metadata: { name: "default" } })).status,
      201,
    );
    assert.equal((await request("POST", configMaps, configMap("before"))).status, 201);

    await member.kill();
    for (const [method, path, body] of [
      ["POST", configMaps, configMap("during")],
      ["GET", `${configMaps}/before`, undefined],
      ["GET", configMaps, undefined],
    ] as const) {
      const reply = await request(method, path, body);
      assert.equal(reply.status, 504, `${method} ${path}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body["reason"], "Timeout");
      assert.match(String(reply.body["message"]), /etcd/);
    }

    await member.restart();
    await eventually(
      async () => {
        const reply = await request("POST", configMaps, configMap("after"));
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
      },
      20_000,
      200,
    );
    // A consistent list is served from the watch cache once it caught up through its watch.
    const list = await request("GET", configMaps);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const names = (list.body["items"] as { metadata: { name: string } }[]).map(
      (item) => item.metadata.name,
    );
    assert.deepEqual(names, ["after", "before"]);
  } finally {
    stop.abort();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
});
