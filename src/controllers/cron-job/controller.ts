/**
 * The CronJob controller: creates a Job from a CronJob's template at each scheduled time, keeps
 * `status.active`, `lastScheduleTime` and `lastSuccessfulTime`, applies the concurrency policy,
 * and deletes the oldest finished Jobs beyond the history limits. Upstream's
 * pkg/controller/cronjob (`ControllerV2`), whose `sync`, `syncCronJob` and `cleanupFinishedJobs`
 * the functions below follow, with its events and messages.
 */
import {
  type CronJob,
  type CronSchedule,
  type Job,
  loadLocationError,
  mostRecentScheduleTime,
  nextScheduleTime,
  type ObjectReference,
  parseCronSchedule,
} from "../../api/index.ts";
import {
  type Client,
  cronJobsResource,
  type EventRecorder,
  type InformerFactory,
  isAlreadyExists,
  isNotFound,
  jobsResource,
  referenceTo,
} from "../../client/index.ts";
import {
  type Clock,
  type DeepReadonly,
  deepCopy,
  errorMessage,
  type Logger,
  rfc3339,
} from "../../util/index.ts";
import {
  type Controller,
  controllerRefOf,
  defineController,
  done,
  isControlledBy,
  type ReconcileResult,
  requeueAfter,
  splitKey,
  watch,
} from "../framework/index.ts";
import { finishedCondition } from "../job/index.ts";
import { orderByStartTime } from "./history.ts";
import { jobFromTemplate, jobNameFor, rfc1123z } from "./job-template.ts";

export interface CronJobControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
}

export interface CronJobControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-cron-job-syncs). @default 5 */
  readonly workers?: number;
}

/** Upstream's `nextScheduleDelta`: wake a little after the scheduled time, never before it. */
const nextScheduleDeltaMs = 100;

type CJ = DeepReadonly<CronJob>;
type J = DeepReadonly<Job>;

