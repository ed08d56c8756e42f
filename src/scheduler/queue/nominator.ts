/**
 * Pods nominated to nodes (upstream's `nominator`): a preemptor's `status.nominatedNodeName`,
 * kept in memory so the next cycles count the preemptor on that node before the API catches up.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { NominatingInfo, PodInfo } from "../framework/index.ts";

export class Nominator {
  readonly #byNode = new Map<string, PodInfo[]>();
  readonly #nodeOf = new Map<string, string>();
  /** Whether the pod is bound already (then it is not nominated anywhere). */
  readonly #isAssigned: (pod: DeepReadonly<Pod>) => boolean;

  constructor(isAssigned: (pod: DeepReadonly<Pod>) => boolean = () => false) {
    this.#isAssigned = isAssigned;
  }

  /**
   * Nominates the pod: to `info.nominatedNodeName` with mode Override, else to the pod's own
   * `status.nominatedNodeName`; with neither, the pod is only removed.
   */
  add(podInfo: PodInfo, info?: NominatingInfo): void {
    this.delete(podInfo.pod);
    let node: string;
    if (info?.mode === "Override") node = info.nominatedNodeName;
    else node = podInfo.pod.status?.nominatedNodeName ?? "";
    if (node === "" || this.#isAssigned(podInfo.pod)) return;
    this.#nodeOf.set(podInfo.uid, node);
    const list = this.#byNode.get(node) ?? [];
    list.push(podInfo);
    this.#byNode.set(node, list);
  }

  delete(pod: DeepReadonly<Pod>): void {
    const uid = pod.metadata.uid ?? "";
    const node = this.#nodeOf.get(uid);
    if (node === undefined) return;
    this.#nodeOf.delete(uid);
    const list = (this.#byNode.get(node) ?? []).filter((p) => p.uid !== uid);
    if (list.length === 0) this.#byNode.delete(node);
    else this.#byNode.set(node, list);
  }

  /**
   * Replaces the pod after an update. An update that neither had nor has a nominated node keeps
   * the in-memory nomination (the API may not have caught up with a fresh preemption yet).
   */
  update(oldPod: DeepReadonly<Pod>, newPodInfo: PodInfo): void {
    let info: NominatingInfo | undefined;
    const oldNominated = oldPod.status?.nominatedNodeName ?? "";
    const newNominated = newPodInfo.pod.status?.nominatedNodeName ?? "";
    if (oldNominated === "" && newNominated === "") {
      const kept = this.#nodeOf.get(oldPod.metadata.uid ?? "");
      if (kept !== undefined) info = { nominatedNodeName: kept, mode: "Override" };
    }
    this.delete(oldPod);
    this.add(newPodInfo, info);
  }

  /** Whether no pod is nominated anywhere. */
  get isEmpty(): boolean {
    return this.#nodeOf.size === 0;
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.#byNode.get(nodeName) ?? noPods;
  }

  /** The node the pod is nominated to, if any. */
  nominatedNodeOf(uid: string): string | undefined {
    return this.#nodeOf.get(uid);
  }
}

const noPods: readonly PodInfo[] = Object.freeze([]);
