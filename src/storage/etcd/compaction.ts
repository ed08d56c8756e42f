import type { Revision, StorageKey } from "../storage.ts";
import { revisionOf } from "./codec.ts";
import type { EtcdConnection } from "./connection.ts";
import { classifyEtcdError } from "./errors.ts";
import type { KeySpace } from "./keys.ts";

export interface StoreRevisions {
  /** The revision of the store's latest write: its revision key's mod_revision (0 if none). */
  readonly current: Revision;
  /** The revision the store last compacted to: its compact key's value (0 if never). */
  readonly compacted: Revision;
  /** The compact key's mod_revision: the compare-and-swap token for the next compaction. */
  readonly compactToken: Revision;
}

/** Reads the revision key and the compact key in one transaction (one consistent revision). */
export async function readRevisions(
  connection: EtcdConnection,
  keys: KeySpace,
  key: StorageKey,
  timeoutMs?: number,
): Promise<StoreRevisions> {
  const response = await connection.call(
    key,
    "read",
    (kv, call) =>
      kv.txn(
        {
          success: [
            { request_range: { key: keys.revisionKey, keys_only: true } },
            { request_range: { key: keys.compactKey } },
          ],
        },
        call,
      ),
    timeoutMs,
  );
  const marker = response.responses[0]?.response_range?.kvs[0];
  const compact = response.responses[1]?.response_range?.kvs[0];
  return {
    current: marker === undefined ? 0 : revisionOf(marker.mod_revision),
    compacted: compact === undefined ? 0 : Number(compact.value.toString()) || 0,
    compactToken: compact === undefined ? 0 : revisionOf(compact.mod_revision),
  };
}

/**
 * Compacts etcd to `revision` as kube-apiserver's compactor does: first a transaction moves the
 * compact key forward only if nobody moved it since it was read (`mod_revision` compare), then
 * the winner alone issues etcd's Compact. API servers sharing the store therefore never compact
 * the same revision twice; a loser re-reads the key and stops when it is already far enough.
 * Compaction in etcd is physical and global: it also drops history of other prefixes.
 */
export async function compactEtcd(
  connection: EtcdConnection,
  keys: KeySpace,
  revision: Revision,
): Promise<void> {
  for (;;) {
    const state = await readRevisions(connection, keys, "");
    if (revision > state.current) {
      throw new RangeError(
        `Cannot compact to revision ${revision}: the latest revision is ${state.current}`,
      );
    }
    if (state.compacted >= revision) return;
    const moved = await connection.call("", "write", (kv, call) =>
      kv.txn(
        {
          compare: [
            {
              key: keys.compactKey,
              target: "Mod",
              result: "Equal",
              mod_revision: state.compactToken,
            },
          ],
          success: [
            { request_put: { key: keys.compactKey, value: Buffer.from(String(revision)) } },
          ],
        },
        call,
      ),
    );
    if (!moved.succeeded) continue;
    try {
      await connection.call("", "write", (kv, call) => kv.compact({ revision }, call));
    } catch (error: unknown) {
      // Already compacted further (by a cluster under another prefix): nothing left to do.
      if (classifyEtcdError(error) !== "compacted") throw error;
    }
    return;
  }
}
