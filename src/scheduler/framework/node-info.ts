/**
 * A node and what is placed on it (upstream's `NodeInfo`): its pods (bound and assumed), the sum
 * of their requests, the node's allocatable resources and the host ports in use. The cache keeps
 * one per node and mutates it as pods come and go; a scheduling cycle sees clones (the snapshot),
 * and preemption mutates clones of those to simulate evictions.
 */
import { type Node, resourceListAmounts, type Taint } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { HostPort, PodInfo } from "./pod-info.ts";
import { Resource } from "./resource.ts";

/** Host ports in use: `protocol/port` → ip → how many pods claim it. */
export class HostPortInfo {
  readonly #ports = new Map<string, Map<string, number>>();

  add(port: HostPort): void {
    const key = `${port.protocol}/${port.port}`;
    const ips = this.#ports.get(key) ?? new Map<string, number>();
    ips.set(port.ip, (ips.get(port.ip) ?? 0) + 1);
    this.#ports.set(key, ips);
  }

  remove(port: HostPort): void {
    const key = `${port.protocol}/${port.port}`;
    const ips = this.#ports.get(key);
    const count = ips?.get(port.ip);
    if (ips === undefined || count === undefined) return;
    if (count > 1) ips.set(port.ip, count - 1);
    else ips.delete(port.ip);
    if (ips.size === 0) this.#ports.delete(key);
  }

  /** Whether `port` clashes: same protocol and port on the same ip, or either side is 0.0.0.0. */
  conflicts(port: HostPort): boolean {
    const ips = this.#ports.get(`${port.protocol}/${port.port}`);
    if (ips === undefined) return false;
    if (port.ip === "0.0.0.0") return ips.size > 0;
    return ips.has(port.ip) || ips.has("0.0.0.0");
  }

  get size(): number {
    return this.#ports.size;
  }

  clone(): HostPortInfo {
    const copy = new HostPortInfo();
    for (const [key, ips] of this.#ports) copy.#ports.set(key, new Map(ips));
    return copy;
  }
}

const noTaints: readonly DeepReadonly<Taint>[] = Object.freeze([]);

export class NodeInfo {
  #node: DeepReadonly<Node> | undefined = undefined;
  // The node fields every Filter and Score pass reads for each node are kept beside it: the
  // scheduling cycle visits hundreds of nodes per pod, and a load from this object beats a
  // chain of loads through the node, its spec and its taints, each a likely cache miss.
  #name = "";
  #unschedulable = false;
  #taints: readonly DeepReadonly<Taint>[] = noTaints;
  pods: PodInfo[] = [];
  /** The pods with any pod affinity or anti-affinity. */
  podsWithAffinity: PodInfo[] = [];
  /** The pods with required anti-affinity. */
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  usedPorts = new HostPortInfo();
  /** The sum of the pods' requests. */
  requested = new Resource();
  /** The same with 100m/200Mi for containers that request no cpu/memory (for scoring). */
  nonZeroRequested = new Resource();
  /** Set by `setNode` (a new object each time); never changed in place, so copies share it. */
  allocatable = new Resource();
  /** Bumped by the cache on every change; the snapshot copies only what changed. */
  generation = 0;
  // What is left for one more pod, kept in step with `pods`, `requested` and `allocatable` (which
  // only this class changes) so that Filter answers the common case from this object alone.
  #podRoom = 0;
  #milliCpuRoom = 0;
  #memoryRoom = 0;
  #ephemeralStorageRoom = 0;

  constructor(node?: DeepReadonly<Node>) {
    if (node !== undefined) this.setNode(node);
  }

  /** The node's name ("" when the node is unknown). */
  get name(): string {
    return this.#name;
  }

  /** Undefined while the cache has pods for a node it has not seen (or no longer sees). */
  get node(): DeepReadonly<Node> | undefined {
    return this.#node;
  }

  set node(node: DeepReadonly<Node> | undefined) {
    this.#node = node;
    this.#name = node?.metadata.name ?? "";
    this.#unschedulable = node?.spec?.unschedulable === true;
    const taints = node?.spec?.taints;
    this.#taints = taints === undefined || taints.length === 0 ? noTaints : taints;
  }

