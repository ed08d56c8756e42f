import type { Database, Statement } from "better-sqlite3";

/**
 * kine's one-table log. Every create, update and delete inserts a row; the row id is the
 * revision. `created` rows store `create_revision = 0` and stand for their own id (as in kine).
 * `UNIQUE(name, prev_revision)` lets exactly one row follow any given row of a key, so a lost
 * compare-and-swap race is a constraint violation. `(name, id, deleted)` serves latest-value
 * reads, lists and counts from the index. `gantry_meta` holds the compacted revision.
 */
const schema = `
CREATE TABLE IF NOT EXISTS kine (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value TEXT,
  old_value TEXT
);
CREATE INDEX IF NOT EXISTS kine_name_id_index ON kine (name, id, deleted);
CREATE UNIQUE INDEX IF NOT EXISTS kine_name_prev_revision_uindex ON kine (name, prev_revision);
CREATE TABLE IF NOT EXISTS gantry_meta (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`;

const createRevision = "CASE WHEN created = 1 THEN id ELSE create_revision END";

/** The latest row of one key. */
export interface LatestRow {
  readonly id: number;
  readonly deleted: number;
  readonly createRevision: number;
  readonly value: string;
}

/** A live row as a list returns it. */
export interface ListRow {
  readonly id: number;
  readonly name: string;
  readonly createRevision: number;
  readonly value: string;
}

/** A row as a watch replays it. */
export interface LogRow {
  readonly id: number;
  readonly name: string;
  readonly created: number;
  readonly deleted: number;
  readonly value: string;
  readonly oldValue: string | null;
}

/** The bounds of a list: keys in `[start, end)` as of revision `rev`. */
export interface RangeParams {
  readonly start: string;
  readonly end: string;
  readonly rev: number;
}

export interface Statements {
  readonly latest: Statement<[string], LatestRow>;
  readonly insert: Statement<
    [
      name: string,
      created: number,
      deleted: number,
      createRevision: number,
      prevRevision: number,
      value: string,
      oldValue: string | null,
    ]
  >;
  readonly list: Statement<[RangeParams & { readonly limit: number }], ListRow>;
  readonly count: Statement<[RangeParams], { readonly n: number }>;
  readonly liveNames: Statement<[], { readonly name: string }>;
  readonly replay: Statement<
    [
      {
        readonly after: number;
        readonly upTo: number;
        readonly start: string;
        readonly end: string;
        readonly limit: number;
      },
    ],
    LogRow
  >;
  readonly deleteSuperseded: Statement<[from: number, to: number]>;
  readonly deleteTombstones: Statement<[from: number, to: number]>;
  readonly sequence: Statement<[], { readonly seq: number }>;
  readonly getMeta: Statement<[name: string], { readonly value: number }>;
  readonly setMeta: Statement<[name: string, value: number]>;
}

/** A key above every key a caller can use (the range end for the empty prefix). */
export const maxKey = "\u{10FFFF}\u{10FFFF}\u{10FFFF}\u{10FFFF}";

/**
 * The statements that write, as SQL text: the writer thread prepares them on its own connection,
 * so both connections run exactly the same SQL.
 */
export const writeSql = {
  latest: `SELECT id, deleted, ${createRevision} AS createRevision, value
       FROM kine WHERE name = ? ORDER BY id DESC LIMIT 1`,
  insert: `INSERT INTO kine (name, created, deleted, create_revision, prev_revision, value, old_value)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
  // Rows followed by a row in (from, to] are superseded at or below `to`.
  deleteSuperseded: `DELETE FROM kine WHERE id IN
         (SELECT prev_revision FROM kine WHERE id > ? AND id <= ? AND prev_revision > 0)`,
  deleteTombstones: "DELETE FROM kine WHERE id > ? AND id <= ? AND deleted = 1",
  setMeta: `INSERT INTO gantry_meta (name, value) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
} as const;

/** Creates the schema if needed and prepares every statement once. */
export function prepareStatements(db: Database): Statements {
  db.exec(schema);
  // A key's row at `rev` is its highest id at or below `rev`; walking the (name, id) index in
  // order keeps lists in key order and lets LIMIT stop early. `MAX(id)` with the bare column
  // `deleted` reads `deleted` from the row holding the maximum (documented SQLite behaviour).
  const latestAt = `k.name >= @start AND k.name < @end AND k.id <= @rev AND k.deleted = 0
    AND k.id = (SELECT MAX(m.id) FROM kine AS m WHERE m.name = k.name AND m.id <= @rev)`;
  return {
    latest: db.prepare(writeSql.latest),
    insert: db.prepare(writeSql.insert),
    list: db.prepare(
      `SELECT k.id AS id, k.name AS name,
         CASE WHEN k.created = 1 THEN k.id ELSE k.create_revision END AS createRevision,
         k.value AS value
       FROM kine AS k INDEXED BY kine_name_id_index
       WHERE ${latestAt} ORDER BY k.name LIMIT @limit`,
    ),
    count: db.prepare(
      `SELECT COUNT(*) AS n FROM
         (SELECT MAX(id) AS id, deleted FROM kine INDEXED BY kine_name_id_index
          WHERE name >= @start AND name < @end AND id <= @rev GROUP BY name)
       WHERE deleted = 0`,
    ),
    liveNames: db.prepare(
      `SELECT name FROM (SELECT name, MAX(id) AS id, deleted FROM kine GROUP BY name)
       WHERE deleted = 0`,
    ),
    replay: db.prepare(
      `SELECT id, name, created, deleted, value, old_value AS oldValue FROM kine
       WHERE id > @after AND id <= @upTo AND name >= @start AND name < @end
       ORDER BY id LIMIT @limit`,
    ),
    deleteSuperseded: db.prepare(writeSql.deleteSuperseded),
    deleteTombstones: db.prepare(writeSql.deleteTombstones),
    sequence: db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'kine'"),
    getMeta: db.prepare("SELECT value FROM gantry_meta WHERE name = ?"),
    setMeta: db.prepare(writeSql.setMeta),
  };
}
