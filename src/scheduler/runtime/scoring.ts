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

/**
 * Each plugin scores every node, normalizes, must land in [0, 100], and is weighted; returns the
 * total per node in `nodes` order. Plugins whose PreScore skipped are left out.
 */
export function runScorePlugins(
  plugins: readonly Weighted[],
  state: CycleState,
  pod: DeepReadonly<Pod>,
  nodes: readonly NodeInfo[],
): { status: Status; totals: number[] } {
  const totals = new Array<number>(nodes.length).fill(0);
  for (const { plugin, weight } of plugins) {
    if (state.skipScorePlugins.has(plugin.name)) continue;
    const scores: NodeScore[] = new Array(nodes.length);
    try {
      for (let i = 0; i < nodes.length; i++) {
        const nodeInfo = nodes[i] as NodeInfo;
        scores[i] = { name: nodeInfo.name, score: plugin.score(state, pod, nodeInfo) };
      }
      if (plugin.normalizeScore !== undefined) {
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
    for (let i = 0; i < scores.length; i++) {
      const s = (scores[i] as NodeScore).score;
      if (s > maxNodeScore || s < minNodeScore) {
        const error = new Error(
          `plugin "${plugin.name}" returns an invalid score ${s}, it should in the range of [${minNodeScore}, ${maxNodeScore}] after normalizing`,
        );
        return { status: withPlugin(asStatus(error), plugin.name), totals };
      }
      totals[i] = (totals[i] ?? 0) + s * weight;
    }
  }
  return { status: success, totals };
}
