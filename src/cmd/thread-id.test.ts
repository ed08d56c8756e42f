import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { Worker } from "node:worker_threads";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { thisThreadId } from "./thread-id.ts";

ensureNoLeaksInEachTest();

test("thisThreadId: the main thread's id is the process id, a worker's is its own", async () => {
  if (!existsSync("/proc/thread-self")) {
    assert.equal(thisThreadId(), undefined, "no /proc: no thread id");
    return;
  }
  assert.equal(thisThreadId(), process.pid);
  const module = new URL("./thread-id.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const body = `
    const { parentPort } = await import("node:worker_threads");
    (await import(${JSON.stringify(tsx)})).register();
    const { thisThreadId } = await import(${JSON.stringify(module)});
    parentPort.postMessage(thisThreadId());
  `;
  const worker = new Worker(body, { eval: true });
  const tid = await new Promise<unknown>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  const ofThisProcess = existsSync(`/proc/self/task/${String(tid)}`);
  await worker.terminate();
  assert.ok(typeof tid === "number" && tid !== process.pid, `a thread of its own: ${tid}`);
  assert.ok(ofThisProcess, "a thread of this process");
});
