import type { FileHandle } from "node:fs/promises";
import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import type { LineWriter } from "./audit-log.ts";

/** kube-apiserver's `--audit-log-*` rotation settings (lumberjack's semantics). */
export interface AuditLogFileOptions {
  readonly path: string;
  /** Megabytes the file may reach before it is rotated; 0 means lumberjack's 100. @default 0 */
  readonly maxSizeMB?: number;
  /** Rotated files kept; 0 keeps all. @default 0 */
  readonly maxBackups?: number;
  /** Days a rotated file is kept; 0 keeps them regardless of age. @default 0 */
  readonly maxAgeDays?: number;
  /** The time rotated files are named after and aged by. */
  readonly now: () => Date;
}

const megabyte = 1024 * 1024;
const dayMs = 24 * 60 * 60 * 1000;

/**
 * Opens (appending to) the audit log file. Before a write would take it past the size limit,
 * the file is renamed to `<name>-<UTC time as 2006-01-02T15-04-05.000><ext>` beside it and a new
 * one started; then rotated files beyond `maxBackups` or older than `maxAgeDays` are removed.
 * New files are created with mode 0600.
 */
export async function openAuditLogFile(options: AuditLogFileOptions): Promise<LineWriter> {
  const maxBytes =
    (options.maxSizeMB === undefined || options.maxSizeMB === 0 ? 100 : options.maxSizeMB) *
    megabyte;
  const dir = dirname(options.path);
  const ext = extname(options.path);
  const stem = basename(options.path, ext);
  await mkdir(dir, { recursive: true });
  let handle: FileHandle = await open(options.path, "a", 0o600);
  let size = (await handle.stat()).size;

  const backupName = (at: Date): string =>
    join(dir, `${stem}-${at.toISOString().slice(0, 23).replaceAll(":", "-")}${ext}`);

  const prune = async (): Promise<void> => {
    const maxBackups = options.maxBackups ?? 0;
    const maxAgeDays = options.maxAgeDays ?? 0;
    if (maxBackups === 0 && maxAgeDays === 0) return;
    const pattern = new RegExp(
      `^${escapeRegExp(stem)}-(\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}\\.\\d{3})${escapeRegExp(ext)}$`,
    );
    const backups = (await readdir(dir))
      .flatMap((name) => {
        const stamp = pattern.exec(name)?.[1];
        if (stamp === undefined) return [];
        const iso = `${stamp.slice(0, 10)}T${stamp.slice(11).replace(/-/g, ":")}Z`;
        return [{ name, time: new Date(iso).getTime() }];
      })
      .sort((a, b) => b.time - a.time);
    const cutoff = options.now().getTime() - maxAgeDays * dayMs;
    const doomed = backups.filter(
      (backup, i) =>
        (maxBackups > 0 && i >= maxBackups) || (maxAgeDays > 0 && backup.time < cutoff),
    );
    await Promise.all(doomed.map((backup) => rm(join(dir, backup.name), { force: true })));
  };

  const rotate = async (): Promise<void> => {
    await handle.close();
    await rename(options.path, backupName(options.now()));
    handle = await open(options.path, "a", 0o600);
    size = 0;
    await prune();
  };

  return {
    async write(text) {
      const bytes = Buffer.byteLength(text);
      if (size > 0 && size + bytes > maxBytes) await rotate();
      await handle.write(text);
      size += bytes;
    },
    close: () => handle.close(),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
