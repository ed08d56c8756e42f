// The scheduler cache and its per-cycle snapshot.
export { SchedulerCache } from "./cache.ts";
export { Snapshot } from "./snapshot.ts";
