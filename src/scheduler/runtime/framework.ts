/**
 * Runs one profile's plugins at each extension point (upstream's `frameworkImpl`): plugin order,
 * Skip bookkeeping, how statuses of several plugins combine, score normalization and weights,
 * Permit waits. It also is the plugins' `Handle`.
 */
import type { Pod } from "../../api/index.ts";
import type { Client, InformerFactory } from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger, Random } from "../../util/index.ts";
import {
  type AnyPlugin,
  asStatus,
  type BindPlugin,
  type ClusterEvent,
  type ClusterEventWithHint,
  type CycleState,
  type EventRecorder,
  type FilterPlugin,
  type Handle,
  isRejected,
  isSuccess,
  type NodeInfo,
  type NodeInfoLister,
  type NodeToStatusReader,
  type PermitPlugin,
  type PodGroupPostFilterPlugin,
  type PodGroupView,
  type PodInfo,
  type PodSignature,
  type PostBindPlugin,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreBindPlugin,
  type PreEnqueuePlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type Profile,
  podPriority,
  type QueueSortPlugin,
  type Registry,
  type ReservePlugin,
  type SchedulerListers,
  type ScorePlugin,
  type SignFragment,
  type SignPlugin,
  type SignResult,
  type Status,
  signerKeys,
  success,
  withPlugin,
} from "../framework/index.ts";
import type { ScoreReuse } from "./batch-memo.ts";
import {
  runBind,
  runPermit,
  runPostBind,
  runPreBind,
  runReserve,
  runUnreserve,
  waitOnPermit,
} from "./binding-points.ts";
import {
  type PreFilterOutcome,
  runPostFilter,
  runPreEnqueue,
  runPreFilter,
  runPreFilterExtension,
  runPreScore,
} from "./filtering-points.ts";
import { failure, runScorePlugins, ScoreScratch, type Weighted } from "./scoring.ts";
import { WaitingPodImpl, WaitingPods } from "./waiting-pods.ts";

/** What the framework needs from the scheduler around it. Functions may be bound late. */
export interface FrameworkDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly listers: SchedulerListers;
  /** Gang state for plugins. @default a view where no pod belongs to a group */
  readonly podGroups?: PodGroupView;
  readonly eventRecorder: EventRecorder;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  /** The snapshot of the current cycle. */
  readonly snapshot: () => NodeInfoLister;
  readonly nominatedPodsForNode: (nodeName: string) => readonly PodInfo[];
  /**
   * Whether any pod is nominated to any node. False lets Filter skip the per-node nominated
   * pods lookup for the whole cycle. @default always true (look up every node)
   */
  readonly hasNominatedPods?: () => boolean;
  readonly activate: (pods: readonly DeepReadonly<Pod>[]) => void;
  readonly queueClusterEvent: (event: ClusterEvent, oldObj: unknown, newObj: unknown) => void;
}

/** A view where no pod belongs to a group (frameworks built without the scheduler's state). */
const noPodGroups: PodGroupView = {
  groupOf: () => undefined,
  resolve: () => ({ ok: false, reason: "pod groups are not tracked" }),
  memberCount: () => 0,
  counts: () => ({ all: 0, scheduled: 0, bound: 0 }),
  unscheduledMembers: () => [],
  members: () => [],
};

function has<K extends keyof AnyPlugin>(plugin: AnyPlugin, method: K): boolean {
  return typeof plugin[method] === "function";
}

export class Framework {
  readonly profileName: string;
  readonly handle: Handle;
  /** 0: adaptive. */
  readonly percentageOfNodesToScore: number;
  readonly waitingPods = new WaitingPods();
  readonly #deps: FrameworkDeps;
  readonly #queueSort: QueueSortPlugin;
  readonly #preEnqueue: PreEnqueuePlugin[] = [];
  readonly #preFilter: PreFilterPlugin[] = [];
  readonly #filter: FilterPlugin[] = [];
  readonly #postFilter: PostFilterPlugin[] = [];
  readonly #preScore: PreScorePlugin[] = [];
  readonly #score: Weighted[] = [];
  readonly #reserve: ReservePlugin[] = [];
  readonly #permit: PermitPlugin[] = [];
  readonly #preBind: PreBindPlugin[] = [];
  readonly #bind: BindPlugin[] = [];
  readonly #postBind: PostBindPlugin[] = [];
  readonly #podGroupPostFilter: PodGroupPostFilterPlugin[] = [];
  readonly #events = new Map<string, readonly ClusterEventWithHint[]>();
  readonly #names = new Set<string>();
  readonly #signers: SignPlugin[] = [];
  /** Filtering and scoring plugins that do not sign pods (signatures are off if any). */
  readonly #unsigned: string[] = [];
  readonly #scoreScratch = new ScoreScratch();

