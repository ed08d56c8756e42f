/**
 * Scheduler test fixtures: a real `Framework` over a fixed set of nodes and pods, with listers over
 * those pods, a recording event recorder and no API client. Plugin tests run plugins through it
 * exactly as the scheduler would (PreFilter state, Skip, nominated pods, preemption extensions).
 */
import type { KubeObject, Node, Pod, PodGroup, Workload } from "../../api/index.ts";
import { type Client, newInformerFactory } from "../../client/index.ts";
import {
  CycleState,
  defaultPlugins,
  type EventRecorder,
  Framework,
  inTreeRegistry,
  NodeInfo,
  type PluginConfig,
  PodGroupManager,
  PodInfo,
  type Registry,
  Snapshot,
  type Status,
  statusMessage,
} from "../../scheduler/index.ts";
import {
  type Clock,
  type DeepReadonly,
  discardLogger,
  type Random,
  seededRandom,
  systemClock,
} from "../../util/index.ts";

/** An event the fixture's recorder saw. */
export interface RecordedEvent {
  readonly object: string;
  readonly type: string;
  readonly reason: string;
  readonly message: string;
}

export interface TestFrameworkOptions {
  /** @default the default profile's plugins */
  readonly plugins?: readonly PluginConfig[];
  /** @default inTreeRegistry() */
  readonly registry?: Registry;
  readonly nodes?: readonly Node[];
  /** Pods with `spec.nodeName` are placed on their node. */
  readonly pods?: readonly Pod[];
  /** Pods nominated to nodes: node name → pods. */
  readonly nominated?: Readonly<Record<string, readonly Pod[]>>;
  /** Workloads and PodGroups the gang lookups see (pods naming a group become members). */
  readonly workloads?: readonly Workload[];
  readonly podGroups?: readonly PodGroup[];
  /** Namespace name → labels. */
  readonly namespaces?: Readonly<Record<string, Record<string, string>>>;
  /** @default a client whose every call rejects */
  readonly client?: Client;
  /** @default systemClock */
  readonly clock?: Clock;
  /** @default seededRandom(1) */
  readonly random?: Random;
}

export interface TestFramework {
  readonly framework: Framework;
  readonly snapshot: Snapshot;
  /** The gang state: members are `options.pods` (add more with `upsertPod`). */
  readonly podGroups: PodGroupManager;
  readonly events: RecordedEvent[];
  /** Pods passed to `activate`. */
  readonly activated: DeepReadonly<Pod>[];
  /** A fresh CycleState. */
  newState(): CycleState;
  /**
   * Runs PreFilter then Filter (with nominated pods) on every node: node name → `Success`, or
   * `<code>: <message>`; every node gets PreFilter's rejection when PreFilter fails, and nodes
   * outside PreFilter's node set get `UnschedulableAndUnresolvable: (not in PreFilter result)`.
   */
  filter(pod: Pod): Record<string, string>;
  /** Runs PreScore and Score on `nodes` (default: all): node name → weighted total. */
  score(pod: Pod, nodes?: readonly string[]): Record<string, number>;
}

/** PrioritySort, the given plugins, DefaultBinder: the least a framework needs. */
export function minimalPlugins(...plugins: (string | PluginConfig)[]): PluginConfig[] {
  return [
    { name: "PrioritySort" },
    ...plugins.map((p) => (typeof p === "string" ? { name: p } : p)),
    { name: "DefaultBinder" },
  ];
}

function describe(status: Status): string {
  return status.code === "Success" ? "Success" : `${status.code}: ${statusMessage(status)}`;
}

/** A NodeInfo for `node` with `pods` on it. */
export function nodeInfoOf(node: Node, ...pods: Pod[]): NodeInfo {
  const info = new NodeInfo(node);
  for (const pod of pods) info.addPodInfo(new PodInfo(pod));
  return info;
}

/** A Client for tests that must not reach an API server: every call rejects with a TypeError. */
export function unreachableClient(): Client {
  const fail = (): Promise<never> =>
    Promise.reject(new TypeError("Cannot call the API server: this test has none"));
  return {
    get: fail,
    list: fail,
    watch: () => ({
      [Symbol.asyncIterator]: () => ({ next: fail }),
    }),
    create: fail,
    update: fail,
    updateStatus: fail,
    patch: fail,
    delete: fail,
    getRaw: fail,
    getSubresource: fail,
    createSubresource: fail,
    updateSubresource: fail,
    deleteCollection: fail,
  };
}

