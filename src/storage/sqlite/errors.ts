import Database from "better-sqlite3";
import { StorageError, type StorageKey } from "../storage.ts";

/**
 * Maps a driver error to a StorageError, the one place this happens (kine's `TranslateErr`).
 * A uniqueness violation means another row already follows the one this write read, i.e. a lost
 * race: AlreadyExists for a create, Conflict otherwise. Anything else is rethrown unchanged.
 */
export function translateError(error: unknown, key: StorageKey, op: "create" | "write"): never {
  if (
    error instanceof Database.SqliteError &&
    (error.code === "SQLITE_CONSTRAINT_UNIQUE" || error.code === "SQLITE_CONSTRAINT_PRIMARYKEY")
  ) {
    throw new StorageError(
      op === "create" ? "AlreadyExists" : "Conflict",
      key,
      undefined,
      error.code,
    );
  }
  if (
    error instanceof Database.SqliteError &&
    (error.code === "SQLITE_BUSY" || error.code === "SQLITE_LOCKED")
  ) {
    throw new StorageError("Unavailable", key, undefined, error.code);
  }
  throw error;
}
