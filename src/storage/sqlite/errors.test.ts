import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { expectStorageError } from "../conformance-helpers.ts";
import { translateError } from "./errors.ts";
import { prepareStatements } from "./statements.ts";
import { WriterThreadError } from "./writer-thread.ts";

/** The real driver error for a second row following the same row of a key. */
function lostRaceError(): unknown {
  const db = new Database(":memory:");
  try {
    const stmts = prepareStatements(db);
    stmts.insert.run("/registry/x/a", 1, 0, 0, 0, "{}", null);
    stmts.insert.run("/registry/x/a", 0, 0, 1, 1, "{}", "{}");
    stmts.insert.run("/registry/x/a", 0, 0, 1, 1, "{}", "{}");
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  assert.fail("UNIQUE(name, prev_revision) did not reject the second follower");
}

const cases = [
  { name: "a lost race on create is AlreadyExists", op: "create", want: "AlreadyExists" },
  { name: "a lost race on update or delete is Conflict", op: "write", want: "Conflict" },
] as const;
for (const c of cases) {
  test(`translateError: ${c.name}`, () => {
    assert.throws(
      () => translateError(lostRaceError(), "/registry/x/a", c.op),
      expectStorageError(c.want, "/registry/x/a"),
    );
  });
}

test("translateError: other errors pass through unchanged", () => {
  const error = new TypeError("boom");
  assert.throws(
    () => translateError(error, "/k", "write"),
    (e) => e === error,
  );
});

test("translateError: the writer thread's SQLITE_BUSY is Unavailable", () => {
  assert.throws(
    () => translateError(new WriterThreadError("database is locked", "SQLITE_BUSY"), "/k", "write"),
    expectStorageError("Unavailable", "/k"),
  );
});