  constructor(registry: Registry, profile: Profile, deps: FrameworkDeps) {
    this.profileName = profile.schedulerName;
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore ?? 0;
    this.#deps = deps;
    this.handle = this.#newHandle();
    let queueSort: QueueSortPlugin | undefined;
    for (const config of profile.plugins) {
      const factory = registry.get(config.name);
      if (factory === undefined) {
        throw new TypeError(
          `Cannot build profile "${profile.schedulerName}": plugin "${config.name}" is not registered`,
        );
      }
      const plugin = factory(this.handle, config.args);
      if (has(plugin, "less")) {
        if (queueSort !== undefined) {
          throw new TypeError(
            `Cannot build profile "${profile.schedulerName}": more than one queue sort plugin ("${queueSort.name}", "${plugin.name}")`,
          );
        }
        queueSort = plugin as QueueSortPlugin;
      }
      this.#register(plugin, config.weight ?? 1);
    }
    if (queueSort === undefined) {
      throw new TypeError(`Cannot build profile "${profile.schedulerName}": no queue sort plugin`);
    }
    if (this.#bind.length === 0) {
      throw new TypeError(`Cannot build profile "${profile.schedulerName}": no bind plugin`);
    }
    this.#queueSort = queueSort;
  }

  #register(plugin: AnyPlugin, weight: number): void {
    this.#names.add(plugin.name);
    if (has(plugin, "preEnqueue")) this.#preEnqueue.push(plugin as PreEnqueuePlugin);
    if (has(plugin, "preFilter")) this.#preFilter.push(plugin as PreFilterPlugin);
    if (has(plugin, "filter")) this.#filter.push(plugin as FilterPlugin);
    if (has(plugin, "postFilter")) this.#postFilter.push(plugin as PostFilterPlugin);
    if (has(plugin, "preScore")) this.#preScore.push(plugin as PreScorePlugin);
    if (has(plugin, "score")) this.#score.push({ plugin: plugin as ScorePlugin, weight });
    if (has(plugin, "reserve")) this.#reserve.push(plugin as ReservePlugin);
    if (has(plugin, "permit")) this.#permit.push(plugin as PermitPlugin);
    if (has(plugin, "preBind")) this.#preBind.push(plugin as PreBindPlugin);
    if (has(plugin, "bind")) this.#bind.push(plugin as BindPlugin);
    if (has(plugin, "postBind")) this.#postBind.push(plugin as PostBindPlugin);
    if (has(plugin, "signPod")) this.#signers.push(plugin as SignPlugin);
    else if (
      ["preFilter", "filter", "preScore", "score"].some((m) => has(plugin, m as keyof AnyPlugin))
    ) {
      this.#unsigned.push(plugin.name);
    }
    if (has(plugin, "selectGroupVictims")) {
      this.#podGroupPostFilter.push(plugin as PodGroupPostFilterPlugin);
    }
    const canReject = ["preEnqueue", "preFilter", "filter", "reserve", "permit"].some((m) =>
      has(plugin, m as keyof AnyPlugin),
    );
    if (canReject) {
      // A plugin that does not say which events matter is woken by every event (upstream).
      this.#events.set(
        plugin.name,
        plugin.eventsToRegister?.() ?? [{ event: { resource: "*", actionType: 8191 } }],
      );
    }
  }

  #newHandle(): Handle {
    const d = this.#deps;
    return {
      profileName: this.profileName,
      client: d.client,
      informers: d.informers,
      listers: d.listers,
      podGroups: d.podGroups ?? noPodGroups,
      eventRecorder: d.eventRecorder,
      clock: d.clock,
      random: d.random,
      logger: d.logger,
      snapshot: () => d.snapshot(),
      iterateOverWaitingPods: (fn) => this.waitingPods.forEach(fn),
      getWaitingPod: (uid) => this.waitingPods.get(uid),
      rejectWaitingPod: (uid) => this.rejectWaitingPod(uid),
      nominatedPodsForNode: (node) => d.nominatedPodsForNode(node),
      runFilterPluginsWithNominatedPods: (s, p, n) =>
        this.runFilterPluginsWithNominatedPods(s, p, n),
      runPreFilterExtensionAddPod: (s, p, i, n) => this.runPreFilterExtension("addPod", s, p, i, n),
      runPreFilterExtensionRemovePod: (s, p, i, n) =>
        this.runPreFilterExtension("removePod", s, p, i, n),
      activate: (pods) => d.activate(pods),
      queueClusterEvent: (event, oldObj, newObj) => d.queueClusterEvent(event, oldObj, newObj),
    };
  }

  /** The queue order of this profile. */
  get less(): QueueSortPlugin["less"] {
    const sort = this.#queueSort;
    return (a, b) => sort.less(a, b);
  }

  get preEnqueuePlugins(): readonly PreEnqueuePlugin[] {
    return this.#preEnqueue;
  }

  /** Plugin name → the events that may undo its rejections (the queue's hint map). */
  get eventsToRegister(): ReadonlyMap<string, readonly ClusterEventWithHint[]> {
    return this.#events;
  }

  get hasFilterPlugins(): boolean {
    return this.#filter.length > 0;
  }

  get hasScorePlugins(): boolean {
    return this.#score.length > 0;
  }

  /** The plugins that preempt for whole gangs (DefaultPreemption); the first one is used. */
  get podGroupPostFilterPlugins(): readonly PodGroupPostFilterPlugin[] {
    return this.#podGroupPostFilter;
  }

  /** Whether the profile enables the plugin `name`. */
  hasPlugin(name: string): boolean {
    return this.#names.has(name);
  }

  /**
   * Whether pods can be signed: every PreFilter, Filter, PreScore and Score plugin of the profile
   * is a Sign plugin (upstream turns signatures off for the profile otherwise).
   */
  get canSignPods(): boolean {
    return this.#unsigned.length === 0;
  }

  /**
   * The pod's signature (upstream's `SignPod`): its scheduler name and every Sign plugin's
   * fragments, each key once (plugins reading the same field add it once). Pods with the same
   * signature (`sameSignature`) get the same Filter status and raw Score on a node in the same
   * state. Undefined when a plugin cannot sign the pod, or the profile cannot sign at all.
   */
  signPod(podInfo: PodInfo): PodSignature | undefined {
    if (this.#unsigned.length > 0) return undefined;
    const fragments: SignFragment[] = [
      { key: signerKeys.schedulerName, value: podInfo.pod.spec.schedulerName ?? "" },
    ];
    for (const plugin of this.#signers) {
      let result: SignResult;
      try {
        result = plugin.signPod(podInfo);
      } catch {
        return undefined;
      }
      if (!isSuccess(result.status)) return undefined;
      for (const fragment of result.fragments ?? []) {
        if (!fragments.some((f) => f.key === fragment.key)) fragments.push(fragment);
      }
    }
    return fragments;
  }

  get hasPostFilterPlugins(): boolean {
    return this.#postFilter.length > 0;
  }

  rejectWaitingPod(uid: string): boolean {
    const waiting = this.waitingPods.get(uid);
    if (waiting === undefined) return false;
    waiting.reject("", "removed");
    return true;
  }

  /**
   * PreFilter: Skip disables the plugin's Filter; UnschedulableAndUnresolvable stops at once;
   * Unschedulable lets the remaining plugins run (preemption needs their state); node sets are
   * intersected, and an empty intersection rejects the pod.
   */
  runPreFilterPlugins(
    state: CycleState,
    pod: DeepReadonly<Pod>,
    nodes: readonly NodeInfo[],
  ): PreFilterOutcome {
    return runPreFilter(this.#preFilter, state, pod, nodes);
  }

  /** The filter plugins that run this cycle (those whose PreFilter did not Skip). */
  activeFilterPlugins(state: CycleState): readonly FilterPlugin[] {
    if (state.skipFilterPlugins.size === 0) return this.#filter;
    return this.#filter.filter((p) => !state.skipFilterPlugins.has(p.name));
  }

  /** Filter: the first rejection wins; an error wraps the plugin's message. */
  runFilterPlugins(
    state: CycleState,
    pod: DeepReadonly<Pod>,
    nodeInfo: NodeInfo,
    plugins: readonly FilterPlugin[] = this.activeFilterPlugins(state),
  ): Status {
    for (const plugin of plugins) {
      let status: Status;
      try {
        status = plugin.filter(state, pod, nodeInfo);
      } catch (error: unknown) {
        status = asStatus(error);
      }
      if (status.code === "Success") continue;
      if (isRejected(status)) return withPlugin(status, plugin.name);
      return failure(`running "${plugin.name}" filter plugin`, status, plugin.name);
    }
    return success;
  }

  /** Whether any node has nominated pods (see `FrameworkDeps.hasNominatedPods`). */
  hasNominatedPods(): boolean {
    return this.#deps.hasNominatedPods?.() ?? true;
  }

  /**
   * Filter twice when pods of equal or higher priority are nominated to the node: once counting
   * them (the pod must fit next to them), once without (affinity to them must not be required).
   */
  runFilterPluginsWithNominatedPods(
    state: CycleState,
    pod: DeepReadonly<Pod>,
    nodeInfo: NodeInfo,
    plugins: readonly FilterPlugin[] = this.activeFilterPlugins(state),
  ): Status {
    const nominated = this.#deps.nominatedPodsForNode(nodeInfo.name);
    if (nominated.length === 0) return this.runFilterPlugins(state, pod, nodeInfo, plugins);
    const priority = podPriority(pod);
    const uid = pod.metadata.uid ?? "";
    let stateWith: CycleState | undefined;
    let infoWith: NodeInfo | undefined;
    for (const p of nominated) {
      if (p.uid === uid || podPriority(p.pod) < priority) continue;
      stateWith ??= state.clone();
      infoWith ??= nodeInfo.clone();
      infoWith.addPodInfo(p);
      const added = this.runPreFilterExtension("addPod", stateWith, pod, p, infoWith);
      if (!isSuccess(added)) return added;
    }
    if (stateWith === undefined || infoWith === undefined) {
      return this.runFilterPlugins(state, pod, nodeInfo, plugins);
    }
    const withNominated = this.runFilterPlugins(stateWith, pod, infoWith, plugins);
    if (!isSuccess(withNominated)) return withNominated;
    return this.runFilterPlugins(state, pod, nodeInfo, plugins);
  }

  runPreFilterExtension(
    op: "addPod" | "removePod",
    state: CycleState,
    podToSchedule: DeepReadonly<Pod>,
    podInfo: PodInfo,
    nodeInfo: NodeInfo,
  ): Status {
    return runPreFilterExtension(this.#preFilter, op, state, podToSchedule, podInfo, nodeInfo);
  }

  /**
   * PostFilter: the first success or unresolvable answer wins; otherwise the rejections' reasons
   * are joined, keeping the last meaningful nomination.
   */
  runPostFilterPlugins(
    state: CycleState,
    pod: DeepReadonly<Pod>,
    statuses: NodeToStatusReader,
  ): Promise<PostFilterResult> {
    return runPostFilter(this.#postFilter, state, pod, statuses);
  }

  /** PreScore: Skip disables the plugin's Score for the cycle. */
  runPreScorePlugins(
    state: CycleState,
    pod: DeepReadonly<Pod>,
    nodes: readonly NodeInfo[],
  ): Status {
    return runPreScore(this.#preScore, state, pod, nodes);
  }

  /**
   * Score: each plugin scores every node, normalizes, must land in [0, 100], and is weighted.
   * Returns the total per node, in `nodes` order.
   */
  runScorePlugins(
    state: CycleState,
    pod: DeepReadonly<Pod>,
    nodes: readonly NodeInfo[],
    reuse?: ScoreReuse,
  ): { status: Status; totals: number[] } {
    return runScorePlugins(this.#score, state, pod, nodes, this.#scoreScratch, reuse);
  }

  runReservePluginsReserve(state: CycleState, pod: DeepReadonly<Pod>, nodeName: string): Status {
    return runReserve(this.#reserve, state, pod, nodeName);
  }

  /** Unreserve in reverse order; failures are logged, never thrown. */
  runReservePluginsUnreserve(state: CycleState, pod: DeepReadonly<Pod>, nodeName: string): void {
    runUnreserve(this.#reserve, this.#deps.logger, state, pod, nodeName);
  }

  /**
   * Permit: a rejection wins at once; Waits collect per-plugin timeouts (at most 15 minutes) and
   * park the pod in `waitingPods`.
   */
  runPermitPlugins(state: CycleState, pod: DeepReadonly<Pod>, nodeName: string): Status {
    const outcome = runPermit(this.#permit, state, pod, nodeName);
    if (outcome.waits === undefined) return outcome.status;
    this.waitingPods.add(new WaitingPodImpl(pod, nodeName, outcome.waits, this.#deps.clock));
    return outcome.status;
  }

  /** Whether the pod is parked at Permit. */
  willWaitOnPermit(pod: DeepReadonly<Pod>): boolean {
    return this.waitingPods.get(pod.metadata.uid ?? "") !== undefined;
  }

  /** Waits until the parked pod is allowed or rejected (success at once if it is not parked). */
  waitOnPermit(pod: DeepReadonly<Pod>): Promise<Status> {
    return waitOnPermit(this.waitingPods, pod);
  }

  runPreBindPlugins(state: CycleState, pod: DeepReadonly<Pod>, nodeName: string): Promise<Status> {
    return runPreBind(this.#preBind, state, pod, nodeName);
  }

  /** Bind: the first plugin that does not Skip decides. */
  runBindPlugins(state: CycleState, pod: DeepReadonly<Pod>, nodeName: string): Promise<Status> {
    return runBind(this.#bind, state, pod, nodeName);
  }

  runPostBindPlugins(state: CycleState, pod: DeepReadonly<Pod>, nodeName: string): void {
    runPostBind(this.#postBind, this.#deps.logger, state, pod, nodeName);
  }

  /** PreEnqueue: the first plugin that does not let the pod in gates it. */
  runPreEnqueuePlugins(pod: DeepReadonly<Pod>): { status: Status; plugin: string } {
    return runPreEnqueue(this.#preEnqueue, pod);
  }
}