export function newCronJobController(
  deps: CronJobControllerDeps,
  options: CronJobControllerOptions = {},
): Controller {
  const cronJobs = deps.informers.forResource<CronJob>(cronJobsResource);
  const jobs = deps.informers.forResource<Job>(jobsResource);
  const record = (cronJob: CJ, type: "Normal" | "Warning", reason: string, message: string) =>
    deps.events.event(referenceTo(cronJob, cronJobsResource), type, reason, message);

  /** The Jobs of the namespace this CronJob controls (`getJobsToBeReconciled`). */
  const jobsOf = (cronJob: CJ): J[] =>
    jobs.lister
      .list(cronJob.metadata.namespace ?? "")
      .filter((job) => isControlledBy(job, cronJob));

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const { namespace, name } = splitKey(key);
    const cached = cronJobs.lister.get(namespace, name);
    if (cached === undefined) return done;
    const owned = jobsOf(cached);
    // One copy gathers every status change; it is written once at the end, as upstream does.
    const cronJob = deepCopy(cached) as CronJob;
    const before = JSON.stringify(cronJob.status ?? {});
    await cleanupFinishedJobs(cronJob, owned);
    let result: ReconcileResult = done;
    let failure: unknown;
    try {
      result = await syncCronJob(cronJob, owned);
    } catch (error: unknown) {
      failure = error;
    }
    if (JSON.stringify(cronJob.status ?? {}) !== before) {
      await deps.client.updateStatus<CronJob>(cronJobsResource, cronJob);
    }
    if (failure !== undefined && result === done) throw failure;
    return result;
  };

  /** `cleanupFinishedJobs`: the oldest finished Jobs beyond each history limit go. */
  const cleanupFinishedJobs = async (cronJob: CronJob, owned: readonly J[]): Promise<void> => {
    const succeeded = owned.filter((job) => finishedCondition(job) === "Complete");
    const failed = owned.filter((job) => finishedCondition(job) === "Failed");
    const limits: [readonly J[], number | undefined][] = [
      [succeeded, cronJob.spec.successfulJobsHistoryLimit],
      [failed, cronJob.spec.failedJobsHistoryLimit],
    ];
    for (const [finished, limit] of limits) {
      if (limit === undefined) continue;
      const excess = orderByStartTime(finished).slice(0, Math.max(0, finished.length - limit));
      for (const job of excess) await deleteJob(cronJob, job);
    }
  };

  /** `deleteJob`: the Job in the background (its pods follow), then its active reference. */
  const deleteJob = async (cronJob: CronJob, job: J): Promise<boolean> => {
    try {
      await deps.client.delete(jobsResource, job.metadata.namespace, job.metadata.name ?? "", {
        propagationPolicy: "Background",
      });
    } catch (error: unknown) {
      if (!isNotFound(error)) {
        record(cronJob, "Warning", "FailedDelete", `Deleted job: ${errorMessage(error)}`);
        return false;
      }
    }
    removeActive(cronJob, job.metadata.uid ?? "");
    record(cronJob, "Normal", "SuccessfulDelete", `Deleted job ${job.metadata.name}`);
    return true;
  };

  /** `syncCronJob`: reconciles `status.active`, then starts the Job due now, if any. */
  const syncCronJob = async (cronJob: CronJob, owned: readonly J[]): Promise<ReconcileResult> => {
    const now = deps.clock.now();
    await reconcileActive(cronJob, owned);
    if (cronJob.metadata.deletionTimestamp !== undefined) return done;
    const zone = cronJob.spec.timeZone;
    if (zone !== undefined) {
      const problem = loadLocationError(zone);
      if (problem !== undefined) {
        record(cronJob, "Warning", "UnknownTimeZone", `invalid timeZone: "${zone}": ${problem}`);
        return done;
      }
    }
    if (cronJob.spec.suspend === true) return done;
    let schedule: CronSchedule;
    try {
      schedule = parseCronSchedule(cronJob.spec.schedule);
    } catch (error: unknown) {
      record(
        cronJob,
        "Warning",
        "UnparseableSchedule",
        `unparseable schedule: "${cronJob.spec.schedule}" : ${errorMessage(error)}`,
      );
      return done;
    }
    const window = scheduleWindow(cronJob, now, schedule);
    if (window.error !== undefined) {
      record(
        cronJob,
        "Warning",
        "InvalidSchedule",
        `invalid schedule: ${cronJob.spec.schedule} : ${window.error}`,
      );
      return done;
    }
    const scheduled = window.mostRecent;
    const wakeUp = (): ReconcileResult => nextWakeUp(cronJob, now, schedule);
    if (scheduled === undefined || scheduled.getTime() > now.getTime()) return wakeUp();
    if (window.missed === "many") {
      record(
        cronJob,
        "Warning",
        "TooManyMissedTimes",
        "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew",
      );
    }
    const deadline = cronJob.spec.startingDeadlineSeconds;
    if (deadline !== undefined && scheduled.getTime() + deadline * 1000 < now.getTime()) {
      record(
        cronJob,
        "Warning",
        "MissSchedule",
        `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`,
      );
      return wakeUp();
    }
    const jobName = jobNameFor(cronJob.metadata.name ?? "", scheduled);
    const active = cronJob.status?.active ?? [];
    const lastSchedule = Date.parse(cronJob.status?.lastScheduleTime ?? "");
    if (active.some((ref) => ref.name === jobName) || lastSchedule === scheduled.getTime()) {
      return wakeUp();
    }
    if (cronJob.spec.concurrencyPolicy === "Forbid" && active.length > 0) {
      record(
        cronJob,
        "Normal",
        "JobAlreadyActive",
        "Not starting job because prior execution is running and concurrency policy is Forbid",
      );
      return wakeUp();
    }
    if (cronJob.spec.concurrencyPolicy === "Replace") {
      for (const ref of [...active]) {
        let job: Job;
        try {
          job = await deps.client.get<Job>(jobsResource, ref.namespace ?? "", ref.name ?? "");
        } catch (error: unknown) {
          record(cronJob, "Warning", "FailedGet", `Get job: ${errorMessage(error)}`);
          throw error;
        }
        if (!(await deleteJob(cronJob, job))) {
          throw new Error(`could not replace job ${job.metadata.namespace}/${job.metadata.name}`);
        }
      }
    }
    const created = await createJob(cronJob, jobFromTemplate(cronJob, scheduled, jobName));
    if (created === undefined) return done;
    cronJob.status ??= {};
    cronJob.status.active = [...(cronJob.status.active ?? []), jobReference(created)];
    cronJob.status.lastScheduleTime = rfc3339(scheduled);
    return wakeUp();
  };

  /**
   * The start of `syncCronJob`: finished Jobs leave `status.active` (SawCompletedJob), the
   * latest success sets `lastSuccessfulTime`, unfinished Jobs it does not list are reported
   * (UnexpectedJob), and listed Jobs that no longer exist leave it (MissingJob).
   */
  const reconcileActive = async (cronJob: CronJob, owned: readonly J[]): Promise<void> => {
    const children = new Set(owned.map((job) => job.metadata.uid ?? ""));
    for (const job of owned) {
      const uid = job.metadata.uid ?? "";
      const listed = isActive(cronJob, uid);
      const finished = finishedCondition(job);
      if (!listed && finished === undefined) {
        // The cache's CronJob may be older than the Job: ask the server before complaining.
        const fresh = await deps.client.get<CronJob>(
          cronJobsResource,
          cronJob.metadata.namespace ?? "",
          cronJob.metadata.name ?? "",
        );
        if (isActive(fresh, uid)) {
          cronJob.status = { ...(cronJob.status ?? {}), active: fresh.status?.active ?? [] };
          continue;
        }
        record(
          cronJob,
          "Warning",
          "UnexpectedJob",
          `Saw a job that the controller did not create or forgot: ${job.metadata.name}`,
        );
      } else if (listed && finished !== undefined) {
        removeActive(cronJob, uid);
        record(
          cronJob,
          "Normal",
          "SawCompletedJob",
          `Saw completed job: ${job.metadata.name}, condition: ${finished}`,
        );
      }
      if (finished === "Complete") {
        const completion = job.status?.completionTime;
        const last = cronJob.status?.lastSuccessfulTime;
        if (
          completion !== undefined &&
          (last === undefined || Date.parse(completion) > Date.parse(last))
        ) {
          cronJob.status = { ...(cronJob.status ?? {}), lastSuccessfulTime: completion };
        }
      }
    }
    for (const ref of [...(cronJob.status?.active ?? [])]) {
      if (children.has(ref.uid ?? "")) continue;
      // The Job cache may lag: only a 404 from the server means the Job is gone.
      try {
        await deps.client.get<Job>(jobsResource, ref.namespace ?? "", ref.name ?? "");
      } catch (error: unknown) {
        if (!isNotFound(error)) throw error;
        record(cronJob, "Normal", "MissingJob", `Active job went missing: ${ref.name}`);
        removeActive(cronJob, ref.uid ?? "");
      }
    }
  };

  /** Creates the Job; an existing one of the same name counts when this CronJob controls it. */
  const createJob = async (cronJob: CronJob, job: Job): Promise<Job | undefined> => {
    try {
      const created = await deps.client.create<Job>(jobsResource, job);
      record(cronJob, "Normal", "SuccessfulCreate", `Created job ${created.metadata.name}`);
      return created;
    } catch (error: unknown) {
      if (!isAlreadyExists(error)) {
        record(cronJob, "Warning", "FailedCreate", `Error creating job: ${errorMessage(error)}`);
        throw error;
      }
    }
    const existing = await deps.client.get<Job>(
      jobsResource,
      job.metadata.namespace ?? "",
      job.metadata.name ?? "",
    );
    if (!isControlledBy(existing, cronJob) || isActive(cronJob, existing.metadata.uid ?? "")) {
      return undefined;
    }
    return existing;
  };

  /** When to look again: just after the next activation (`nextScheduleTimeDuration`). */
  const nextWakeUp = (cronJob: CJ, now: Date, schedule: CronSchedule): ReconcileResult => {
    const next = nextScheduleTime({
      ...scheduleInput(cronJob, now, schedule),
      startingDeadlineSeconds: undefined,
    });
    if (next === undefined) return done;
    return requeueAfter(Math.max(0, next.getTime() + nextScheduleDeltaMs - now.getTime()));
  };

  /** `mostRecentScheduleTime` with the starting deadline, as `nextScheduleTime` asks it. */
  const scheduleWindow = (cronJob: CJ, now: Date, schedule: CronSchedule) =>
    mostRecentScheduleTime(scheduleInput(cronJob, now, schedule));

  return defineController<CronJob>({
    name: "cronjob",
    primary: cronJobs,
    secondary: [
      watch<Job>(jobs, (event) => {
        const ref = controllerRefOf(event.object);
        if (ref === undefined || ref.kind !== "CronJob" || ref.apiVersion !== "batch/v1") return [];
        return [`${event.object.metadata.namespace}/${ref.name}`];
      }),
    ],
    reconcile,
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
}

/** What the schedule functions need to know of a CronJob. */
function scheduleInput(cronJob: CJ, now: Date, schedule: CronSchedule) {
  const last = cronJob.status?.lastScheduleTime;
  return {
    creationTimestamp: new Date(cronJob.metadata.creationTimestamp ?? now.toISOString()),
    lastScheduleTime: last === undefined ? undefined : new Date(last),
    startingDeadlineSeconds: cronJob.spec.startingDeadlineSeconds,
    now,
    schedule,
    timeZone: cronJob.spec.timeZone,
  };
}

function isActive(cronJob: CJ, uid: string): boolean {
  return (cronJob.status?.active ?? []).some((ref) => ref.uid === uid);
}

function removeActive(cronJob: CronJob, uid: string): void {
  if (cronJob.status?.active === undefined) return;
  cronJob.status.active = cronJob.status.active.filter((ref) => ref.uid !== uid);
}

/** `getRef`: what `status.active` lists for a Job. */
function jobReference(job: Job): ObjectReference {
  return {
    kind: "Job",
    namespace: job.metadata.namespace ?? "",
    name: job.metadata.name ?? "",
    uid: job.metadata.uid ?? "",
    apiVersion: "batch/v1",
    resourceVersion: job.metadata.resourceVersion ?? "",
  };
}
