/**
 * The scheduler's view of where pods run (upstream's `cacheImpl`): nodes from the node informer,
 * bound pods from the pod informer, and pods the scheduler *assumed* on a node before the API
 * confirmed the binding. An assumed pod counts on its node at once, so the next cycle does not
 * double-book it; the informer's add confirms it, a failed bind forgets it.
 */
import type { Node, Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { NodeInfo, PodInfo } from "../framework/index.ts";
import { Snapshot } from "./snapshot.ts";

interface PodState {
  podInfo: PodInfo;
  nodeName: string;
  /** Assumed by the scheduler and not yet seen bound by the informer. */
  assumed: boolean;
}

export class SchedulerCache {
  readonly #nodes = new Map<string, NodeInfo>();
  readonly #pods = new Map<string, PodState>();
  /** Node names changed since the last snapshot update. */
  readonly #dirty = new Set<string>();
  /** Nodes were added or removed since the last snapshot update. */
  #structureChanged = false;
  #generation = 0;

  get nodeCount(): number {
    let n = 0;
    for (const info of this.#nodes.values()) if (info.node !== undefined) n++;
    return n;
  }

  #touch(name: string, info: NodeInfo): void {
    info.generation = ++this.#generation;
    this.#dirty.add(name);
  }

  #infoFor(name: string): NodeInfo {
    let info = this.#nodes.get(name);
    if (info === undefined) {
      info = new NodeInfo();
      this.#nodes.set(name, info);
    }
    return info;
  }

  addNode(node: DeepReadonly<Node>): void {
    const name = node.metadata.name ?? "";
    const info = this.#infoFor(name);
    if (info.node === undefined) this.#structureChanged = true;
    info.setNode(node);
    this.#touch(name, info);
  }

  updateNode(node: DeepReadonly<Node>): void {
    this.addNode(node);
  }

  /** Removes the node; its pods stay accounted until they are deleted (a ghost node). */
  removeNode(node: DeepReadonly<Node>): void {
    const name = node.metadata.name ?? "";
    const info = this.#nodes.get(name);
    if (info === undefined) return;
    this.#structureChanged = true;
    if (info.pods.length === 0) this.#nodes.delete(name);
    else info.node = undefined;
    this.#dirty.add(name);
  }

  #addToNode(podInfo: PodInfo, nodeName: string): void {
    const info = this.#infoFor(nodeName);
    info.addPodInfo(podInfo);
    this.#touch(nodeName, info);
  }

  #removeFromNode(uid: string, nodeName: string): void {
    const info = this.#nodes.get(nodeName);
    if (info === undefined) return;
    info.removePod(uid);
    if (info.node === undefined && info.pods.length === 0) {
      this.#nodes.delete(nodeName);
      this.#dirty.add(nodeName);
      return;
    }
    this.#touch(nodeName, info);
  }

  /**
   * Counts the pod on `pod.spec.nodeName` before the binding is confirmed. `podInfo` (for `pod`)
   * saves parsing the pod again when the cycle already did.
   */
  assumePod(pod: DeepReadonly<Pod>, podInfo: PodInfo = new PodInfo(pod)): void {
    const uid = pod.metadata.uid ?? "";
    if (this.#pods.has(uid)) {
      throw new TypeError(
        `Cannot assume pod "${pod.metadata.namespace}/${pod.metadata.name}": it is already in the cache`,
      );
    }
    const nodeName = pod.spec.nodeName ?? "";
    this.#addToNode(podInfo, nodeName);
    this.#pods.set(uid, { podInfo, nodeName, assumed: true });
  }

  /** Undoes `assumePod` (binding failed or the cycle was abandoned). No-op unless assumed. */
  forgetPod(pod: DeepReadonly<Pod>): void {
    const uid = pod.metadata.uid ?? "";
    const state = this.#pods.get(uid);
    if (state === undefined || !state.assumed) return;
    this.#removeFromNode(uid, state.nodeName);
    this.#pods.delete(uid);
  }

  isAssumedPod(pod: DeepReadonly<Pod>): boolean {
    return this.#pods.get(pod.metadata.uid ?? "")?.assumed === true;
  }

  /** The cached pod with `uid` (assumed or bound). */
  getPod(uid: string): DeepReadonly<Pod> | undefined {
    return this.#pods.get(uid)?.podInfo.pod;
  }

  /** A bound pod seen by the informer; confirms an assumed pod. */
  addPod(pod: DeepReadonly<Pod>): void {
    const uid = pod.metadata.uid ?? "";
    const nodeName = pod.spec.nodeName ?? "";
    const state = this.#pods.get(uid);
    if (state !== undefined) {
      // Confirms an assumed pod, or replaces a stale copy; the node may differ from the assumption.
      this.#removeFromNode(uid, state.nodeName);
    }
    const podInfo = new PodInfo(pod);
    this.#addToNode(podInfo, nodeName);
    this.#pods.set(uid, { podInfo, nodeName, assumed: false });
  }

  updatePod(pod: DeepReadonly<Pod>): void {
    this.addPod(pod);
  }

  removePod(pod: DeepReadonly<Pod>): void {
    const uid = pod.metadata.uid ?? "";
    const state = this.#pods.get(uid);
    if (state === undefined) return;
    this.#removeFromNode(uid, state.nodeName);
    this.#pods.delete(uid);
  }

  /**
   * Takes the pod off its node for a what-if (group preemption); the returned function puts it
   * back exactly as it was (assumed or bound). Undefined when the pod is not in the cache.
   */
  detachPod(uid: string): (() => void) | undefined {
    const state = this.#pods.get(uid);
    if (state === undefined) return undefined;
    this.#removeFromNode(uid, state.nodeName);
    this.#pods.delete(uid);
    return () => {
      this.#addToNode(state.podInfo, state.nodeName);
      this.#pods.set(uid, state);
    };
  }

  /**
   * Brings `snapshot` up to date: copies the node infos that changed since the last call, drops
   * removed nodes, and rebuilds the lists when nodes came or went or affinity pods moved.
   */
  updateSnapshot(snapshot: Snapshot): void {
    let rebuild = this.#structureChanged;
    for (const name of this.#dirty) {
      const info = this.#nodes.get(name);
      const previous = snapshot.nodeInfos.get(name);
      if (info === undefined || info.node === undefined) {
        if (previous !== undefined) {
          snapshot.nodeInfos.delete(name);
          rebuild = true;
        }
        continue;
      }
      const copy = info.clone();
      if (previous === undefined) {
        rebuild = true;
        snapshot.nodeInfos.set(name, copy);
        continue;
      }
      if (
        previous.podsWithAffinity.length > 0 !== copy.podsWithAffinity.length > 0 ||
        previous.podsWithRequiredAntiAffinity.length > 0 !==
          copy.podsWithRequiredAntiAffinity.length > 0
      ) {
        rebuild = true;
      }
      snapshot.nodeInfos.set(name, copy);
      if (!rebuild) {
        const at = snapshot.listIndex.get(name);
        if (at !== undefined && snapshot.nodeInfoList[at] === previous) {
          snapshot.nodeInfoList[at] = copy;
        } else {
          rebuild = true;
        }
        if (copy.podsWithAffinity.length > 0) {
          replaceIn(snapshot.havePodsWithAffinity, previous, copy);
        }
        if (copy.podsWithRequiredAntiAffinity.length > 0) {
          replaceIn(snapshot.havePodsWithRequiredAntiAffinity, previous, copy);
        }
      }
    }
    this.#dirty.clear();
    this.#structureChanged = false;
    if (rebuild) snapshot.rebuildLists();
  }

  /** A fresh snapshot of the whole cache. */
  snapshot(): Snapshot {
    const snapshot = new Snapshot();
    for (const [name, info] of this.#nodes) {
      if (info.node !== undefined) snapshot.nodeInfos.set(name, info.clone());
    }
    snapshot.rebuildLists();
    return snapshot;
  }
}

function replaceIn(list: NodeInfo[], previous: NodeInfo, next: NodeInfo): void {
  const at = list.indexOf(previous);
  if (at >= 0) list[at] = next;
}
