// Runs a profile's plugins at each extension point.
export { BatchMemo, type MemoSigner, type ScoreReuse, startMemo } from "./batch-memo.ts";
export type { PreFilterOutcome } from "./filtering-points.ts";
export { Framework, type FrameworkDeps } from "./framework.ts";
export { WaitingPodImpl, WaitingPods } from "./waiting-pods.ts";
