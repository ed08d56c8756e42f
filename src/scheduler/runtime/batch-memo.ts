/**
 * Filter and Score answers kept across the members of one group cycle, and from one single-pod
 * cycle to the next (gantry's form of upstream's opportunistic batching, KEP-5598; see
 * `podCycleMemo` in schedule-one.ts for what single-pod cycles add). Pods with the same signature
 * (see `Framework.signPod`) get the same Filter status and raw Score on a node in the same state,
 * so a pod reuses what an earlier one computed for every node that has not changed since, and
 * evaluates only the others.
 *
 * Answers are kept by position in the snapshot's node list, with the NodeInfo they were computed
 * on. "Not changed" is object identity: the snapshot never mutates a NodeInfo in place, it swaps
 * in a fresh copy when the node or its pods change (a member assumed there, a victim removed), so
 * a changed node no longer matches what was kept for its position. Normalization, weights, the
 * choice among ties and where the next filter pass starts are worked out afresh for every member
 * from these raw answers, so a member lands exactly where the plain path would put it.
 *
 * Answers are also tied to the plugins PreFilter and PreScore skipped: members whose cycles
 * skipped different plugins never share them. Dropping everything is O(1) (an epoch bump), and
 * the arrays are reused from one group cycle to the next: a lookup touches contiguous memory,
 * not the node's object graph.
 */
import {
  type CycleState,
  type NodeInfo,
  type PodInfo,
  type PodSignature,
  type Status,
  sameSignature,
} from "../framework/index.ts";

/** What `startMemo` asks of the framework. */
export interface MemoSigner {
  hasNominatedPods(): boolean;
  signPod(podInfo: PodInfo): PodSignature | undefined;
}

/**
 * Starts `memo` for the pod about to be evaluated, or returns undefined when it must be evaluated
 * in full: a pod is nominated somewhere (Filter then depends on priorities; the memo is dropped),
 * the pod has a nominated node of its own (tried first, as the plain path does), it cannot be
 * signed, or there is nothing to reuse and, with `keep` false, nothing worth keeping.
 */
export function startMemo(
  memo: BatchMemo,
  fw: MemoSigner,
  podInfo: PodInfo,
  keep: boolean,
): BatchMemo | undefined {
  if (fw.hasNominatedPods()) {
    memo.clear();
    return undefined;
  }
  if ((podInfo.pod.status?.nominatedNodeName ?? "") !== "") return undefined;
  if (!keep && memo.signature === undefined) return undefined;
  const signature = fw.signPod(podInfo);
  if (signature === undefined) return undefined;
  return memo.startPod(signature, keep) ? memo : undefined;
}

/** Whether two sets of plugin names are equal. */
function sameNames(a: ReadonlySet<string> | undefined, b: ReadonlySet<string>): boolean {
  if (a === undefined || a.size !== b.size) return false;
  for (const name of b) if (!a.has(name)) return false;
  return true;
}

/** Where each node of a list sits in the snapshot's node list, for `runScorePlugins`. */
export interface ScoreReuse {
  readonly memo: BatchMemo;
  readonly positions: readonly number[];
}

export class BatchMemo {
  #signature: PodSignature | undefined;
  /** Whether answers computed now are kept (`startPod`'s `keep`). */
  #keeping = true;
  #filterSkips: ReadonlySet<string> | undefined;
  #scoreSkips: ReadonlySet<string> | undefined;
  /** Entries written in another epoch hold nothing. */
  #epoch = 1;
  #scoreEpoch = 1;
  // Per position in the snapshot's node list:
  #filterNodes: (NodeInfo | undefined)[] = [];
  #filterEpochs = new Int32Array(0);
  #statuses: (Status | undefined)[] = [];
  #scoreNodes: (NodeInfo | undefined)[] = [];
  #scoreEpochs = new Int32Array(0);
  /** Raw scores of the Score plugins that ran: `#scores[position * #width + plugin]`. */
  #scores = new Float64Array(0);
  #width = 0;
  /** Nodes whose Filter answer was reused, and computed, since the memo was made. */
  hits = 0;
  misses = 0;

  /** The signature the kept answers are for; undefined when nothing is kept. */
  get signature(): PodSignature | undefined {
    return this.#signature;
  }

