import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { Worker } from "node:worker_threads";
import { thisThreadNice } from "./thread-priority.ts";

const linux = existsSync("/proc/thread-self");

test("setThisThreadNice: lowers the priority of the calling thread only", {
  skip: !linux && "needs Linux's /proc/thread-self",
}, async () => {
  const before = thisThreadNice();
  const module = new URL("./thread-priority.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const body = `
    const { parentPort } = await import("node:worker_threads");
    (await import(${JSON.stringify(tsx)})).register();
    const { setThisThreadNice, thisThreadNice } = await import(${JSON.stringify(module)});
    const tid = setThisThreadNice(5);
    parentPort.postMessage({ tid, nice: thisThreadNice() });
  `;
  const worker = new Worker(body, { eval: true });
  const reply = await new Promise<{ tid?: number; nice?: number }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  await worker.terminate();
  assert.ok(typeof reply.tid === "number" && reply.tid !== process.pid, "the worker's own thread");
  assert.equal(reply.nice, 5);
  assert.equal(thisThreadNice(), before, "the main thread keeps its priority");
});
