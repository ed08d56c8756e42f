/** Which finished Jobs a CronJob's history limits remove first. */
import type { Job } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/**
 * Upstream's `byJobStartTime`: by `status.startTime`, oldest first, Jobs that never started
 * last, and by name among equal start times. `removeOldestJobs` deletes from the front.
 */
export function orderByStartTime<T extends DeepReadonly<Job>>(jobs: readonly T[]): T[] {
  const startOf = (job: T): number => {
    const start = Date.parse(job.status?.startTime ?? "");
    return Number.isNaN(start) ? Number.POSITIVE_INFINITY : start;
  };
  return [...jobs].sort((a, b) => {
    const byStart = startOf(a) - startOf(b);
    if (byStart !== 0 && !Number.isNaN(byStart)) return byStart;
    return (a.metadata.name ?? "") < (b.metadata.name ?? "")
      ? -1
      : (a.metadata.name ?? "") > (b.metadata.name ?? "")
        ? 1
        : 0;
  });
}
