/** What the fleet's sync functions share: the API, time, caches, timers and the work queue. */
import type { Node, Pod } from "../../api/index.ts";
import type { Client, EventRecorder } from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger, Random } from "../../util/index.ts";
import type { NodeAgent } from "./node-agent.ts";

/** Work-queue keys: `node/<name>`, `lease/<name>`, `status/<name>`, `pod/<ns>/<name>`. */
export type WorkKey = string;

export const nodeKey = (name: string): WorkKey => `node/${name}`;
export const leaseKey = (name: string): WorkKey => `lease/${name}`;
export const statusKey = (name: string): WorkKey => `status/${name}`;
export const podKey = (namespaceName: string): WorkKey => `pod/${namespaceName}`;

/** `namespace/name` of a pod. */
export function podName(pod: DeepReadonly<Pod>): string {
  return `${pod.metadata.namespace ?? ""}/${pod.metadata.name ?? ""}`;
}

export interface FleetContext {
  readonly client: Client;
  readonly clock: Clock;
  /** Spreads heartbeats (first renewal, jitter of each period). */
  readonly random: Random;
  readonly logger: Logger;
  /** This fleet's name, written to `gantry.dev/kubelet` on the nodes it runs. */
  readonly fleetName: string;
  /** The port reported in `status.daemonEndpoints.kubeletEndpoint`. */
  readonly kubeletPort: number;
  /** The agents, by node name. */
  readonly agents: Map<string, NodeAgent>;
  /** Which node a tracked pod (`namespace/name`) was admitted on, and its uid. */
  readonly podHomes: Map<string, { readonly node: string; readonly uid: string }>;
  /** The Node as the shared informer last saw it. */
  cachedNode(name: string): DeepReadonly<Node> | undefined;
  /** The pod (`namespace/name`) as the shared informer last saw it. */
  cachedPod(key: string): DeepReadonly<Pod> | undefined;
  /** Pods the informer knows bound to `node`. */
  cachedPodsOn(node: string): readonly DeepReadonly<Pod>[];
  /** Sets the timer of a work key (replacing its previous deadline). */
  schedule(key: WorkKey, at: number): void;
  cancel(key: WorkKey): void;
  /** Queues a key for a worker now (pod keys and heartbeat keys have workers of their own). */
  enqueue(key: WorkKey): void;
  /** The kubelet of `node`'s event recorder (`source.component` kubelet, `source.host` node). */
  events(node: string): EventRecorder;
}
