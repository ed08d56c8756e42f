import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type EtcdCluster, startEtcd } from "../../testing/etcd.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { storageConformance } from "../conformance.ts";
import { openEtcdStorage } from "./etcd-storage.ts";

for (const members of [1, 3] as const) {
  describe(`etcd storage on ${members} member(s)`, () => {
    let cluster: EtcdCluster | undefined;
    let stores = 0;
    before(async () => {
      cluster = await startEtcd({ members });
    });
    after(async () => {
      await cluster?.close();
    });
    ensureNoLeaksAfterSuite();
    // Every test gets its own prefix on the suite's etcd, so stores are independent.
    storageConformance(`etcd (${members} member${members === 1 ? "" : "s"})`, async () => {
      if (cluster === undefined) throw new Error("etcd did not start");
      stores++;
      return openEtcdStorage({
        endpoints: cluster.endpoints,
        prefix: `/conformance-${process.pid}-${stores}`,
        requestTimeoutMs: 5000,
      });
    });
    if (members === 1) {
      test("EtcdStorage.list: reads more than gRPC's default 4 MiB in one answer", async () => {
        if (cluster === undefined) throw new Error("etcd did not start");
        await using store = await openEtcdStorage({
          endpoints: cluster.endpoints,
          prefix: `/large-${process.pid}`,
        });
        const big = "x".repeat(1024 * 1024);
        for (let i = 0; i < 5; i++) {
          await store.create(`/registry/big/${i}`, { kind: "Big", data: big, i });
        }
        const listed = await store.list("/registry/big/");
        assert.deepEqual(
          listed.items.map((item) => item.value["i"]),
          [0, 1, 2, 3, 4],
        );
      });
    }
  });
}
