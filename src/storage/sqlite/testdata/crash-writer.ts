// A child process for crash-safety.test.ts: writes to the SQLite store given as argv[2] from
// several concurrent writers and prints one line per acknowledged write, "<op> <key> <revision>",
// until it is killed (or, as a safety net, after `maxWrites` writes).
import { openSqliteStorage } from "../sqlite-storage.ts";

const path = process.argv[2];
if (path === undefined) throw new TypeError("Usage: crash-writer.ts <database path>");
const synchronous = process.argv[3] === "full" ? "full" : "normal";
const writers = 8;
const maxWrites = 200_000;
const padding = "x".repeat(512);

const store = await openSqliteStorage({ path, synchronous });
let writes = 0;

async function writer(w: number): Promise<void> {
  for (let i = 0; writes < maxWrites; i++) {
    const key = `/registry/crash/w${w}-${i}`;
    const created = await store.create(key, { w, i, gen: 1, padding });
    process.stdout.write(`C ${key} ${created.revision}\n`);
    const updated = await store.update(key, { w, i, gen: 2, padding }, created.revision);
    process.stdout.write(`U ${key} ${updated.revision}\n`);
    writes += 2;
  }
}

await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
await store.close();
