/**
 * `NodeFleet`: every emulated kubelet of a process. One shared node informer, one pod informer
 * (pods bound to a node), one timer queue and one work queue serve all nodes, so 5,000 nodes
 * cost a few maps and timer entries each, not a watch or a timer apiece.
 */
import type { Node, Pod } from "../../api/index.ts";
import {
  type Client,
  deletedObject,
  type EventBroadcaster,
  type EventRecorder,
  type InformerFactory,
  type InformerScope,
  newEventBroadcaster,
  newInformerFactory,
  newItemExponentialFailureRateLimiter,
  newRateLimitingQueue,
  nodesResource,
  podsResource,
  type RateLimitingQueue,
  type SharedInformer,
} from "../../client/index.ts";
import {
  type Clock,
  type DeepReadonly,
  discardLogger,
  type Logger,
  type Random,
  systemClock,
  systemRandom,
} from "../../util/index.ts";
import type { AdmitHandlerFactory } from "../admission/admit-handler.ts";
import { type ClusterConfig, poolNodeNames } from "../config/cluster-config.ts";
import type { MachineInfo } from "../machine/machine-info.ts";
import { cadvisorTopologyInterpreter, type TopologyInterpreter } from "../machine/topology.ts";
import {
  type EmulatedNode,
  namedPoolNode,
  nodeFromObject,
  nodeFromPool,
} from "../node/emulated-node.ts";
import { NodeCidrAllocator } from "../node/ip-allocators.ts";
import { kubeletAnnotation, noKubelet, poolAnnotation } from "../node/node-object.ts";
import { configz, machineInfo, podsDocument } from "../server/documents.ts";
import { kubeletMetricsText } from "../server/kubelet-metrics.ts";
import type { KubeletEndpoints } from "../server/kubelet-server.ts";
import {
  type AllocatableResourcesResponse,
  activePods,
  allocatableResources,
  type ListPodResourcesResponse,
  listPodResources,
} from "../server/pod-resources.ts";
import {
  type FleetContext,
  leaseKey,
  nodeKey,
  podKey,
  podName,
  statusKey,
  type WorkKey,
} from "./context.ts";
import { HeartbeatPriority } from "./heartbeat-priority.ts";
import { NodeAgent } from "./node-agent.ts";
import { renewLease, syncNode, updateNodeStatus } from "./node-sync.ts";
import { syncPod } from "./pod-sync.ts";
import { TimerQueue } from "./timer-queue.ts";

/** What a fleet needs from its process. */
export interface NodeFleetDeps {
  readonly client: Client;
  /** @default systemClock */
  readonly clock?: Clock;
  /** @default discardLogger */
  readonly logger?: Logger;
  /** Spreads the nodes' heartbeats over their periods. @default systemRandom */
  readonly random?: Random;
  /**
   * The process's informer factory, started by its owner, to share list+watches with other
   * components. When absent the fleet makes and starts its own.
   */
  readonly informers?: InformerFactory;
  /**
   * Where the kubelets' events go. @default a broadcaster of the fleet's own over `client`
   * (5,000 queued events at most, 2 writes at once, correlation caches of 16,384 events), flushed when the fleet stops
   */
  readonly events?: EventBroadcaster;
}

/** How a fleet behaves. */
export interface NodeFleetOptions {
  /** The node pools to run. */
  readonly config: ClusterConfig;
  /** Written to `gantry.dev/kubelet` on every node this fleet runs. @default "gantry" */
  readonly name?: string;
  /**
   * Run Nodes created through the API (`kubectl apply -f node.yaml`) that carry no
   * `gantry.dev/kubelet` annotation. @default true
   */
  readonly adoptUnclaimedNodes?: boolean;
  /** The port reported in `status.daemonEndpoints.kubeletEndpoint.Port`. @default 10250 */
  readonly kubeletPort?: number;
  /** Pod work (status writes, deletions) in flight at once, across all nodes. @default 16 */
  readonly workers?: number;
  /**
   * Node work (registration, Lease renewals, node status) in flight at once, across all nodes.
   * Heartbeats have workers of their own so that a flood of pods cannot starve them (nodes
   * would go NotReady) and thousands of renewals cannot starve pods. @default 128
   */
  readonly heartbeatWorkers?: number;
  /** Reads pools' `topology` objects. @default cadvisorTopologyInterpreter */
  readonly topology?: TopologyInterpreter;
  /** Extra admit handlers per node (the CPU manager). @default none */
  readonly admitHandlers?: AdmitHandlerFactory;
  /**
   * Which pods the fleet watches. `{}` shares the scheduler's all-pods informer; the default
   * watches only bound pods. @default { fieldSelector: "spec.nodeName!=" }
   */
  readonly podScope?: InformerScope;
}

