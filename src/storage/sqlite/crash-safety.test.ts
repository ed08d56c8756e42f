import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import type { Revision, WatchEvent } from "../storage.ts";
import { openSqliteStorage } from "./sqlite-storage.ts";

ensureNoLeaksInEachTest();

const dir = mkdtempSync(join(tmpdir(), "gantry-crash-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const writerScript = fileURLToPath(new URL("./testdata/crash-writer.ts", import.meta.url));

interface Ack {
  readonly op: "C" | "U";
  readonly revision: Revision;
}

/** Runs the writer child until it has acknowledged `acks` writes, then SIGKILLs it. */
async function runAndKill(
  path: string,
  synchronous: string,
  acks: number,
): Promise<Map<string, Ack[]>> {
  const child = spawn(process.execPath, ["--import", "tsx", writerScript, path, synchronous], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => {
    child.on("exit", (_code, signal) => resolve(signal));
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const acked = new Map<string, Ack[]>();
  let count = 0;
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      const [op, key, revision] = line.split(" ");
      if ((op !== "C" && op !== "U") || key === undefined) continue;
      acked.set(key, [...(acked.get(key) ?? []), { op, revision: Number(revision) }]);
      if (++count === acks) child.kill("SIGKILL");
    }
  } finally {
    clearTimeout(timer);
  }
  assert.equal(await exited, "SIGKILL", `the writer was not killed mid-stream; stderr: ${stderr}`);
  assert.ok(count >= acks, `only ${count} writes were acknowledged; stderr: ${stderr}`);
  return acked;
}

const cases = [
  { name: "synchronous normal", synchronous: "normal", acks: 2000 },
  { name: "synchronous full", synchronous: "full", acks: 400 },
] as const;

for (const c of cases) {
  test(`SqliteStorage: every write acknowledged before SIGKILL survives (${c.name})`, async () => {
    const path = join(dir, `crash-${c.synchronous}.db`);
    const acked = await runAndKill(path, c.synchronous, c.acks);

    const raw = new Database(path);
    try {
      assert.equal(raw.pragma("integrity_check", { simple: true }), "ok");
    } finally {
      raw.close();
    }

    await using store = await openSqliteStorage({ path });
    const current = await store.currentRevision();
    for (const [key, acks] of acked) {
      const got = await store.get(key);
      assert.ok(got !== undefined, `acknowledged key ${key} is missing`);
      const created = acks.find((a) => a.op === "C");
      const updated = acks.find((a) => a.op === "U");
      assert.ok(created !== undefined, `update of ${key} acknowledged before its create`);
      assert.equal(got.createRevision, created.revision, key);
      if (updated !== undefined || got.value["gen"] === 2) {
        assert.equal(got.value["gen"], 2, key);
        if (updated !== undefined) assert.equal(got.revision, updated.revision, key);
      } else {
        assert.equal(got.revision, created.revision, key);
      }
      assert.ok(got.revision <= current, "got.revision <= current");
    }

    // The log is dense and in order: replaying it yields every revision exactly once.
    const controller = new AbortController();
    const revisions: Revision[] = [];
    for await (const event of store.watch(
      "/registry/crash/",
      0,
      controller.signal,
    ) as AsyncIterable<WatchEvent>) {
      revisions.push(event.revision);
      if (event.revision === current) controller.abort();
    }
    assert.deepEqual(
      revisions,
      Array.from({ length: current }, (_, i) => i + 1),
    );

    const next = await store.create("/registry/crash/after-restart", { ok: true });
    assert.equal(next.revision, current + 1);
  });
}
