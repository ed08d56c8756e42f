/**
 * The TTL-after-finished controller: deletes a finished Job (Complete or Failed)
 * `spec.ttlSecondsAfterFinished` seconds after it finished, in the foreground so its pods go
 * first. Upstream's pkg/controller/ttlafterfinished.
 */
import type { Job } from "../../api/index.ts";
import {
  type Client,
  type InformerFactory,
  isNotFound,
  jobsResource,
  keyOf,
} from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  type ReconcileResult,
  requeueAfter,
  splitKey,
} from "../framework/index.ts";
import { isJobFinished } from "./job-state.ts";

export interface TtlAfterFinishedControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface TtlAfterFinishedControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-ttl-after-finished-syncs). @default 5 */
  readonly workers?: number;
}

/**
 * When a finished Job with a TTL expires (epoch ms): the finish time is the transition time of
 * its Complete or Failed condition. `undefined` for Jobs without a TTL or not finished.
 */
export function ttlExpiresAt(job: DeepReadonly<Job>): number | undefined {
  const ttl = job.spec.ttlSecondsAfterFinished;
  if (ttl === undefined || job.metadata.deletionTimestamp !== undefined || !isJobFinished(job)) {
    return undefined;
  }
  const condition = (job.status?.conditions ?? []).find(
    (c) => (c.type === "Complete" || c.type === "Failed") && c.status === "True",
  );
  const finishedAt = Date.parse(condition?.lastTransitionTime ?? "");
  if (Number.isNaN(finishedAt)) return undefined;
  return finishedAt + ttl * 1000;
}

export function newTtlAfterFinishedController(
  deps: TtlAfterFinishedControllerDeps,
  options: TtlAfterFinishedControllerOptions = {},
): Controller {
  const jobs = deps.informers.forResource<Job>(jobsResource);

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const { namespace, name } = splitKey(key);
    const cached = jobs.lister.get(namespace, name);
    if (cached === undefined) return done;
    const at = ttlExpiresAt(cached);
    if (at === undefined) return done;
    const left = at - deps.clock.now().getTime();
    if (left > 0) return requeueAfter(left);
    // The TTL may have changed since the cache saw the Job: decide on a fresh read.
    let fresh: Job;
    try {
      fresh = await deps.client.get<Job>(jobsResource, namespace, name);
    } catch (error: unknown) {
      if (isNotFound(error)) return done;
      throw error;
    }
    const freshAt = ttlExpiresAt(fresh);
    if (freshAt === undefined) return done;
    if (freshAt > deps.clock.now().getTime())
      return requeueAfter(freshAt - deps.clock.now().getTime());
    try {
      await deps.client.delete(jobsResource, namespace, name, {
        propagationPolicy: "Foreground",
        preconditions: { resourceVersion: fresh.metadata.resourceVersion ?? "" },
      });
    } catch (error: unknown) {
      if (!isNotFound(error)) throw error;
    }
    return done;
  };

  return defineController<Job>({
    name: "ttl-after-finished",
    primary: jobs,
    primaryToKeys: (event) =>
      event.type !== "delete" && ttlExpiresAt(event.object) !== undefined
        ? [keyOf(event.object)]
        : [],
    reconcile,
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
}
