import {
  type ListResult,
  type Revision,
  type Storage,
  StorageError,
  type StorageKey,
} from "../storage.ts";
import { decodeValue, encodeValue, revisionOf, toVersioned } from "./codec.ts";
import { compactEtcd, readRevisions } from "./compaction.ts";
import {
  type CallOptions,
  type EtcdConnection,
  type EtcdTlsCredentials,
  type KVClient,
  newEtcdConnection,
} from "./connection.ts";
import { classifyEtcdError } from "./errors.ts";
import type { KeyValue, RequestOp, TxnResponse } from "./grpc/messages.ts";
import { type KeySpace, newKeySpace } from "./keys.ts";
import { watchEtcd } from "./watch.ts";

export type { EtcdTlsCredentials } from "./connection.ts";

export interface EtcdStorageOptions {
  /** Client URLs of the etcd members (`http://host:2379`); requests go to one, failing over. */
  readonly endpoints: readonly string[];
  /**
   * The CA to trust and the client certificate to show, for `https://` endpoints (every
   * endpoint must then be https). Without it, https endpoints are verified against Node's
   * trusted roots and no client certificate is shown. A RangeError for http endpoints or a
   * certificate without its key.
   * @default none
   */
  readonly tls?: EtcdTlsCredentials;
  /**
   * Replaces the leading `/registry` of every key (kube-apiserver's `--etcd-prefix`), so that
   * several clusters can share one etcd. Prefixes of clusters sharing an etcd must not nest.
   * @default "/registry"
   */
  readonly prefix?: string;
  /**
   * How long `openEtcdStorage` waits for etcd to answer a first read (kube-apiserver's etcd
   * dial timeout).
   * @default 20_000
   */
  readonly dialTimeoutMs?: number;
  /**
   * The bound on every request: reads are retried on another member until it passes, a write
   * only while no member could be reached (a write that reached etcd is never repeated). Then
   * the request rejects with `StorageError("Unavailable")`.
   * @default 10_000
   */
  readonly requestTimeoutMs?: number;
  /**
   * Events buffered in this process for one watch before reading its etcd stream pauses; etcd
   * holds the rest until the consumer catches up.
   * @default 100_000
   */
  readonly watchBufferLimit?: number;
}

/** An etcd-backed `Storage`; `[Symbol.asyncDispose]` is `close`. */
export type EtcdStorage = Storage & AsyncDisposable;

/**
 * Opens a store on an etcd v3 cluster, as kube-apiserver's etcd3 store: keys under the prefix,
 * resourceVersion = mod_revision, writes as transactions comparing the key's revisions, watches
 * from a revision with prev_kv. Every write also touches the store's revision key in the same
 * transaction (see `keys.ts`), so `currentRevision()` is the revision of this store's latest
 * write even when other clusters or tools write to the same etcd. Rejects with
 * `StorageError("Unavailable")` if etcd does not answer within `dialTimeoutMs`.
 */
export async function openEtcdStorage(options: EtcdStorageOptions): Promise<EtcdStorage> {
  const keys = newKeySpace(options.prefix);
  const connection = newEtcdConnection({
    endpoints: options.endpoints,
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    ...(options.tls === undefined ? {} : { tls: options.tls }),
  });
  try {
    await readRevisions(connection, keys, "", options.dialTimeoutMs ?? 20_000);
  } catch (error: unknown) {
    connection.close();
    throw error;
  }
  return newEtcdStorage(connection, keys, options.watchBufferLimit ?? 100_000);
}

