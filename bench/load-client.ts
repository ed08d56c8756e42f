/**
 * The benchmark side of bench/load.ts: a worker thread with the load clients, so the server on
 * the main thread and the clients each have a core (and a heap) of their own. `run` sends one
 * `LoadTask` at a time and resolves with its figures; progress lines go to `log`.
 */
import { Worker } from "node:worker_threads";
import type { LoadTask } from "./load.ts";
import type { PhaseResult } from "./stats.ts";

export interface LoadClient {
  run(task: LoadTask): Promise<PhaseResult>;
  close(): Promise<void>;
}

export function startLoadClient(log: (line: string) => void): LoadClient {
  const worker = new Worker(new URL("./load-worker.js", import.meta.url));
  worker.unref();
  return {
    run: (task) =>
      new Promise((resolve, reject) => {
        const onMessage = (message: {
          progress?: string;
          result?: PhaseResult;
          error?: string;
        }) => {
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
