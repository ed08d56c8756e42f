/**
 * The messages between `gantry up`'s main thread (the API server) and a component thread
 * (component-thread-worker.ts). Everything here survives postMessage's structured clone.
 */
import type { MetricObjectWithValues, MetricValue } from "prom-client";
import type { ClusterConfig, ControllerManagerSettings } from "../kubelet/index.ts";
import type { QueueingConfig } from "../queueing/index.ts";
import type { Connection } from "./component-client.ts";

/** The components one thread runs, as `ComponentsOptions` says them, minus what cannot cross. */
export interface ThreadComponentsOptions {
  readonly cluster?: ClusterConfig;
  readonly scheduler?: boolean;
  readonly controllers?: boolean;
  /** The controller manager's settings (the cluster config's, which stays with the kubelets). */
  readonly controllerManager?: ControllerManagerSettings;
  readonly dataDir?: string;
  /** The queueing controllers' config when they run in this thread. */
  readonly queueing?: QueueingConfig;
}

/** The worker's `workerData`. */
export interface ThreadStart {
  readonly connection: Connection;
  readonly options: ThreadComponentsOptions;
  /** The main logger's verbosity: `v(n)` lines above it are not sent. */
  readonly verbosity: number;
}

export type ThreadMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** Main thread → worker. */
export type ThreadRequest =
  | { readonly kind: "metrics"; readonly id: number }
  | { readonly kind: "memory"; readonly id: number; readonly gc: boolean }
  | { readonly kind: "stop" };

/** Worker → main thread. */
export type ThreadReply =
  | {
      readonly kind: "log";
      readonly level: "info" | "error" | number;
      readonly message: string;
      /** JSON of the logger's `with` fields, then of the line's own. */
      readonly context: string;
      readonly fields: string;
    }
  /** Every configured node is registered and every component started. */
  | {
      readonly kind: "ready";
      readonly metrics: ThreadMetrics;
      /** The thread's id in the kernel (Linux), for per-thread CPU figures. */
      readonly tid: number | undefined;
    }
  | { readonly kind: "metrics"; readonly id: number; readonly metrics: ThreadMetrics }
  | {
      readonly kind: "memory";
      readonly id: number;
      readonly heapUsed: number;
      readonly heapTotal: number;
    }
  /** A component failed (while starting or running): the thread is of no more use. */
  | { readonly kind: "failed"; readonly error: string }
  /** Every component stopped after a `stop`. */
  | { readonly kind: "stopped" };
