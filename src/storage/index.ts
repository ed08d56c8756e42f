export { type CompactorDeps, type CompactorOptions, runCompactor } from "./compactor.ts";
export {
  type EtcdStorage,
  type EtcdStorageOptions,
  type EtcdTlsCredentials,
  openEtcdStorage,
} from "./etcd/etcd-storage.ts";
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
