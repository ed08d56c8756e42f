/**
 * What the scheduler gives its plugins (upstream's `framework.Handle`): the API client and
 * caches, the current cycle's snapshot, the pods waiting at Permit, the event recorder, and a few
 * framework operations that plugins such as preemption and gang scheduling need.
 */
import type { KubeObject, Pod, PodDisruptionBudget } from "../../api/index.ts";
import type { Client, InformerFactory } from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger, Random } from "../../util/index.ts";
import type { ClusterEvent } from "./cluster-event.ts";
import type { CycleState } from "./cycle-state.ts";
import type { NodeInfo } from "./node-info.ts";
import type { PodGroupView } from "./pod-group.ts";
import type { PodInfo } from "./pod-info.ts";
import type { Status } from "./status.ts";

/** The nodes of one scheduling cycle, immutable while the cycle runs (upstream's SharedLister). */
export interface NodeInfoLister {
  /** Every node, in a stable order. */
  list(): readonly NodeInfo[];
  get(nodeName: string): NodeInfo | undefined;
  /** The nodes that run at least one pod with pod affinity or anti-affinity. */
  havePodsWithAffinityList(): readonly NodeInfo[];
  /** The nodes that run at least one pod with required pod anti-affinity. */
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[];
}

/**
 * A pod parked at Permit (upstream's `WaitingPod`). Each plugin that returned Wait must allow it;
 * any plugin may reject it. The first rejection, a timeout or the last allow ends the wait.
 */
export interface WaitingPod {
  readonly pod: DeepReadonly<Pod>;
  /** The node the pod is assumed on. */
  readonly nodeName: string;
  /** The plugins that still have to allow the pod. */
  pendingPlugins(): string[];
  /** `plugin` lets the pod go; once no plugin is pending the pod proceeds to binding. */
  allow(plugin: string): void;
  /** Ends the wait with an Unschedulable status from `plugin` carrying `message`. */
  reject(plugin: string, message: string): void;
}

/** Records core/v1 Events about objects (upstream's `events.EventRecorder`). */
export interface EventRecorder {
  /**
   * Records `reason`/`message` about `regarding`; `type` is Normal or Warning and `action` what
   * the component did. Fire-and-forget: failures are logged, never thrown. Repeats of the same
   * event within a few minutes update the existing Event's count.
   */
  event(
    regarding: DeepReadonly<KubeObject>,
    type: "Normal" | "Warning",
    reason: string,
    action: string,
    message: string,
  ): void;
}

/** Read access to the scheduler's informer caches that plugins use. */
export interface SchedulerListers {
  /** The latest cached version of a pod. */
  pod(namespace: string, name: string): DeepReadonly<Pod> | undefined;
  /** The labels of a namespace (for `namespaceSelector` in affinity terms). */
  namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined;
  /**
   * The PodDisruptionBudgets preemption should respect. Empty until the scheduler is wired to a
   * budget informer (the disruption issue); preemption then prefers victims whose budgets allow it.
   */
  podDisruptionBudgets(): readonly DeepReadonly<PodDisruptionBudget>[];
}

export interface Handle {
  /** The profile's scheduler name (`default-scheduler`). */
  readonly profileName: string;
  readonly client: Client;
  /**
   * Shared informers for what a plugin needs beyond the built-in listers (gang scheduling's
   * PodGroups). Informers a plugin asks for while it is constructed are synced before the
   * scheduler schedules its first pod; call `handle.queueClusterEvent` from their handlers.
   */
  readonly informers: InformerFactory;
  readonly listers: SchedulerListers;
  /** Pod groups (gangs): membership, policies and member counts, from the scheduler's informers. */
  readonly podGroups: PodGroupView;
  readonly eventRecorder: EventRecorder;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;

  /** The snapshot of the current (or last) scheduling cycle. */
  snapshot(): NodeInfoLister;

  /** Calls `fn` for every pod waiting at Permit. */
  iterateOverWaitingPods(fn: (pod: WaitingPod) => void): void;
  getWaitingPod(uid: string): WaitingPod | undefined;
  /** Rejects a waiting pod on behalf of the framework; false when it is not waiting. */
  rejectWaitingPod(uid: string): boolean;

  /** The pods nominated to `nodeName` (preemptors waiting for victims to go). */
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];

  /**
   * Filter with the nominated pods of equal or higher priority counted on the node (upstream's
   * `RunFilterPluginsWithNominatedPods`); preemption dry-runs use it.
   */
  runFilterPluginsWithNominatedPods(
    state: CycleState,
    pod: DeepReadonly<Pod>,
    nodeInfo: NodeInfo,
  ): Status;
  runPreFilterExtensionAddPod(
    state: CycleState,
    podToSchedule: DeepReadonly<Pod>,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status;
  runPreFilterExtensionRemovePod(
    state: CycleState,
    podToSchedule: DeepReadonly<Pod>,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status;

  /** Moves these pods to the active queue if they wait in backoff or as unschedulable. */
  activate(pods: readonly DeepReadonly<Pod>[]): void;

  /**
   * Tells the queue about a change a plugin observed in its own informers (a PodGroup appeared,
   * a budget changed), so pods rejected by plugins registered for `event` are re-evaluated.
   */
  queueClusterEvent(event: ClusterEvent, oldObj: unknown, newObj: unknown): void;
}
