/**
 * The scheduling framework's extension points, with Kubernetes' names and order:
 *
 *   queue:      preEnqueue → (queueSort) less
 *   scheduling: preFilter → filter (per node) → postFilter (only when no node fits)
 *               → preScore → score (per node) → normalizeScore → reserve → permit
 *   binding:    (wait on permit) → preBind → bind → postBind; unreserve undoes reserve on failure
 *
 * A plugin is one object with a `name` and the methods of the points it implements; the runtime
 * calls a method only if it exists. Everything up to `permit` runs synchronously inside one
 * scheduling cycle (no I/O, so thousands of nodes are checked without yielding); `postFilter`,
 * `preBind` and `bind` may do API calls and are async.
 *
 * Statuses are values (see status.ts). A plugin that cannot do its job because of a bug or a
 * broken invariant returns an `Error` status (or throws: the runtime wraps it).
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { ClusterEventWithHint } from "./cluster-event.ts";
import type { CycleState } from "./cycle-state.ts";
import type { NodeToStatusReader } from "./fit-error.ts";
import type { NodeInfo } from "./node-info.ts";
import type { PodGroupPostFilterPlugin } from "./pod-group.ts";
import type { PodInfo, QueuedPodInfo } from "./pod-info.ts";
import { type Status, success } from "./status.ts";

/** The highest score a plugin may give a node after normalization. */
export const maxNodeScore = 100;
/** The lowest score. */
export const minNodeScore = 0;
/** A permit plugin may hold a pod at most this long (upstream's `maxTimeout`). */
export const maxPermitTimeoutMs = 15 * 60 * 1000;

export type PodObject = DeepReadonly<Pod>;

export interface Plugin {
  /** The name in profiles, statuses and metrics (`"TaintToleration"`). */
  readonly name: string;
}

/**
 * Runs before a pod enters the active queue. A non-success status keeps the pod out of it
 * ("gated") until an event registered by this plugin says it may be worth another look.
 */
export interface PreEnqueuePlugin extends Plugin {
  preEnqueue(pod: PodObject): Status;
}

/** Orders the active queue. Exactly one per profile. */
export interface QueueSortPlugin extends Plugin {
  /** Whether `a` should be scheduled before `b`. */
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/** Which cluster events can make a pod this plugin rejected schedulable (queueing hints). */
export interface EnqueueExtensions {
  eventsToRegister(): readonly ClusterEventWithHint[];
}

/**
 * Incremental updates of PreFilter state, used when the scheduler evaluates "what if this pod were
 * (not) on the node": nominated pods and preemption victims. Both mutate `state` in place.
 */
export interface PreFilterExtensions {
  addPod(
    state: CycleState,
    podToSchedule: PodObject,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): Status;
  removePod(
    state: CycleState,
    podToSchedule: PodObject,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): Status;
}

/** What a PreFilter plugin returns. */
export interface PreFilterResult {
  readonly status: Status;
  /**
   * Only these nodes can fit (NodeAffinity on `metadata.name`); undefined means all nodes. The
   * runtime intersects the sets of all plugins.
   */
  readonly nodeNames?: ReadonlySet<string>;
}

/** The common PreFilter result: success, all nodes. */
export const preFilterSuccess: PreFilterResult = Object.freeze({ status: success });

/**
 * Runs once per cycle before filtering. Return Skip to skip this plugin's Filter for the cycle;
 * a rejection makes the whole attempt fail without filtering nodes.
 */
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: PodObject, nodes: readonly NodeInfo[]): PreFilterResult;
  /** Present when the plugin keeps PreFilter state that depends on the pods on a node. */
  readonly preFilterExtensions?: PreFilterExtensions;
}

/**
 * Whether the pod fits the node. Called for many nodes per cycle: must be fast and must not
 * mutate `nodeInfo`. Return `success` (a shared constant) when it fits.
 */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: PodObject, nodeInfo: NodeInfo): Status;
}

/** How a PostFilter result changes the pod's `status.nominatedNodeName`. */
export interface NominatingInfo {
  readonly nominatedNodeName: string;
  /** `Override` sets (or, with "", clears) the nominated node; `Noop` leaves it alone. */
  readonly mode: "Noop" | "Override";
}

export interface PostFilterResult {
  readonly status: Status;
  readonly nominatingInfo?: NominatingInfo;
}

