import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { newMemoryStorage, openSqliteStorage, type Storage } from "../storage/index.ts";

export type StorageKind = "memory" | "sqlite";

/** Opens the configured backend; SQLite lives in `<dataDir>/state.db`. */
export async function openStorage(kind: StorageKind, dataDir: string): Promise<Storage> {
  switch (kind) {
    case "memory":
      return newMemoryStorage();
    case "sqlite":
      mkdirSync(dataDir, { recursive: true });
      return openSqliteStorage({ path: join(dataDir, "state.db") });
  }
}