const nodeIndex = "kubelet.gantry.dev/node-name";
const retryMinMs = 500;
const retryMaxMs = 30_000;
/** Heartbeats waiting longer than this for a worker hold pod work back. */
const heartbeatLateMs = 5000;

/** The emulated kubelets of one process. Construct, then `start(signal)`. */
export class NodeFleet implements KubeletEndpoints {
  readonly #deps: NodeFleetDeps;
  readonly #options: NodeFleetOptions;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #name: string;
  readonly #agents = new Map<string, NodeAgent>();
  readonly #podHomes = new Map<string, { readonly node: string; readonly uid: string }>();
  /** Waiters woken after each registration. */
  readonly #onRegistered: (() => void)[] = [];
  /** Pod keys. */
  readonly #pods: RateLimitingQueue<WorkKey>;
  /** Node, Lease and status keys. */
  readonly #heartbeats: RateLimitingQueue<WorkKey>;
  readonly #priority: HeartbeatPriority;
  readonly #timers: TimerQueue<WorkKey>;
  readonly #cidrs: NodeCidrAllocator;
  readonly #interpreter: TopologyInterpreter;
  readonly #events: EventBroadcaster;
  readonly #recorders = new Map<string, EventRecorder>();
  #context: FleetContext | undefined;

  constructor(deps: NodeFleetDeps, options: NodeFleetOptions) {
    this.#deps = deps;
    this.#options = options;
    this.#clock = deps.clock ?? systemClock;
    this.#logger = (deps.logger ?? discardLogger).with({ component: "kubelet" });
    this.#name = options.name ?? "gantry";
    const queue = (): RateLimitingQueue<WorkKey> =>
      newRateLimitingQueue<WorkKey>({
        clock: this.#clock,
        rateLimiter: newItemExponentialFailureRateLimiter<WorkKey>(retryMinMs, retryMaxMs),
      });
    this.#pods = queue();
    this.#heartbeats = queue();
    this.#priority = new HeartbeatPriority(this.#clock, heartbeatLateMs);
    this.#timers = new TimerQueue<WorkKey>(this.#clock, (key) => this.#enqueue(key));
    this.#cidrs = new NodeCidrAllocator(
      options.config.networking.podSubnet,
      options.config.networking.nodeCIDRMaskSize,
    );
    this.#interpreter = options.topology ?? cadvisorTopologyInterpreter;
    // One queue and correlator for every kubelet of the process: events of 5,000 nodes are
    // coalesced and bounded together instead of 5,000 writers competing for the API.
    this.#events =
      deps.events ??
      newEventBroadcaster(
        { client: deps.client, clock: this.#clock, logger: this.#logger },
        { maxQueued: 5000, writers: 2, lruCacheSize: 16_384 },
      );
  }

