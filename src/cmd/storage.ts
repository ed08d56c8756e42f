import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  type EtcdTlsCredentials,
  newMemoryStorage,
  openEtcdStorage,
  openSqliteStorage,
  type Storage,
} from "../storage/index.ts";

export type StorageKind = "memory" | "sqlite" | "etcd";

/**
 * Where the etcd backend finds its cluster and how it connects (`--etcd-endpoints`,
 * `--etcd-prefix`, `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`).
 */
export interface EtcdSettings {
  /** Client URLs of the members: `http://127.0.0.1:2379`. */
  readonly endpoints: readonly string[];
  /** The key prefix, as kube-apiserver's `--etcd-prefix`. @default "/registry" */
  readonly prefix?: string;
  /** The files' PEM contents, for https endpoints. @default none */
  readonly tls?: EtcdTlsCredentials;
}

/**
 * Opens the configured backend: SQLite lives in `<dataDir>/state.db`; etcd needs `etcd` (a
 * TypeError without it).
 */
export async function openStorage(
  kind: StorageKind,
  dataDir: string,
  etcd?: EtcdSettings,
): Promise<Storage> {
  switch (kind) {
    case "memory":
      return newMemoryStorage();
    case "sqlite":
      mkdirSync(dataDir, { recursive: true });
      return openSqliteStorage({ path: join(dataDir, "state.db") });
    case "etcd":
      if (etcd === undefined || etcd.endpoints.length === 0) {
        throw new TypeError("Cannot open etcd storage without endpoints");
      }
      return openEtcdStorage({
        endpoints: etcd.endpoints,
        ...(etcd.prefix === undefined ? {} : { prefix: etcd.prefix }),
        ...(etcd.tls === undefined ? {} : { tls: etcd.tls }),
      });
  }
}