/** Builds a framework over the given cluster state. */
export function newTestFramework(options: TestFrameworkOptions = {}): TestFramework {
  const nodeInfos = (options.nodes ?? []).map((node) => new NodeInfo(node));
  const byName = new Map(nodeInfos.map((info) => [info.name, info]));
  for (const pod of options.pods ?? []) {
    const node = pod.spec.nodeName ?? "";
    if (node !== "") byName.get(node)?.addPodInfo(new PodInfo(pod));
  }
  const snapshot = Snapshot.of(nodeInfos);
  const events: RecordedEvent[] = [];
  const activated: DeepReadonly<Pod>[] = [];
  const recorder: EventRecorder = {
    event(regarding: DeepReadonly<KubeObject>, type, reason, _action, message) {
      events.push({
        object: `${regarding.metadata.namespace ?? ""}/${regarding.metadata.name ?? ""}`,
        type,
        reason,
        message,
      });
    },
  };
  const pods = [...(options.pods ?? [])];
  const nominated = new Map(
    Object.entries(options.nominated ?? {}).map(([node, list]) => [
      node,
      list.map((p) => new PodInfo(p)),
    ]),
  );
  const podGroups = new PodGroupManager({ isAssumed: () => false, now: () => 0 });
  const find = <T extends KubeObject>(list: readonly T[] | undefined, ns: string, name: string) =>
    list?.find((o) => o.metadata.namespace === ns && o.metadata.name === name);
  podGroups.setObjects({
    workload: (ns, name) => find(options.workloads, ns, name),
    podGroup: (ns, name) => find(options.podGroups, ns, name),
  });
  for (const pod of pods) podGroups.upsertPod(pod);
  const framework = new Framework(
    options.registry ?? inTreeRegistry(),
    { schedulerName: "default-scheduler", plugins: options.plugins ?? defaultPlugins },
    {
      client: options.client ?? unreachableClient(),
      informers: newInformerFactory(options.client ?? unreachableClient()),
      listers: {
        pod: (namespace, name) =>
          pods.find((p) => p.metadata.namespace === namespace && p.metadata.name === name),
        namespaceLabels: (namespace) => options.namespaces?.[namespace],
        podDisruptionBudgets: () => [],
      },
      podGroups,
      eventRecorder: recorder,
      clock: options.clock ?? systemClock,
      random: options.random ?? seededRandom(1),
      logger: discardLogger,
      snapshot: () => snapshot,
      nominatedPodsForNode: (node) => nominated.get(node) ?? [],
      activate: (list) => {
        activated.push(...list);
      },
      queueClusterEvent: () => undefined,
    },
  );
  const names = (list?: readonly string[]): string[] =>
    list === undefined ? snapshot.list().map((n) => n.name) : [...list];
  return {
    framework,
    snapshot,
    podGroups,
    events,
    activated,
    newState: () => new CycleState(),
    filter(pod) {
      const state = new CycleState();
      const pre = framework.runPreFilterPlugins(state, pod, snapshot.list());
      const out: Record<string, string> = {};
      for (const info of snapshot.list()) {
        if (pre.status.code !== "Success") out[info.name] = describe(pre.status);
        else if (pre.nodeNames !== undefined && !pre.nodeNames.has(info.name)) {
          out[info.name] = "UnschedulableAndUnresolvable: (not in PreFilter result)";
        } else {
          out[info.name] = describe(framework.runFilterPluginsWithNominatedPods(state, pod, info));
        }
      }
      return out;
    },
    score(pod, nodes) {
      const state = new CycleState();
      const infos = names(nodes).map((n) => snapshot.get(n) as NodeInfo);
      const pre = framework.runPreScorePlugins(state, pod, infos);
      if (pre.code !== "Success") throw new TypeError(`PreScore failed: ${describe(pre)}`);
      const { status, totals } = framework.runScorePlugins(state, pod, infos);
      if (status.code !== "Success") throw new TypeError(`Score failed: ${describe(status)}`);
      return Object.fromEntries(infos.map((info, i) => [info.name, totals[i] ?? 0]));
    },
  };
}
