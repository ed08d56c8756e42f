/**
 * Indexed Jobs (upstream's indexed_job_utils.go): completion indexes of pods, the
 * `status.completedIndexes` interval notation ("1,3-5"), which indexes to start next, and which
 * active pods hold a duplicate or invalid index. Pure.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** `batch.JobCompletionIndexAnnotation`, also the pod label (PodIndexLabel, GA in 1.32). */
export const completionIndexKey = "batch.kubernetes.io/job-completion-index";
/** The env var every container of an Indexed Job's pods gets. */
export const completionIndexEnv = "JOB_COMPLETION_INDEX";
/** `unknownCompletionIndex`. */
export const unknownIndex = -1;

/** `getCompletionIndex`: the annotation as a non-negative integer, else -1. */
export function completionIndexOf(pod: DeepReadonly<Pod>): number {
  const value = pod.metadata.annotations?.[completionIndexKey];
  if (value === undefined || !/^\+?[0-9]+$/.test(value)) return unknownIndex;
  const index = Number(value);
  return Number.isSafeInteger(index) ? index : unknownIndex;
}

/** A sorted list of disjoint inclusive intervals of indexes (`orderedIntervals`). */
export type Intervals = readonly (readonly [number, number])[];

/** The number of indexes the intervals hold. */
export function totalOf(intervals: Intervals): number {
  let total = 0;
  for (const [first, last] of intervals) total += last - first + 1;
  return total;
}

/** Whether `index` is in the intervals. */
export function hasIndex(intervals: Intervals, index: number): boolean {
  return intervals.some(([first, last]) => first <= index && index <= last);
}

/** The intervals with `indexes` added (merged and sorted). */
export function withIndexes(intervals: Intervals, indexes: readonly number[]): Intervals {
  const all = new Set<number>(indexes);
  for (const [first, last] of intervals) for (let i = first; i <= last; i++) all.add(i);
  const sorted = [...all].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const index of sorted) {
    const tail = out[out.length - 1];
    if (tail !== undefined && tail[1] + 1 === index) tail[1] = index;
    else out.push([index, index]);
  }
  return out;
}

/** `orderedIntervals.String`: "0,2-4". */
export function formatIndexes(intervals: Intervals): string {
  return intervals
    .map(([first, last]) => (first === last ? `${first}` : `${first}-${last}`))
    .join(",");
}

/**
 * `parseIndexesFromString`: the intervals of "1,3-5", keeping only indexes below `completions`;
 * malformed parts are skipped.
 */
export function parseIndexes(text: string | undefined, completions: number): Intervals {
  const indexes: number[] = [];
  for (const part of (text ?? "").split(",")) {
    const match = /^([0-9]+)(?:-([0-9]+))?$/.exec(part.trim());
    if (match === null) continue;
    const first = Number(match[1]);
    const last = Math.min(match[2] === undefined ? first : Number(match[2]), completions - 1);
    for (let i = first; i <= last; i++) indexes.push(i);
  }
  return withIndexes([], indexes);
}

/**
 * `firstPendingIndexes`: up to `count` of the lowest indexes below `completions` that neither
 * succeeded nor have an active pod.
 */
export function firstPendingIndexes(
  activePods: readonly DeepReadonly<Pod>[],
  succeeded: Intervals,
  count: number,
  completions: number,
): number[] {
  const taken = new Set(activePods.map(completionIndexOf));
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) {
    if (!taken.has(i) && !hasIndex(succeeded, i)) out.push(i);
  }
  return out;
}

/**
 * `appendDuplicatedIndexPodsForRemoval`: active pods without a valid index or with an index at
 * or above `completions` go, and of pods sharing an index all but one go (`extras` picks which
 * of a group to remove). Returns the pods to remove and those left.
 */
export function duplicatedIndexPods(
  pods: readonly DeepReadonly<Pod>[],
  completions: number,
  extras: (group: readonly DeepReadonly<Pod>[]) => DeepReadonly<Pod>[],
): { remove: DeepReadonly<Pod>[]; left: DeepReadonly<Pod>[] } {
  const remove: DeepReadonly<Pod>[] = [];
  const left: DeepReadonly<Pod>[] = [];
  const byIndex = new Map<number, DeepReadonly<Pod>[]>();
  for (const pod of pods) {
    const index = completionIndexOf(pod);
    if (index === unknownIndex || index >= completions) {
      remove.push(pod);
      continue;
    }
    byIndex.set(index, [...(byIndex.get(index) ?? []), pod]);
  }
  for (const index of [...byIndex.keys()].sort((a, b) => a - b)) {
    const group = byIndex.get(index) ?? [];
    const extra = group.length > 1 ? extras(group) : [];
    remove.push(...extra);
    left.push(...group.filter((p) => !extra.includes(p)));
  }
  return { remove, left };
}

/** Generated names are at most 63 characters once the API server adds 5 random ones. */
const maxGeneratedNameLength = 58;

/** `podGenerateNameWithIndex`: `<job>-<index>-`, the job name cut to fit. */
export function generateNameWithIndex(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = `${jobName}${suffix}`;
  if (prefix.length <= maxGeneratedNameLength) return prefix;
  return `${prefix.slice(0, maxGeneratedNameLength - suffix.length)}${suffix}`;
}
