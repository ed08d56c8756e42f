/**
 * `bench:queueing`'s observer, in a worker thread of its own so that its watch decoding does not
 * count as the API server's work: it follows the pods Kueue labelled with their PodSet (the
 * label comes with the gate's removal, so each pod is heard of once, when it is admitted) and
 * reports them every 100 ms. The main thread's side is `startAdmissionObserver`.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type { Pod } from "../src/api/index.ts";
import { newInformerFactory, podsResource } from "../src/client/index.ts";
import { connectionFromKubeconfig, newComponentClient } from "../src/cmd/component-client.ts";
import { thisThreadId } from "../src/cmd/thread-id.ts";

/** What the worker reports: admissions so far and the waits not reported before. */
interface Report {
  readonly tid: number | undefined;
  readonly admitted: number;
  /** When the latest admission was seen, in ms since the epoch (0: none yet). */
  readonly lastAtMs: number;
  /** Creation (the API server's timestamp, whole seconds) to admission, ms, per new pod. */
  readonly waits: readonly number[];
  readonly synced: boolean;
  readonly final: boolean;
}

export interface AdmissionObserver {
  /** Resolves once the observer's informer has synced. */
  readonly synced: Promise<void>;
  admitted(): number;
  /** The latest admission seen, in ms since the epoch (`performance.timeOrigin` based). */
  lastAtMs(): number;
  /** Creation to admission of every pod seen, ms. */
  readonly waits: number[];
  /** The observer thread's id (for per-thread CPU), once known. */
  tid(): number | undefined;
  /** Stops the watch; resolves with the final counts in place. */
  stop(): Promise<void>;
}

/** Starts the observer thread against the API server of `kubeconfigPath`. */
export function startAdmissionObserver(kubeconfigPath: string): AdmissionObserver {
  const worker = new Worker(new URL("./admission-observer-worker.js", import.meta.url), {
    workerData: { kubeconfigPath },
  });
  const waits: number[] = [];
  let admitted = 0;
  let lastAtMs = 0;
  let tid: number | undefined;
  let onSynced: () => void = () => undefined;
  let onFinal: () => void = () => undefined;
  const synced = new Promise<void>((resolve) => {
    onSynced = resolve;
  });
  const final = new Promise<void>((resolve) => {
    onFinal = resolve;
  });
  worker.on("message", (report: Report) => {
    tid = report.tid;
    admitted = report.admitted;
    lastAtMs = report.lastAtMs;
    waits.push(...report.waits);
    if (report.synced) onSynced();
    if (report.final) onFinal();
  });
  worker.once("error", (error) => {
    process.stderr.write(`bench:queueing: the admission observer failed: ${String(error)}\n`);
    onSynced();
    onFinal();
  });
  return {
    synced,
    admitted: () => admitted,
    lastAtMs: () => lastAtMs,
    waits,
    tid: () => tid,
    stop: async () => {
      worker.postMessage("stop");
      await final;
      await worker.terminate();
    },
  };
}

/** Whether Kueue's admission gate still holds `pod`. */
export const gated = (pod: { spec: { schedulingGates?: readonly { name: string }[] } }): boolean =>
  (pod.spec.schedulingGates ?? []).some((g) => g.name === "kueue.x-k8s.io/admission");

/** The worker's side. */
async function observe(kubeconfigPath: string): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const stop = new AbortController();
  const client = newComponentClient(connectionFromKubeconfig(kubeconfigPath), "bench-observer");
  const informers = newInformerFactory(client);
  const seen = new Set<string>();
  let waits: number[] = [];
  let lastAtMs = 0;
  const onPod = (pod: Pod): void => {
    const name = pod.metadata.name ?? "";
    if (name === "" || name === "queueing-probe" || gated(pod) || seen.has(name)) return;
    seen.add(name);
    lastAtMs = performance.timeOrigin + performance.now();
    waits.push(Date.now() - Date.parse(pod.metadata.creationTimestamp ?? ""));
  };
  informers
    .forResource<Pod>(podsResource, { labelSelector: "kueue.x-k8s.io/podset" })
    .addEventHandler({ onAdd: (p) => onPod(p as Pod), onUpdate: (_o, n) => onPod(n as Pod) });
  const running = informers.start(stop.signal);
  const report = (synced: boolean, final: boolean): void => {
    const message: Report = {
      tid: thisThreadId(),
      admitted: seen.size,
      lastAtMs,
      waits,
      synced,
      final,
    };
    waits = [];
    port.postMessage(message);
  };
  await informers.waitForSync(stop.signal);
  report(true, false);
  const ticker = setInterval(() => report(true, false), 100);
  port.once("message", () => {
    clearInterval(ticker);
    stop.abort();
    void running.finally(() => report(true, true));
  });
}

if (!isMainThread) await observe((workerData as { kubeconfigPath: string }).kubeconfigPath);
