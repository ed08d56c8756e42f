/** Score and its helpers (upstream's `RunScorePlugins`): normalization, range check, weights. */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  asStatus,
  type CycleState,
  isSuccess,
  maxNodeScore,
  minNodeScore,
  type NodeInfo,
  type NodeScore,
  type ScorePlugin,
  type Status,
  statusMessage,
  success,
  withPlugin,
} from "../framework/index.ts";
import type { ScoreReuse } from "./batch-memo.ts";

/** A score plugin with its profile weight. */
export interface Weighted {
  readonly plugin: ScorePlugin;
  readonly weight: number;
}

/** An Error status `"<prefix>: <message>"` attributed to `plugin`, keeping the cause. */
export function failure(prefix: string, status: Status, plugin: string): Status {
  const error = new Error(`${prefix}: ${statusMessage(status)}`, { cause: status.error });
  return withPlugin(asStatus(error), plugin);
}

/** A node's score while normalizing; reused from call to call (see `ScoreScratch`). */
interface MutableNodeScore {
  name: string;
  score: number;
}

/**
 * Buffers `runScorePlugins` reuses from one call to the next, so scoring hundreds of nodes for
 * every pod does not feed the young generation (a scavenge in a 5,000-node process costs
 * milliseconds). One per framework; calls must not overlap (they are synchronous).
 */
export class ScoreScratch {
  raw = new Float64Array(0);
  readonly #pool: MutableNodeScore[] = [];
  readonly #view: MutableNodeScore[] = [];

  /** Room for `size` raw scores. */
  rawFor(size: number): Float64Array {
    if (this.raw.length < size) this.raw = new Float64Array(Math.max(size, this.raw.length * 2));
    return this.raw;
  }

  /** A list of `nodes.length` NodeScores with the nodes' names and the given scores. */
  nodeScores(nodes: readonly NodeInfo[], raw: Float64Array, base: number): NodeScore[] {
    const pool = this.#pool;
    const view = this.#view;
    view.length = nodes.length;
    for (let i = 0; i < nodes.length; i++) {
      let entry = pool[i];
      if (entry === undefined) {
        entry = { name: "", score: 0 };
        pool.push(entry);
      }
      entry.name = (nodes[i] as NodeInfo).name;
      entry.score = raw[base + i] as number;
      view[i] = entry;
    }
    return view;
  }
}

/**
 * Each plugin scores every node, normalizes, must land in [0, 100], and is weighted; returns the
 * total per node in `nodes` order. Plugins whose PreScore skipped are left out. With `reuse`, a
 * node's raw scores come from an earlier pod of the same signature when the node has not changed
 * since, and are kept for later ones otherwise; normalization always sees every node.
 */
export function runScorePlugins(
  plugins: readonly Weighted[],
  state: CycleState,
  pod: DeepReadonly<Pod>,
  nodes: readonly NodeInfo[],
  scratch: ScoreScratch = new ScoreScratch(),
  reuse?: ScoreReuse,
): { status: Status; totals: number[] } {
  const n = nodes.length;
  const totals = new Array<number>(n).fill(0);
  const active =
    state.skipScorePlugins.size === 0
      ? plugins
      : plugins.filter((p) => !state.skipScorePlugins.has(p.plugin.name));
  const m = active.length;
  if (m === 0) return { status: success, totals };
  // raw[j * n + i]: plugin j's score of node i. With a memo, only the nodes in `todo` are scored.
  const raw = scratch.rawFor(m * n);
  let todo: number[] | undefined;
  if (reuse !== undefined) {
    const { memo, positions } = reuse;
    memo.beginScore(state, m);
    todo = [];
    for (let i = 0; i < n; i++) {
      if (!memo.readScores(positions[i] as number, nodes[i] as NodeInfo, raw, i, n)) todo.push(i);
    }
  }
  for (let j = 0; j < m; j++) {
    const { plugin, weight } = active[j] as Weighted;
    const base = j * n;
    let scores: NodeScore[] | undefined;
    try {
      if (todo === undefined) {
        for (let i = 0; i < n; i++) raw[base + i] = plugin.score(state, pod, nodes[i] as NodeInfo);
      } else {
        for (const i of todo) raw[base + i] = plugin.score(state, pod, nodes[i] as NodeInfo);
      }
      if (plugin.normalizeScore !== undefined) {
        scores = scratch.nodeScores(nodes, raw, base);
        const status = plugin.normalizeScore(state, pod, scores);
        if (!isSuccess(status)) {
          const prefix = `running Normalize on Score plugin "${plugin.name}"`;
          return { status: failure(prefix, status, plugin.name), totals };
        }
      }
    } catch (error: unknown) {
      const prefix = `running Score plugin "${plugin.name}"`;
      return { status: failure(prefix, asStatus(error), plugin.name), totals };
    }
    for (let i = 0; i < n; i++) {
      const s = scores === undefined ? (raw[base + i] as number) : (scores[i] as NodeScore).score;
      if (s > maxNodeScore || s < minNodeScore) {
        const error = new Error(
          `plugin "${plugin.name}" returns an invalid score ${s}, it should in the range of [${minNodeScore}, ${maxNodeScore}] after normalizing`,
        );
        return { status: withPlugin(asStatus(error), plugin.name), totals };
      }
      totals[i] = (totals[i] as number) + s * weight;
    }
  }
  if (reuse !== undefined && todo !== undefined) {
    const { memo, positions } = reuse;
    for (const i of todo)
      memo.recordScores(positions[i] as number, nodes[i] as NodeInfo, raw, i, n);
  }
  return { status: success, totals };
}