function newEtcdStorage(
  connection: EtcdConnection,
  keys: KeySpace,
  watchBufferLimit: number,
): EtcdStorage {
  const closing = new AbortController();
  const revisionPut: RequestOp = {
    request_put: { key: keys.revisionKey, value: Buffer.alloc(0) },
  };

  const txn = (
    key: StorageKey,
    request: (kv: KVClient, call: CallOptions) => Promise<TxnResponse>,
  ): Promise<TxnResponse> => connection.call(key, "write", request);

  /** The live value the failure branch of a write read: NotFound, or Conflict at its revision. */
  const writeFailure = (key: StorageKey, response: TxnResponse): StorageError => {
    const current = response.responses[0]?.response_range?.kvs[0];
    return current === undefined
      ? new StorageError("NotFound", key)
      : new StorageError("Conflict", key, revisionOf(current.mod_revision));
  };

  const compactedError = async (prefix: StorageKey, cause: unknown): Promise<StorageError> => {
    const { compacted } = await readRevisions(connection, keys, prefix);
    return new StorageError("Compacted", prefix, compacted, String(cause));
  };

  const close = async (): Promise<void> => {
    if (closing.signal.aborted) return;
    closing.abort();
    connection.close();
  };

  return {
    get: async (key) => {
      const etcdKey = keys.toEtcd(key);
      const response = await connection.call(key, "read", (kv, call) =>
        kv.range({ key: etcdKey }, call),
      );
      const kv = response.kvs[0];
      return kv === undefined ? undefined : toVersioned(keys, kv);
    },

    list: async (prefix, options = {}) => {
      const range = keys.range(prefix, options.startKey);
      const limit = options.limit ?? 0;
      const at = options.revision !== undefined && options.revision > 0 ? options.revision : 0;
      const ops: RequestOp[] = [{ request_range: { key: keys.revisionKey, keys_only: true } }];
      if (range !== undefined) {
        ops.push({
          request_range: { key: range.key, range_end: range.rangeEnd, limit, revision: at },
        });
      }
      let response: TxnResponse;
      try {
        response = await connection.call(prefix, "read", (kv, call) =>
          kv.txn({ success: ops }, call),
        );
      } catch (error: unknown) {
        const failure = classifyEtcdError(error);
        if (failure === "compacted") throw await compactedError(prefix, error);
        if (failure === "future") throw futureRevision(prefix, at, undefined);
        throw error;
      }
      const marker = response.responses[0]?.response_range?.kvs[0];
      const current = marker === undefined ? 0 : revisionOf(marker.mod_revision);
      if (at > current) throw futureRevision(prefix, at, current);
      const found = response.responses[1]?.response_range;
      const kvs: KeyValue[] = found?.kvs ?? [];
      const more = found?.more === true;
      return {
        items: kvs.map((kv) => toVersioned(keys, kv)),
        revision: at > 0 ? at : current,
        more,
        remaining: more ? Number(found?.count ?? 0) - kvs.length : 0,
      } satisfies ListResult;
    },

    count: async (prefix) => {
      const range = keys.range(prefix);
      if (range === undefined) return 0;
      const response = await connection.call(prefix, "read", (kv, call) =>
        kv.range({ key: range.key, range_end: range.rangeEnd, count_only: true }, call),
      );
      return Number(response.count);
    },

    create: async (key, value, given) => {
      const etcdKey = keys.toEtcd(key);
      const { text, stored } = encodeValue(value, given);
      const response = await txn(key, (kv, call) =>
        kv.txn(
          {
            compare: [{ key: etcdKey, target: "Create", result: "Equal", create_revision: 0 }],
            success: [{ request_put: { key: etcdKey, value: Buffer.from(text) } }, revisionPut],
            failure: [{ request_range: { key: etcdKey, keys_only: true } }],
          },
          call,
        ),
      );
      if (!response.succeeded) throw new StorageError("AlreadyExists", key);
      const revision = revisionOf(response.header.revision);
      return { key, value: stored, revision, createRevision: revision };
    },

    update: async (key, value, expected, given) => {
      const etcdKey = keys.toEtcd(key);
      const { text, stored } = encodeValue(value, given);
      const response = await txn(key, (kv, call) =>
        kv.txn(
          {
            compare: [
              { key: etcdKey, target: "Mod", result: "Equal", mod_revision: expected },
              { key: etcdKey, target: "Create", result: "Greater", create_revision: 0 },
            ],
            success: [
              { request_put: { key: etcdKey, value: Buffer.from(text), prev_kv: true } },
              revisionPut,
            ],
            failure: [{ request_range: { key: etcdKey, keys_only: true } }],
          },
          call,
        ),
      );
      if (!response.succeeded) throw writeFailure(key, response);
      const prev = response.responses[0]?.response_put?.prev_kv;
      return {
        key,
        value: stored,
        revision: revisionOf(response.header.revision),
        createRevision: prev === undefined ? 0 : revisionOf(prev.create_revision),
      };
    },

    delete: async (key, expected) => {
      const etcdKey = keys.toEtcd(key);
      const response = await txn(key, (kv, call) =>
        kv.txn(
          {
            compare: [
              ...(expected === undefined
                ? []
                : [
                    {
                      key: etcdKey,
                      target: "Mod" as const,
                      result: "Equal" as const,
                      mod_revision: expected,
                    },
                  ]),
              { key: etcdKey, target: "Create", result: "Greater", create_revision: 0 },
            ],
            success: [{ request_delete_range: { key: etcdKey, prev_kv: true } }, revisionPut],
            failure: [{ request_range: { key: etcdKey, keys_only: true } }],
          },
          call,
        ),
      );
      if (!response.succeeded) throw writeFailure(key, response);
      const prev = response.responses[0]?.response_delete_range?.prev_kvs[0];
      if (prev === undefined) throw new StorageError("NotFound", key);
      return {
        key,
        value: decodeValue(key, prev.value),
        revision: revisionOf(response.header.revision),
        createRevision: revisionOf(prev.create_revision),
      };
    },

    watch: (prefix, after, signal) =>
      watchEtcd(
        { connection, keys, bufferLimit: watchBufferLimit, closing: closing.signal },
        prefix,
        after,
        signal,
      ),

    currentRevision: async () => (await readRevisions(connection, keys, "")).current,

    compactedRevision: async () => (await readRevisions(connection, keys, "")).compacted,

    compact: (revision) => compactEtcd(connection, keys, revision),

    close,
    [Symbol.asyncDispose]: close,
  };
}

function futureRevision(prefix: StorageKey, at: Revision, current: Revision | undefined): Error {
  return new RangeError(
    `Cannot read "${prefix}" at revision ${at}: the latest revision is ${current ?? "lower"}`,
  );
}