  /** The node's `spec.unschedulable` (false when the node is unknown). */
  get unschedulable(): boolean {
    return this.#unschedulable;
  }

  /** The node's `spec.taints` (empty when it has none or the node is unknown). */
  get taints(): readonly DeepReadonly<Taint>[] {
    return this.#taints;
  }

  setNode(node: DeepReadonly<Node>): void {
    this.node = node;
    this.allocatable = Resource.fromAmounts(resourceListAmounts(node.status?.allocatable));
    this.#refreshRoom();
  }

  /**
   * Whether one more pod with `requests` fits the node's pod count, cpu, memory and ephemeral
   * storage: exactly when NodeResourcesFit finds none of those insufficient. Scalar resources
   * are not looked at; a caller with any checks them against `allocatable` and `requested`.
   */
  hasNativeRoomFor(requests: Resource): boolean {
    if (this.#podRoom < 1) return false;
    if (requests.milliCpu > 0 && requests.milliCpu > this.#milliCpuRoom) return false;
    if (requests.memory > 0 && requests.memory > this.#memoryRoom) return false;
    return !(
      requests.ephemeralStorage > 0 && requests.ephemeralStorage > this.#ephemeralStorageRoom
    );
  }

  #refreshRoom(): void {
    const allocatable = this.allocatable;
    const requested = this.requested;
    this.#podRoom = allocatable.allowedPodNumber - this.pods.length;
    this.#milliCpuRoom = allocatable.milliCpu - requested.milliCpu;
    this.#memoryRoom = allocatable.memory - requested.memory;
    this.#ephemeralStorageRoom = allocatable.ephemeralStorage - requested.ephemeralStorage;
  }

  addPodInfo(podInfo: PodInfo): void {
    this.pods.push(podInfo);
    if (podInfo.hasAffinity) this.podsWithAffinity.push(podInfo);
    if (podInfo.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity.push(podInfo);
    this.#account(podInfo, 1);
  }

  /** Removes the pod with `uid`; false when it is not on this node. */
  removePod(uid: string): boolean {
    const index = indexOf(this.pods, uid);
    if (index < 0) return false;
    const podInfo = this.pods[index] as PodInfo;
    swapRemove(this.pods, index);
    const a = indexOf(this.podsWithAffinity, uid);
    if (a >= 0) swapRemove(this.podsWithAffinity, a);
    const r = indexOf(this.podsWithRequiredAntiAffinity, uid);
    if (r >= 0) swapRemove(this.podsWithRequiredAntiAffinity, r);
    this.#account(podInfo, -1);
    return true;
  }

  #account(podInfo: PodInfo, sign: number): void {
    const res = podInfo.resource;
    this.requested.add(res.requests, sign);
    this.nonZeroRequested.milliCpu += sign * res.nonZeroCpu;
    this.nonZeroRequested.memory += sign * res.nonZeroMemory;
    for (const port of podInfo.hostPorts) {
      if (sign > 0) this.usedPorts.add(port);
      else this.usedPorts.remove(port);
    }
    this.#refreshRoom();
  }

  /** A copy that can be mutated without touching this one (pods themselves are shared). */
  clone(): NodeInfo {
    const copy = new NodeInfo();
    copy.node = this.node;
    copy.pods = this.pods.slice();
    copy.podsWithAffinity = this.podsWithAffinity.slice();
    copy.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.slice();
    copy.usedPorts = this.usedPorts.size === 0 ? new HostPortInfo() : this.usedPorts.clone();
    copy.requested = this.requested.clone();
    copy.nonZeroRequested = this.nonZeroRequested.clone();
    // Replaced by setNode, never changed in place: copies share it.
    copy.allocatable = this.allocatable;
    copy.generation = this.generation;
    copy.#refreshRoom();
    return copy;
  }
}

function indexOf(pods: readonly PodInfo[], uid: string): number {
  for (let i = 0; i < pods.length; i++) if (pods[i]?.uid === uid) return i;
  return -1;
}

function swapRemove<T>(list: T[], index: number): void {
  const last = list.length - 1;
  if (index !== last) list[index] = list[last] as T;
  list.pop();
}
