import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { newAuditLog } from "./audit-log.ts";
import { openAuditLogFile } from "./log-file.ts";

const dir = mkdtempSync(join(tmpdir(), "gantry-audit-log-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("AuditLog: lines are written in order, in batches, and all are flushed on close", async () => {
  const writes: string[] = [];
  let closed = false;
  const log = newAuditLog({
    write: async (text) => {
      writes.push(text);
    },
    close: async () => {
      closed = true;
    },
  });
  for (let i = 0; i < 1000; i++) log.process(`{"n":${i}}`);
  assert.deepEqual(writes, [], "nothing is written on the request's turn");
  await log.close();
  assert.equal(closed, true);
  const lines = writes.join("").split("\n");
  assert.equal(lines.pop(), "", "every line ends in a newline");
  assert.deepEqual(
    lines,
    Array.from({ length: 1000 }, (_, i) => `{"n":${i}}`),
  );
  assert.ok(writes.length < 1000, `batched: ${writes.length} writes`);
});

test("AuditLog: beyond the buffer limit events are dropped and counted, not queued", async () => {
  const outcomes: string[] = [];
  let release: () => void = () => undefined;
  const blocked = new Promise<void>((resolve) => {
    release = resolve;
  });
  const written: string[] = [];
  const log = newAuditLog(
    {
      write: async (text) => {
        await blocked;
        written.push(text);
      },
      close: async () => undefined,
    },
    { maxBufferedBytes: 20, observe: (outcome) => outcomes.push(outcome) },
  );
  log.process("0123456789");
  log.process("0123456789");
  log.process("0123456789");
  assert.deepEqual(outcomes, ["buffered", "dropped", "dropped"]);
  release();
  await log.close();
  assert.deepEqual(written, ["0123456789\n"]);
  log.process("late");
  assert.deepEqual(outcomes.at(-1), "dropped", "a closed log takes nothing");
});

test("openAuditLogFile: rotates past the size limit, keeping maxbackup files, named by UTC time", async () => {
  const path = join(dir, "rotate", "audit.log");
  let now = Date.UTC(2024, 0, 2, 3, 4, 5, 678);
  const writer = await openAuditLogFile({
    path,
    maxSizeMB: 1,
    maxBackups: 2,
    now: () => new Date(now),
  });
  const line = `${"x".repeat(1023)}\n`;
  const chunk = line.repeat(600); // 600 KiB: two chunks exceed 1 MiB
  for (let i = 1; i <= 7; i++) {
    now += 1000;
    await writer.write(chunk); // from the second on, each write rotates first
  }
  await writer.close();
  const files = readdirSync(join(dir, "rotate")).sort();
  assert.deepEqual(files, [
    "audit-2024-01-02T03-04-11.678.log",
    "audit-2024-01-02T03-04-12.678.log",
    "audit.log",
  ]);
  for (const file of files) {
    const size = statSync(join(dir, "rotate", file)).size;
    assert.ok(size <= 1024 * 1024, `${file} is ${size} bytes, within 1 MiB`);
  }
  assert.equal(readFileSync(path, "utf8"), chunk, "the live file holds the last chunk");
  assert.equal((statSync(path).mode & 0o777).toString(8), "600");
});

test("openAuditLogFile: rotated files older than maxage days are removed", async () => {
  const path = join(dir, "age", "audit.json");
  let now = Date.UTC(2024, 0, 1);
  const writer = await openAuditLogFile({
    path,
    maxSizeMB: 1,
    maxAgeDays: 2,
    now: () => new Date(now),
  });
  const chunk = `${"y".repeat(700 * 1024)}\n`;
  await writer.write(chunk);
  await writer.write(chunk); // rotates: audit-2024-01-01T00-00-00.000.json
  now += 3 * 24 * 60 * 60 * 1000;
  await writer.write(chunk); // rotates; the first backup is now three days old
  await writer.close();
  assert.deepEqual(readdirSync(join(dir, "age")).sort(), [
    "audit-2024-01-04T00-00-00.000.json",
    "audit.json",
  ]);
});
