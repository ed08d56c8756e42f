/** Score helpers shared by plugins (upstream's `plugins/helper`). */
import { maxNodeScore, type NodeScore, type Status, success } from "../../framework/index.ts";

/**
 * Scales scores into [0, `max`] relative to the highest one (upstream's `DefaultNormalizeScore`).
 * With `reverse`, fewer is better: the scaled score is subtracted from `max`. When every score is
 * 0, all nodes get `max` if reversed and stay 0 otherwise.
 */
export function defaultNormalizeScore(
  scores: NodeScore[],
  reverse: boolean,
  max: number = maxNodeScore,
): Status {
  let highest = 0;
  for (const s of scores) if (s.score > highest) highest = s.score;
  if (highest === 0) {
    if (reverse) for (const s of scores) s.score = max;
    return success;
  }
  for (const s of scores) {
    const scaled = Math.trunc((max * s.score) / highest);
    s.score = reverse ? max - scaled : scaled;
  }
  return success;
}
