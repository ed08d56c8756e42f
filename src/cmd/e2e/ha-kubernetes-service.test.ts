/**
 * The `kubernetes` Service with several API servers on one etcd: each `gantry apiserver` adds
 * its own address to the Service's Endpoints, and one that stops takes its address out again.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Endpoints, Service } from "../../api/index.ts";
import {
  endpointsResource,
  type HttpClient,
  newClient,
  servicesResource,
} from "../../client/index.ts";
import { type EtcdCluster, startEtcd } from "../../testing/etcd.ts";
import { eventually } from "../../testing/eventually.ts";
import { type GantryProcess, startGantry } from "../../testing/gantry-process.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

let etcd: EtcdCluster;
let servers: GantryProcess[] = [];
let client: HttpClient;

before(async () => {
  etcd = await startEtcd({ members: 1 });
  servers = await Promise.all([
    startGantry({ command: "apiserver", storage: "etcd", etcdEndpoints: etcd.endpoints }),
    startGantry({ command: "apiserver", storage: "etcd", etcdEndpoints: etcd.endpoints }),
  ]);
  const first = servers[0] as GantryProcess;
  client = newClient({ server: first.url, token: first.token, userAgent: "gantry/ha-test" });
});

after(async () => {
  client.close();
  await Promise.allSettled(servers.map((s) => s[Symbol.asyncDispose]()));
  await etcd.close();
});
ensureNoLeaksAfterSuite();

const portsOf = (endpoints: Endpoints): number[] =>
  (endpoints.subsets ?? []).flatMap((s) => (s.ports ?? []).map((p) => p.port)).sort();

test("kubernetes Service: one Service, and every API server's address in its Endpoints", async (t) => {
  const ports = servers.map((s) => Number(new URL(s.url).port)).sort();
  const service = await client.get<Service>(servicesResource, "default", "kubernetes");
  assert.equal(service.spec?.clusterIP, "10.96.0.1");
  const endpoints = await client
    .get<Endpoints>(endpointsResource, "default", "kubernetes")
    .catch((error: unknown) => {
      if (error instanceof Error && /not found/i.test(error.message)) return undefined;
      throw error;
    });
  if (endpoints === undefined) {
    t.skip("this machine has no external IPv4 address for the endpoints");
    return;
  }
  await eventually(async () => {
    const current = await client.get<Endpoints>(endpointsResource, "default", "kubernetes");
    assert.deepEqual(portsOf(current), ports, "both servers are listed");
  });

  // The second server stops (SIGTERM): its address goes, the first one's stays.
  const stopped = servers[1] as GantryProcess;
  await stopped.stop();
  const remaining = Number(new URL((servers[0] as GantryProcess).url).port);
  await eventually(async () => {
    const current = await client.get<Endpoints>(endpointsResource, "default", "kubernetes");
    assert.deepEqual(portsOf(current), [remaining], "only the running server is listed");
  });
});
