import type { Revision, StorageKey } from "../storage.ts";
import type { Statements } from "./statements.ts";

/** One write, as data: the writer thread receives it as a message. */
export type WriteOp =
  | { readonly op: "create"; readonly key: StorageKey; readonly text: string }
  | {
      readonly op: "update";
      readonly key: StorageKey;
      readonly text: string;
      readonly expected: Revision;
    }
  | { readonly op: "delete"; readonly key: StorageKey; readonly expected: Revision | undefined }
  /** Drops superseded rows and tombstones in (from, to] and records `to` as compacted. */
  | { readonly op: "compact"; readonly from: Revision; readonly to: Revision };

/** A write that was applied. */
export interface WriteDone {
  readonly ok: true;
  /** The new row's id (for a compaction, the compacted revision). */
  readonly revision: Revision;
  readonly createRevision: Revision;
  /** The value this write replaced (update) or removed (delete), as stored. */
  readonly prev: string | undefined;
}

/** What a write did: applied, or why not (expected outcomes, not failures). */
export type WriteOutcome =
  | WriteDone
  | {
      readonly ok: false;
      readonly reason: "AlreadyExists" | "NotFound" | "Conflict";
      /** The key's current revision, when it has one. */
      readonly revision: Revision | undefined;
    };

/** The metadata row holding the compacted revision. */
export const compactKey = "compact_rev";

/**
 * Applies one write inside the caller's transaction: an outcome that is not `ok` has changed
 * nothing; a thrown error may have (a compaction's first statement), so the caller rolls back.
 * This is the reference for the writer thread's copy in `writer-thread.ts`: change both together.
 */
export function applyWriteOp(stmts: Statements, op: WriteOp): WriteOutcome {
  switch (op.op) {
    case "create": {
      const row = stmts.latest.get(op.key);
      if (row !== undefined && row.deleted === 0) {
        return { ok: false, reason: "AlreadyExists", revision: row.id };
      }
      const info = stmts.insert.run(op.key, 1, 0, 0, row?.id ?? 0, op.text, null);
      const revision = Number(info.lastInsertRowid);
      return { ok: true, revision, createRevision: revision, prev: undefined };
    }
    case "update":
    case "delete": {
      const row = stmts.latest.get(op.key);
      if (row === undefined || row.deleted === 1) {
        return { ok: false, reason: "NotFound", revision: undefined };
      }
      if (op.expected !== undefined && row.id !== op.expected) {
        return { ok: false, reason: "Conflict", revision: row.id };
      }
      const info =
        op.op === "update"
          ? stmts.insert.run(op.key, 0, 0, row.createRevision, row.id, op.text, row.value)
          : stmts.insert.run(op.key, 0, 1, row.createRevision, row.id, row.value, null);
      return {
        ok: true,
        revision: Number(info.lastInsertRowid),
        createRevision: row.createRevision,
        prev: row.value,
      };
    }
    case "compact":
      stmts.deleteSuperseded.run(op.from, op.to);
      stmts.deleteTombstones.run(op.from, op.to);
      stmts.setMeta.run(compactKey, op.to);
      return { ok: true, revision: op.to, createRevision: 0, prev: undefined };
  }
}