/**
 * Runs when no node fits (preemption). Success with a nominated node means "retry later there";
 * a rejection's message is appended to the FitError (`preemption: …`).
 */
export interface PostFilterPlugin extends Plugin {
  postFilter(
    state: CycleState,
    pod: PodObject,
    filteredNodeStatus: NodeToStatusReader,
  ): Promise<PostFilterResult>;
}

/** Runs once before scoring with the feasible nodes. Skip skips this plugin's Score. */
export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: PodObject, nodes: readonly NodeInfo[]): Status;
}

/** A node's score from one plugin. */
export interface NodeScore {
  readonly name: string;
  score: number;
}

/**
 * Ranks a feasible node: any number, brought into [0, 100] by `normalizeScore` (or already in
 * range). A plugin that cannot score throws; the runtime turns that into an Error status.
 */
export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: PodObject, nodeInfo: NodeInfo): number;
  /**
   * Rewrites every node's score in place (usually into [0, 100]). The list and its entries are
   * reused by the next cycle: do not keep them.
   */
  normalizeScore?(state: CycleState, pod: PodObject, scores: NodeScore[]): Status;
}

/** One part of a pod's signature (upstream's `SignFragment`): a key and a JSON value. */
export interface SignFragment {
  /** What the value is: a pod path in upstream's dot notation (`Spec.Tolerations`) or a plugin name. */
  readonly key: string;
  readonly value: unknown;
}

/** What a Sign plugin returns: fragments, or a non-success status when it cannot sign the pod. */
export interface SignResult {
  readonly status: Status;
  readonly fragments?: readonly SignFragment[];
}

/**
 * Says which parts of the pod the plugin's PreFilter, Filter, PreScore and Score read (upstream's
 * `SignPlugin`, KEP-5598 opportunistic batching). Two pods whose fragments are equal must get the
 * same Filter status and the same raw Score on a node in the same state, wherever the other pod
 * was placed. A plugin whose answer for one node can change when a pod lands on another node
 * (topology spreading, pod affinity) returns a non-success status for pods it would judge that
 * way: such pods are not signed, and nothing is reused for them. A pod is signed afresh for every
 * attempt, so a plugin may look at the cycle's snapshot (InterPodAffinity leaves labels out while
 * no pod anywhere has affinity terms).
 */
export interface SignPlugin extends Plugin {
  signPod(podInfo: PodInfo): SignResult;
}

/**
 * Reserve runs after the pod is assumed on the node, to claim plugin-held resources; Unreserve
 * undoes it when a later step fails. Unreserve must be idempotent and must not fail.
 */
export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: PodObject, nodeName: string): Status;
  unreserve(state: CycleState, pod: PodObject, nodeName: string): void;
}

export interface PermitResult {
  readonly status: Status;
  /** With a Wait status: how long to wait before the pod is rejected (capped at 15 minutes). */
  readonly timeoutMs?: number;
}

/**
 * The last gate of the scheduling cycle: Success lets the pod go to binding, a rejection sends
 * it back, Wait parks it (see `WaitingPod`) until every waiting plugin allows it or one rejects.
 */
export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: PodObject, nodeName: string): PermitResult;
}

/** Runs before binding (volumes, claims). A failure sends the pod to backoff. */
export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: PodObject, nodeName: string): Promise<Status>;
}

/** Binds the pod. Return Skip to let the next bind plugin do it. */
export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: PodObject, nodeName: string): Promise<Status>;
}

/** Informational, after a successful bind. Must not fail. */
export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: PodObject, nodeName: string): void;
}

/** Any plugin: a name plus any of the extension points. */
export type AnyPlugin = Plugin &
  Partial<
    Omit<PreEnqueuePlugin, "name"> &
      Omit<QueueSortPlugin, "name"> &
      EnqueueExtensions &
      Omit<PreFilterPlugin, "name"> &
      Omit<FilterPlugin, "name"> &
      Omit<PostFilterPlugin, "name"> &
      Omit<PreScorePlugin, "name"> &
      Omit<ScorePlugin, "name"> &
      Omit<SignPlugin, "name"> &
      Omit<ReservePlugin, "name"> &
      Omit<PermitPlugin, "name"> &
      Omit<PreBindPlugin, "name"> &
      Omit<BindPlugin, "name"> &
      Omit<PostBindPlugin, "name"> &
      Omit<PodGroupPostFilterPlugin, "name">
  >;
