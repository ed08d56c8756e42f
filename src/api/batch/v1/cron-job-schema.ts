/** Named schema definitions of `batch/v1` CronJob, with `kubectl explain` descriptions. */

import { kindSchema, listSchema, objectMetaName } from "../../apps/v1/schema-helpers.ts";
import { atomicList, bool, int32, int64, obj, str, time } from "../../schema/builders.ts";
import { type Definitions, ref } from "../../schema/schema.ts";
import { batchName } from "./job-schema.ts";

const gv = { group: "batch", version: "v1" };

export const cronJobDefinitions: Definitions = {
  [batchName("CronJob")]: kindSchema(
    { ...gv, kind: "CronJob" },
    "CronJob represents the configuration of a single cron job.",
    {
      spec: ref(
        batchName("CronJobSpec"),
        "Specification of the desired behavior of a cron job, including the schedule. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      ),
      status: ref(
        batchName("CronJobStatus"),
        "Current status of a cron job. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      ),
    },
  ),
  [batchName("CronJobList")]: listSchema({ ...gv, kind: "CronJobList" }, batchName("CronJob")),
  [batchName("CronJobSpec")]: obj(
    {
      schedule: str("The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
      timeZone: str(
        "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones",
      ),
      startingDeadlineSeconds: int64(
        "Optional deadline in seconds for starting the job if it misses scheduled time for any reason.  Missed jobs executions will be counted as failed ones.",
      ),
      concurrencyPolicy: str(
        'Specifies how to treat concurrent executions of a Job. Valid values are:\n\n- "Allow" (default): allows CronJobs to run concurrently; - "Forbid": forbids concurrent runs, skipping next run if previous run hasn\'t finished yet; - "Replace": cancels currently running job and replaces it with a new one\n\nPossible enum values:\n - `"Allow"` allows CronJobs to run concurrently.\n - `"Forbid"` forbids concurrent runs, skipping next run if previous hasn\'t finished yet.\n - `"Replace"` cancels currently running job and replaces it with a new one.',
        { enum: ["Allow", "Forbid", "Replace"] },
      ),
      suspend: bool(
        "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.",
      ),
      jobTemplate: ref(
        batchName("JobTemplateSpec"),
        "Specifies the job that will be created when executing a CronJob.",
      ),
      successfulJobsHistoryLimit: int32(
        "The number of successful finished jobs to retain. Value must be non-negative integer. Defaults to 3.",
      ),
      failedJobsHistoryLimit: int32(
        "The number of failed finished jobs to retain. Value must be non-negative integer. Defaults to 1.",
      ),
    },
    {
      description:
        "CronJobSpec describes how the job execution will look like and when it will actually run.",
      required: ["schedule", "jobTemplate"],
    },
  ),
  [batchName("JobTemplateSpec")]: obj(
    {
      metadata: ref(
        objectMetaName,
        "Standard object's metadata of the jobs created from this template. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
      ),
      spec: ref(
        batchName("JobSpec"),
        "Specification of the desired behavior of the job. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      ),
    },
    {
      description:
        "JobTemplateSpec describes the data a Job should have when created from a template",
    },
  ),
  [batchName("CronJobStatus")]: obj(
    {
      active: atomicList(
        ref("io.k8s.api.core.v1.ObjectReference"),
        "A list of pointers to currently running jobs.",
      ),
      lastScheduleTime: time(
        "Information when was the last time the job was successfully scheduled.",
      ),
      lastSuccessfulTime: time(
        "Information when was the last time the job successfully completed.",
      ),
    },
    { description: "CronJobStatus represents the current state of a cron job." },
  ),
};