  #enqueue(key: WorkKey): void {
    if (key.startsWith("pod/")) this.#pods.add(key);
    else this.#addHeartbeat(key);
  }

  #addHeartbeat(key: WorkKey): void {
    this.#priority.queued(key);
    this.#heartbeats.add(key);
  }

  /** Drains the fleet's own event broadcaster (one given in `deps` is its owner's). */
  async #stopEvents(): Promise<void> {
    if (this.#deps.events === undefined) await this.#events.shutdown();
  }

  /** Resolves once every event recorded so far has been written (tests). */
  flushEvents(): Promise<void> {
    return this.#events.flush();
  }

  #recorder(node: string): EventRecorder {
    let recorder = this.#recorders.get(node);
    if (recorder === undefined) {
      recorder = this.#events.recorder({ component: "kubelet", host: node });
      this.#recorders.set(node, recorder);
    }
    return recorder;
  }

  /**
   * Starts the informers, timers and workers, registers every configured node, and resolves
   * once they are all registered. `done` settles after `signal` aborts and everything stopped.
   */
  async start(signal: AbortSignal): Promise<{ readonly done: Promise<void> }> {
    const running: Promise<void>[] = [];
    const factory =
      this.#deps.informers ??
      newInformerFactory(this.#deps.client, { clock: this.#clock, logger: this.#logger });
    const nodes = factory.forResource<Node>(nodesResource);
    const pods = factory.forResource<Pod>(
      podsResource,
      this.#options.podScope ?? { fieldSelector: "spec.nodeName!=" },
    );
    try {
      pods.addIndexers({ [nodeIndex]: (pod) => [pod.spec.nodeName ?? ""] });
    } catch (error: unknown) {
      // A shared informer may carry the index from an earlier fleet on the same factory.
      if (!(error instanceof TypeError)) throw error;
    }
    if (this.#deps.informers === undefined) running.push(factory.start(signal));
    const [nodesSynced, podsSynced] = await Promise.all([
      nodes.waitForSync(signal),
      pods.waitForSync(signal),
    ]);
    const ctx = this.#makeContext(nodes, pods);
    this.#context = ctx;
    if (!nodesSynced || !podsSynced) {
      return { done: Promise.all(running).then(() => this.#stopEvents()) };
    }

    for (const node of nodes.indexer.list()) {
      const cidr = node.spec?.podCIDR;
      if (cidr !== undefined && cidr !== "") this.#cidrs.reserve(cidr);
    }
    const configured: EmulatedNode[] = [];
    for (const pool of this.#options.config.nodePools) {
      poolNodeNames(pool).forEach((_, i) => {
        configured.push(nodeFromPool(pool, i, this.#interpreter));
      });
    }
    for (const node of configured) {
      const agent = this.#newAgent(node);
      const existing = nodes.indexer.get(node.name)?.spec?.podCIDR;
      const cidr = existing !== undefined && existing !== "" ? existing : this.#cidrs.allocate();
      if (cidr !== undefined) agent.setPodCidr(cidr);
      this.#agents.set(node.name, agent);
    }

    nodes.addEventHandler({
      onAdd: (node) => this.#addHeartbeat(nodeKey(node.metadata.name ?? "")),
      onUpdate: (_, node) => this.#addHeartbeat(nodeKey(node.metadata.name ?? "")),
      onDelete: (node) => this.#addHeartbeat(nodeKey(deletedObject(node).metadata.name ?? "")),
    });
    const onPod = (pod: DeepReadonly<Pod>): void => {
      const key = podName(pod);
      if (this.#agents.has(pod.spec.nodeName ?? "") || this.#podHomes.has(key)) {
        this.#pods.add(podKey(key));
      }
    };
    pods.addEventHandler({
      onAdd: onPod,
      onUpdate: (_, pod) => onPod(pod),
      onDelete: (pod) => onPod(deletedObject<Pod>(pod)),
    });

    running.push(this.#timers.run(signal));
    signal.addEventListener(
      "abort",
      () => {
        this.#pods.shutDown();
        this.#heartbeats.shutDown();
        this.#priority.close();
      },
      { once: true },
    );
    for (let i = 0; i < (this.#options.workers ?? 16); i++) {
      // One pod worker never yields to late heartbeats: pods slow down, they never stop.
      running.push(this.#work(ctx, this.#pods, i === 0 ? undefined : this.#priority));
    }
    for (let i = 0; i < (this.#options.heartbeatWorkers ?? 128); i++) {
      running.push(this.#work(ctx, this.#heartbeats));
    }
    for (const node of configured) this.#addHeartbeat(nodeKey(node.name));
    await this.#waitForRegistration(configured, signal);
    this.#logger.info("Emulated nodes registered", { nodes: configured.length });
    return { done: Promise.all(running).then(() => this.#stopEvents()) };
  }

  async #waitForRegistration(nodes: readonly EmulatedNode[], signal: AbortSignal): Promise<void> {
    const pending = (): boolean =>
      nodes.some((n) => {
        const agent = this.#agents.get(n.name);
        return agent !== undefined && !agent.registered;
      });
    while (pending() && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const onAbort = (): void => resolve();
        signal.addEventListener("abort", onAbort, { once: true });
        this.#onRegistered.push(() => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        });
      });
    }
  }

  #newAgent(node: EmulatedNode): NodeAgent {
    const handlers =
      this.#options.admitHandlers?.({
        nodeName: node.name,
        pool: node.pool,
        kubelet: node.kubelet,
        machine: node.machine,
        topology: node.topology,
      }) ?? [];
    return new NodeAgent(node, handlers);
  }

  #makeContext(nodes: SharedInformer<Node>, pods: SharedInformer<Pod>): FleetContext {
    return {
      client: this.#deps.client,
      clock: this.#clock,
      random: this.#deps.random ?? systemRandom,
      logger: this.#logger,
      fleetName: this.#name,
      kubeletPort: this.#options.kubeletPort ?? 10250,
      agents: this.#agents,
      podHomes: this.#podHomes,
      cachedNode: (name) => nodes.indexer.get(name),
      cachedPod: (key) => pods.indexer.get(key),
      cachedPodsOn: (node) => pods.indexer.byIndex(nodeIndex, node),
      schedule: (key, at) => this.#timers.schedule(key, at),
      cancel: (key) => this.#timers.cancel(key),
      enqueue: (key) => this.#enqueue(key),
      events: (node) => this.#recorder(node),
    };
  }

  /**
   * Whether this fleet should run a Node it has no agent for (created through the API, or left
   * from an earlier run), and its agent if so. A `gantry.dev/node-pool` annotation naming a pool
   * of the config gives it that pool's shape; otherwise it keeps the capacity it reports, or
   * gets the default node's.
   */
  #adopt(node: DeepReadonly<Node>): NodeAgent | undefined {
    const name = node.metadata.name ?? "";
    const claim = node.metadata.annotations?.[kubeletAnnotation];
    if (claim === noKubelet) return undefined;
    if (claim !== undefined && claim !== this.#name) return undefined;
    if (claim === undefined && this.#options.adoptUnclaimedNodes === false) return undefined;
    const poolName = node.metadata.annotations?.[poolAnnotation];
    const pool = this.#options.config.nodePools.find((p) => p.name === poolName);
    const emulated =
      pool === undefined
        ? nodeFromObject(node, this.#interpreter)
        : namedPoolNode(pool, name, this.#interpreter);
    const agent = this.#newAgent(emulated);
    this.#agents.set(name, agent);
    this.#logger.info("Running a node this fleet did not register", { node: name, pool: poolName });
    return agent;
  }

  #drop(ctx: FleetContext, agent: NodeAgent): void {
    const name = agent.node.name;
    this.#timers.cancel(leaseKey(name));
    this.#timers.cancel(statusKey(name));
    for (const slot of agent.pods.values()) {
      if (this.#podHomes.get(slot.key)?.node !== name) continue;
      this.#podHomes.delete(slot.key);
      this.#timers.cancel(podKey(slot.key));
    }
    if (agent.podCIDR !== undefined) this.#cidrs.release(agent.podCIDR);
    this.#agents.delete(name);
    this.#recorders.delete(name);
    ctx.logger.info("Node deleted: its kubelet stops", { node: name });
  }

  /** A worker of `queue`; a pod worker given `yieldTo` waits while heartbeats are late. */
  async #work(
    ctx: FleetContext,
    queue: RateLimitingQueue<WorkKey>,
    yieldTo?: HeartbeatPriority,
  ): Promise<void> {
    for (;;) {
      await yieldTo?.turn();
      const next = await queue.get();
      if (next.shutdown) return;
      if (queue === this.#heartbeats) this.#priority.taken(next.item);
      try {
        await this.#process(ctx, queue, next.item);
      } finally {
        queue.done(next.item);
      }
    }
  }

  async #process(
    ctx: FleetContext,
    queue: RateLimitingQueue<WorkKey>,
    key: WorkKey,
  ): Promise<void> {
    const slash = key.indexOf("/");
    const kind = key.slice(0, slash);
    const rest = key.slice(slash + 1);
    try {
      switch (kind) {
        case "node":
          await syncNode(ctx, rest, {
            cidrs: this.#cidrs,
            adopt: (node) => this.#adopt(node),
            drop: (agent) => this.#drop(ctx, agent),
            registered: () => {
              for (const wake of this.#onRegistered.splice(0)) wake();
            },
          });
          break;
        case "lease":
          await renewLease(ctx, rest);
          break;
        case "status":
          await updateNodeStatus(ctx, rest);
          break;
        case "pod":
          await syncPod(ctx, rest);
          break;
        default:
          throw new TypeError(`Cannot process work key ${JSON.stringify(key)}: unknown kind`);
      }
      queue.forget(key);
    } catch (error: unknown) {
      ctx.logger.error("Kubelet sync failed; retrying", {
        key,
        error,
        retries: queue.numRequeues(key),
      });
      queue.addRateLimited(key);
    }
  }

  /**
   * Stops the node's kubelet: no Lease renewals, no node status, no pod work, as if the machine
   * died. Returns false for a node this fleet does not run. Idempotent.
   */
  fail(nodeName: string): boolean {
    const agent = this.#agents.get(nodeName);
    if (agent === undefined) return false;
    agent.failedByCall = true;
    this.#addHeartbeat(nodeKey(nodeName));
    this.#timers.cancel(leaseKey(nodeName));
    this.#timers.cancel(statusKey(nodeName));
    return true;
  }

  /** Brings a failed node's kubelet back (unless the fail annotation still holds it down). */
  recover(nodeName: string): boolean {
    const agent = this.#agents.get(nodeName);
    if (agent === undefined) return false;
    agent.failedByCall = false;
    if (this.#context !== undefined && !agent.failed && agent.registered) {
      const now = this.#clock.now().getTime();
      this.#timers.schedule(leaseKey(nodeName), now);
      this.#timers.schedule(statusKey(nodeName), now);
      for (const pod of this.#context.cachedPodsOn(nodeName)) {
        this.#pods.add(podKey(podName(pod)));
      }
    }
    return true;
  }

  /**
   * How long the oldest queued heartbeat (registration, Lease renewal, status check) has waited
   * for a worker, ms; 0 when none waits. Above 5 s, pod work holds back for heartbeats.
   */
  heartbeatLagMs(): number {
    return this.#priority.lateness();
  }

  /** The names of the nodes this fleet runs, sorted. */
  nodeNames(): string[] {
    return [...this.#agents.keys()].sort();
  }

  isRunning(nodeName: string): boolean | undefined {
    const agent = this.#agents.get(nodeName);
    if (agent === undefined || !agent.registered) return undefined;
    return !agent.failed;
  }

  spec(nodeName: string): MachineInfo | undefined {
    const agent = this.#agents.get(nodeName);
    return agent === undefined ? undefined : machineInfo(agent.node);
  }

  pods(nodeName: string): ReturnType<typeof podsDocument> | undefined {
    if (!this.#agents.has(nodeName)) return undefined;
    const pods = this.#context?.cachedPodsOn(nodeName) ?? [];
    return podsDocument([...pods].sort((a, b) => podName(a).localeCompare(podName(b))));
  }

  podResources(nodeName: string): ListPodResourcesResponse | undefined {
    const agent = this.#agents.get(nodeName);
    if (agent === undefined) return undefined;
    agent.podResourcesCalls.list++;
    const released = new Set(
      [...agent.pods.values()]
        .filter((s) => s.released || s.record === undefined)
        .map((s) => s.uid),
    );
    const pods = activePods(this.#context?.cachedPodsOn(nodeName) ?? []).filter(
      (p) => !released.has(p.metadata.uid ?? ""),
    );
    return listPodResources(pods, (uid, container) => {
      for (const handler of agent.handlers) {
        const cpus = handler.exclusiveCpus?.(uid, container);
        if (cpus !== undefined && cpus.length > 0) return cpus;
      }
      return [];
    });
  }

  allocatableResources(nodeName: string): AllocatableResourcesResponse | undefined {
    const agent = this.#agents.get(nodeName);
    if (agent === undefined) return undefined;
    agent.podResourcesCalls.getAllocatable++;
    const cpus = agent.handlers.find((h) => h.allocatableCpus !== undefined)?.allocatableCpus?.();
    return allocatableResources(cpus ?? []);
  }

  metrics(nodeName: string): string | undefined {
    const agent = this.#agents.get(nodeName);
    if (agent === undefined) return undefined;
    const cpuManager = agent.handlers.find((h) => h.metricFamilies !== undefined);
    return kubeletMetricsText(nodeName, cpuManager?.metricFamilies?.(), agent.podResourcesCalls);
  }

  configz(nodeName: string): ReturnType<typeof configz> | undefined {
    const agent = this.#agents.get(nodeName);
    return agent === undefined
      ? undefined
      : configz(agent.node, this.#options.kubeletPort ?? 10250);
  }
}
