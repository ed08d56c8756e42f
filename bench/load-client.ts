/**
 * The benchmark side of a load worker thread (bench/load.ts, bench/scheduler-load.ts): the
 * clients run there, so the server on the main thread and the clients each have a core (and a
 * heap) of their own. `run` sends one task at a time and resolves with its result; progress
 * lines go to `log`.
 */
import { Worker } from "node:worker_threads";
import type { LoadTask } from "./load.ts";
import type { PhaseResult } from "./stats.ts";

export interface LoadClient<Task = LoadTask, Result = PhaseResult> {
  run(task: Task): Promise<Result>;
  close(): Promise<void>;
}

/** Starts the worker at `entry` (by default bench/load-worker.js, the HTTP load clients). */
export function startLoadClient<Task = LoadTask, Result = PhaseResult>(
  log: (line: string) => void,
  entry: URL = new URL("./load-worker.js", import.meta.url),
): LoadClient<Task, Result> {
  const worker = new Worker(entry);
  worker.unref();
  return {
    run: (task) =>
      new Promise((resolve, reject) => {
        const onMessage = (message: { progress?: string; result?: Result; error?: string }) => {
          if (message.progress !== undefined) {
            log(`  ${message.progress}`);
            return;
          }
          worker.off("message", onMessage);
          worker.off("error", reject);
          if (message.error !== undefined) reject(new Error(message.error));
          else if (message.result !== undefined) resolve(message.result);
        };
        worker.on("message", onMessage);
        worker.once("error", reject);
        worker.postMessage(task);
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}
