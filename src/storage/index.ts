export { type CompactorDeps, type CompactorOptions, runCompactor } from "./compactor.ts";
export {
  type EtcdStorage,
  type EtcdStorageOptions,
  type EtcdTlsCredentials,
  openEtcdStorage,
} from "./etcd/etcd-storage.ts";
// The protobuf wire writer of the etcd client, which the API server also uses for the one
// protobuf document it serves (/openapi/v2). It is Node-only (Buffer), so it is not in util/,
// which the dashboard's browser code compiles.
export { ProtoReader, ProtoWriter } from "./etcd/grpc/protobuf.ts";
export {
  type MemoryStorage,
  type MemoryStorageOptions,
  newMemoryStorage,
} from "./memory/memory-storage.ts";
export {
  openSqliteStorage,
  type SqliteStorage,
  type SqliteStorageOptions,
} from "./sqlite/sqlite-storage.ts";
export {
  type ListOptions,
  type ListResult,
  prefixEnd,
  type Revision,
  type Storage,
  StorageError,
  type StorageErrorReason,
  type StorageKey,
  type Versioned,
  type WatchEvent,
} from "./storage.ts";
