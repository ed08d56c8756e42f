/**
 * bench:scheduler's `--kubelets thread`: the emulated kubelets in a worker thread of their own,
 * as `gantry kubelet` runs them in a process of their own, talking to the API server over HTTP
 * like any kubelet. The main thread asks for their heap after a full collection.
 */
import { parentPort } from "node:worker_threads";
import { newComponentClient } from "../src/cmd/component-client.ts";
import { startKubeletComponent } from "../src/cmd/kubelet-component.ts";
import { defaultClusterConfig } from "../src/kubelet/index.ts";
import { discardLogger } from "../src/util/index.ts";

export type KubeletThreadRequest =
  | { readonly start: { readonly url: string; readonly nodes: number } }
  | { readonly memory: true }
  | { readonly stop: true };

export type KubeletThreadReply =
  | { readonly registered: true }
  | { readonly heapUsed: number }
  | { readonly stopped: true }
  | { readonly error: string };

const stop = new AbortController();
let done: Promise<void> | undefined;

async function handle(request: KubeletThreadRequest): Promise<KubeletThreadReply> {
  if ("start" in request) {
    const client = newComponentClient({ server: request.start.url }, "kubelet");
    const running = await startKubeletComponent(
      client,
      { cluster: defaultClusterConfig(request.start.nodes) },
      discardLogger,
      stop.signal,
    );
    done = running.done;
    return { registered: true };
  }
  if ("memory" in request) {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc !== undefined) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    return { heapUsed: process.memoryUsage().heapUsed };
  }
  stop.abort();
  await done;
  return { stopped: true };
}

parentPort?.on("message", (request: KubeletThreadRequest) => {
  handle(request).then(
    (reply) => parentPort?.postMessage(reply),
    (error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.stack : String(error) }),
  );
});
