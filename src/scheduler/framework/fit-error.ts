/**
 * Why a pod fits nowhere (upstream's `NodeToStatus`, `Diagnosis`, `FitError`): the status each
 * node got, which plugins rejected the pod (the queue uses them to pick queueing hints), and the
 * messages of PreFilter and PostFilter. `FitError`'s message is the text users read in the
 * PodScheduled condition and the FailedScheduling event:
 * `0/3 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 Insufficient cpu. preemption: …`
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { NodeInfo } from "./node-info.ts";
import { type Code, isRejected, type Status, unresolvable } from "./status.ts";

/** Read access to the per-node statuses of a failed attempt, for PostFilter plugins. */
export interface NodeToStatusReader {
  /** The node's status: its own, or the status of nodes that were never evaluated. */
  get(nodeName: string): Status;
  /** The nodes among `nodes` whose status has `code` (absent nodes count with the absent status). */
  nodesForStatusCode(nodes: readonly NodeInfo[], code: Code): NodeInfo[];
}

export class NodeToStatus implements NodeToStatusReader {
  readonly #statuses = new Map<string, Status>();
  /** What nodes without an entry get: by default UnschedulableAndUnresolvable, no reason. */
  #absent: Status = unresolvable();

  get(nodeName: string): Status {
    return this.#statuses.get(nodeName) ?? this.#absent;
  }

  set(nodeName: string, status: Status): void {
    this.#statuses.set(nodeName, status);
  }

  get size(): number {
    return this.#statuses.size;
  }

  absentNodesStatus(): Status {
    return this.#absent;
  }

  setAbsentNodesStatus(status: Status): void {
    this.#absent = status;
  }

  forEachExplicitNode(fn: (nodeName: string, status: Status) => void): void {
    for (const [name, status] of this.#statuses) fn(name, status);
  }

  nodesForStatusCode(nodes: readonly NodeInfo[], code: Code): NodeInfo[] {
    const out: NodeInfo[] = [];
    const absentMatches = this.#absent.code === code;
    for (const nodeInfo of nodes) {
      const status = this.#statuses.get(nodeInfo.name);
      if (status === undefined ? absentMatches : status.code === code) out.push(nodeInfo);
    }
    return out;
  }
}

/** What went wrong in one attempt. */
export class Diagnosis {
  readonly nodeToStatus = new NodeToStatus();
  /** Plugins that returned Unschedulable or UnschedulableAndUnresolvable. */
  readonly unschedulablePlugins = new Set<string>();
  /** Plugins that returned Pending. */
  readonly pendingPlugins = new Set<string>();
  /** The message of a PreFilter rejection ("" when PreFilter passed). */
  preFilterMsg = "";
  /** The message of PostFilter (preemption), appended after the filter reasons. */
  postFilterMsg = "";

  /** Records the plugin behind a rejection (upstream's `AddPluginStatus`). */
  addPluginStatus(status: Status): void {
    if (status.plugin === "") return;
    if (isRejected(status)) this.unschedulablePlugins.add(status.plugin);
    if (status.code === "Pending") this.pendingPlugins.add(status.plugin);
  }
}

/** `0/%v nodes are available`, upstream's `NoNodeAvailableMsg`. */
export function noNodeAvailableMessage(numAllNodes: number): string {
  return `0/${numAllNodes} nodes are available`;
}

/**
 * The text of a FitError: `0/N nodes are available:`, then the PreFilter message or the sorted
 * histogram of node reasons (`"<count> <reason>"`, sorted as strings, joined with ", ", ended
 * with "."), then the PostFilter message. Nodes without an entry contribute the absent status's
 * reasons, once per missing node.
 */
export function fitErrorMessage(numAllNodes: number, diagnosis: Diagnosis): string {
  let message = `${noNodeAvailableMessage(numAllNodes)}:`;
  if (diagnosis.preFilterMsg !== "") {
    message += ` ${diagnosis.preFilterMsg}.`;
  } else {
    const counts = new Map<string, number>();
    const statuses = diagnosis.nodeToStatus;
    statuses.forEachExplicitNode((_, status) => {
      for (const reason of status.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
    });
    if (statuses.size < numAllNodes) {
      const missing = numAllNodes - statuses.size;
      for (const reason of statuses.absentNodesStatus().reasons) {
        counts.set(reason, (counts.get(reason) ?? 0) + missing);
      }
    }
    const histogram = [...counts].map(([reason, count]) => `${count} ${reason}`);
    histogram.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (histogram.length > 0) message += ` ${histogram.join(", ")}.`;
  }
  if (diagnosis.postFilterMsg !== "") message += ` ${diagnosis.postFilterMsg}`;
  return message;
}

/**
 * The pod fits no node. Build it once the diagnosis is final (after PostFilter): the message is
 * computed at construction.
 */
export class FitError extends Error {
  readonly pod: DeepReadonly<Pod>;
  readonly numAllNodes: number;
  readonly diagnosis: Diagnosis;

  constructor(pod: DeepReadonly<Pod>, numAllNodes: number, diagnosis: Diagnosis) {
    super(fitErrorMessage(numAllNodes, diagnosis));
    this.name = "FitError";
    this.pod = pod;
    this.numAllNodes = numAllNodes;
    this.diagnosis = diagnosis;
  }
}

/** The FitError a rejection carries (its diagnosis travels as `error`), if any. */
export function fitErrorOf(status: Status): FitError | undefined {
  return status.error instanceof FitError ? status.error : undefined;
}
