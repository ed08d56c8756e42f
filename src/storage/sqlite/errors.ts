import Database from "better-sqlite3";
import { StorageError, type StorageKey } from "../storage.ts";
import { WriterThreadError } from "./writer-thread.ts";

/**
 * Maps a driver error to a StorageError, the one place this happens (kine's `TranslateErr`).
 * A uniqueness violation means another row already follows the one this write read, i.e. a lost
 * race: AlreadyExists for a create, Conflict otherwise. Anything else is rethrown unchanged.
 */
export function translateError(error: unknown, key: StorageKey, op: "create" | "write"): never {
  // The writer thread's errors carry SQLite's code as the driver's do.
  const code =
    error instanceof Database.SqliteError || error instanceof WriterThreadError
      ? error.code
      : undefined;
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    throw new StorageError(op === "create" ? "AlreadyExists" : "Conflict", key, undefined, code);
  }
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
    throw new StorageError("Unavailable", key, undefined, code);
  }
  throw error;
}