  /**
   * Evaluates a pod with `signature` next: answers kept for another signature are dropped. With
   * `keep` false, kept answers are read but new ones are not written. Returns whether the memo
   * has anything to offer this pod (false: evaluate it without the memo).
   */
  startPod(signature: PodSignature, keep = true): boolean {
    this.#keeping = keep;
    if (this.#signature !== undefined && sameSignature(this.#signature, signature)) return true;
    this.clear();
    if (!keep) return false;
    this.#signature = signature;
    return true;
  }

  /**
   * After PreFilter, for a snapshot of `size` nodes: keeps the answers if the pod's cycle skips
   * the same Filter plugins.
   */
  beginFilter(state: CycleState, size: number): void {
    if (this.#signature === undefined) {
      throw new TypeError("Cannot reuse Filter answers: no signed pod was started");
    }
    if (this.#filterEpochs.length < size) this.#grow(size);
    if (sameNames(this.#filterSkips, state.skipFilterPlugins)) return;
    this.#epoch++;
    this.#scoreEpoch++;
    this.#filterSkips = new Set(state.skipFilterPlugins);
    this.#scoreSkips = undefined;
  }

  /** After PreScore: keeps the raw scores if the same `width` Score plugins run. */
  beginScore(state: CycleState, width: number): void {
    if (width === this.#width && sameNames(this.#scoreSkips, state.skipScorePlugins)) return;
    this.#scoreEpoch++;
    this.#scoreSkips = new Set(state.skipScorePlugins);
    if (width !== this.#width) {
      this.#width = width;
      this.#scores = new Float64Array(this.#filterEpochs.length * width);
    }
  }

  #grow(size: number): void {
    const epochs = new Int32Array(size);
    epochs.set(this.#filterEpochs);
    this.#filterEpochs = epochs;
    const scoreEpochs = new Int32Array(size);
    scoreEpochs.set(this.#scoreEpochs);
    this.#scoreEpochs = scoreEpochs;
    const scores = new Float64Array(size * this.#width);
    scores.set(this.#scores);
    this.#scores = scores;
    this.#filterNodes.length = size;
    this.#statuses.length = size;
    this.#scoreNodes.length = size;
  }

  /** The Filter answer kept for `nodeInfo` at `position`, if any. */
  filterStatus(position: number, nodeInfo: NodeInfo): Status | undefined {
    if (this.#filterNodes[position] === nodeInfo && this.#filterEpochs[position] === this.#epoch) {
      this.hits++;
      return this.#statuses[position];
    }
    this.misses++;
    return undefined;
  }

  /** Keeps a Filter answer (Success or a rejection; errors end the attempt and are not kept). */
  recordFilter(position: number, nodeInfo: NodeInfo, status: Status): void {
    if (!this.#keeping) return;
    this.#filterNodes[position] = nodeInfo;
    this.#filterEpochs[position] = this.#epoch;
    this.#statuses[position] = status;
  }

  /**
   * Copies the raw scores kept for `nodeInfo` at `position` to `raw[at + j * stride]`; false
   * when there are none.
   */
  readScores(
    position: number,
    nodeInfo: NodeInfo,
    raw: Float64Array,
    at: number,
    stride: number,
  ): boolean {
    if (
      this.#scoreNodes[position] !== nodeInfo ||
      this.#scoreEpochs[position] !== this.#scoreEpoch
    ) {
      return false;
    }
    const width = this.#width;
    const from = position * width;
    for (let j = 0; j < width; j++) raw[at + j * stride] = this.#scores[from + j] as number;
    return true;
  }

  /** Keeps the raw scores `raw[at + j * stride]` computed for `nodeInfo` at `position`. */
  recordScores(
    position: number,
    nodeInfo: NodeInfo,
    raw: Float64Array,
    at: number,
    stride: number,
  ): void {
    if (!this.#keeping) return;
    const width = this.#width;
    const to = position * width;
    for (let j = 0; j < width; j++) this.#scores[to + j] = raw[at + j * stride] as number;
    this.#scoreNodes[position] = nodeInfo;
    this.#scoreEpochs[position] = this.#scoreEpoch;
  }

  /** Forgets everything: something changed that node identity does not show. */
  clear(): void {
    this.#signature = undefined;
    this.#filterSkips = undefined;
    this.#scoreSkips = undefined;
    this.#epoch++;
    this.#scoreEpoch++;
  }
}
