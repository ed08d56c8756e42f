/**
 * The nodes as one scheduling cycle sees them (upstream's `Snapshot`): copies of the cache's
 * NodeInfos, refreshed incrementally before each cycle so the cost is proportional to what changed,
 * not to the cluster size. Plugins may read it freely; nothing mutates it during a cycle.
 */
import type { NodeInfo, NodeInfoLister } from "../framework/index.ts";

export class Snapshot implements NodeInfoLister {
  /** name → copy. */
  readonly nodeInfos = new Map<string, NodeInfo>();
  nodeInfoList: NodeInfo[] = [];
  havePodsWithAffinity: NodeInfo[] = [];
  havePodsWithRequiredAntiAffinity: NodeInfo[] = [];
  /** name → position in `nodeInfoList`. */
  readonly listIndex = new Map<string, number>();

  /** A snapshot of fixed node infos (for tests and tools). */
  static of(nodeInfos: readonly NodeInfo[]): Snapshot {
    const snapshot = new Snapshot();
    for (const info of nodeInfos) snapshot.nodeInfos.set(info.name, info);
    snapshot.rebuildLists();
    return snapshot;
  }

  list(): readonly NodeInfo[] {
    return this.nodeInfoList;
  }

  get(nodeName: string): NodeInfo | undefined {
    return this.nodeInfos.get(nodeName);
  }

  havePodsWithAffinityList(): readonly NodeInfo[] {
    return this.havePodsWithAffinity;
  }

  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    return this.havePodsWithRequiredAntiAffinity;
  }

  get numNodes(): number {
    return this.nodeInfoList.length;
  }

  /** Recomputes the lists from `nodeInfos` (insertion order). */
  rebuildLists(): void {
    const list: NodeInfo[] = [];
    const affinity: NodeInfo[] = [];
    const anti: NodeInfo[] = [];
    this.listIndex.clear();
    for (const [name, info] of this.nodeInfos) {
      this.listIndex.set(name, list.length);
      list.push(info);
      if (info.podsWithAffinity.length > 0) affinity.push(info);
      if (info.podsWithRequiredAntiAffinity.length > 0) anti.push(info);
    }
    this.nodeInfoList = list;
    this.havePodsWithAffinity = affinity;
    this.havePodsWithRequiredAntiAffinity = anti;
  }
}
