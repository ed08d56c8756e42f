// kubectl's columns for jobs (batch/v1, with the 1.30+ STATUS column), cronjobs, poddisruptionbudgets
// (policy/v1), leases (coordination.k8s.io/v1) and priorityclasses (scheduling.k8s.io/v1).

import { humanAge, humanDuration } from "./human-duration.ts";
import { ageColumn, column, containerColumns, nameColumn } from "./internal/columns.ts";
import { containerCells, formatSelectorAt, intOrString } from "./internal/format.ts";
import {
  at,
  bool,
  isDeleting,
  list,
  nameOf,
  num,
  type Obj,
  optNum,
  optStr,
  str,
} from "./internal/read.ts";
import type { TablePrinter } from "./table.ts";

function age(object: Obj, now: Date): string {
  return humanAge(at(object, "metadata", "creationTimestamp"), now);
}

/** `hasJobCondition`: the first condition of the type decides. */
function hasCondition(job: Obj, type: string): boolean {
  const c = list(job, "status", "conditions").find((x) => str(x, "type") === type);
  return c !== undefined && str(c, "status") === "True";
}

/** Wide SELECTOR of jobs and of cronjobs (their template's): `JobSpec.selector`'s description. */
const jobSelectorColumn = column(
  "Selector",
  "string",
  "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
  { priority: 1 },
);

/** The job STATUS cell, in upstream's precedence order. */
export function jobStatus(job: Obj): string {
  if (hasCondition(job, "Complete")) return "Complete";
  if (hasCondition(job, "Failed")) return "Failed";
  if (isDeleting(job)) return "Terminating";
  if (hasCondition(job, "Suspended")) return "Suspended";
  if (hasCondition(job, "FailureTarget")) return "FailureTarget";
  if (hasCondition(job, "SuccessCriteriaMet")) return "SuccessCriteriaMet";
  return "Running";
}

function jobCompletions(job: Obj): string {
  const succeeded = num(job, "status", "succeeded");
  const completions = optNum(job, "spec", "completions");
  if (completions !== undefined) return `${succeeded}/${completions}`;
  const parallelism = num(job, "spec", "parallelism");
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: Obj, now: Date): string {
  const start = Date.parse(str(job, "status", "startTime"));
  if (Number.isNaN(start)) return "";
  const end = Date.parse(str(job, "status", "completionTime"));
  return humanDuration((Number.isNaN(end) ? now.getTime() : end) - start);
}

/** Printer for jobs: NAME STATUS COMPLETIONS DURATION AGE, wide CONTAINERS IMAGES SELECTOR. */
export const jobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Status", "string", "Status of the job."),
    column(
      "Completions",
      "string",
      "The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.",
    ),
    column("Duration", "string", "Time required to complete the job."),
    ageColumn,
    ...containerColumns,
    jobSelectorColumn,
  ],
  printRow: (job, now) => {
    const [names, images] = containerCells(job, "spec", "template", "spec");
    return {
      cells: [
        nameOf(job),
        jobStatus(job),
        jobCompletions(job),
        jobDuration(job, now),
        age(job, now),
        names,
        images,
        formatSelectorAt(job, "spec", "selector"),
      ],
    };
  },
};

/** `printBoolPtr`: `True`, `False`, or `<unset>`. */
function boolPointer(value: unknown): string {
  if (typeof value !== "boolean") return "<unset>";
  return value ? "True" : "False";
}

/**
 * Printer for cronjobs: NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE, wide CONTAINERS
 * IMAGES SELECTOR (of the job template).
 */
export const cronJobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Schedule",
      "string",
      "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.",
    ),
    column(
      "Timezone",
      "string",
      "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones",
    ),
    column(
      "Suspend",
      "boolean",
      "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions. Defaults to false.",
    ),
    column("Active", "integer", "A list of pointers to currently running jobs."),
    column(
      "Last Schedule",
      "string",
      "Information when was the last time the job was successfully scheduled.",
    ),
    ageColumn,
    ...containerColumns,
    jobSelectorColumn,
  ],
  printRow: (cronJob, now) => {
    const [names, images] = containerCells(
      cronJob,
      "spec",
      "jobTemplate",
      "spec",
      "template",
      "spec",
    );
    const lastSchedule = optStr(cronJob, "status", "lastScheduleTime");
    return {
      cells: [
        nameOf(cronJob),
        str(cronJob, "spec", "schedule"),
        optStr(cronJob, "spec", "timeZone") ?? "<none>",
        boolPointer(at(cronJob, "spec", "suspend")),
        list(cronJob, "status", "active").length,
        lastSchedule === undefined ? "<none>" : humanAge(lastSchedule, now),
        age(cronJob, now),
        names,
        images,
        formatSelectorAt(cronJob, "spec", "jobTemplate", "spec", "selector"),
      ],
    };
  },
};

/** Printer for PDBs: NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE (`N/A` when unset). */
export const podDisruptionBudgetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Min Available", "string", "The minimum number of pods that must be available."),
    column("Max Unavailable", "string", "The maximum number of pods that may be unavailable."),
    column(
      "Allowed Disruptions",
      "integer",
      "Calculated number of pods that may be disrupted at this time.",
    ),
    ageColumn,
  ],
  printRow: (pdb, now) => ({
    cells: [
      nameOf(pdb),
      intOrString(at(pdb, "spec", "minAvailable")) ?? "N/A",
      intOrString(at(pdb, "spec", "maxUnavailable")) ?? "N/A",
      num(pdb, "status", "disruptionsAllowed"),
      age(pdb, now),
    ],
  }),
};

/** Printer for leases: NAME HOLDER AGE. */
export const leasePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Holder",
      "string",
      "holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.",
    ),
    ageColumn,
  ],
  printRow: (lease, now) => ({
    cells: [nameOf(lease), str(lease, "spec", "holderIdentity"), age(lease, now)],
  }),
};

/** Printer for priorityclasses: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY. */
export const priorityClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Value",
      "integer",
      "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.",
    ),
    column(
      "Global-Default",
      "boolean",
      "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.",
    ),
    ageColumn,
    column(
      "PreemptionPolicy",
      "string",
      "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.",
    ),
  ],
  printRow: (pc, now) => ({
    cells: [
      nameOf(pc),
      num(pc, "value"),
      bool(pc, "globalDefault"),
      age(pc, now),
      optStr(pc, "preemptionPolicy") ?? "",
    ],
  }),
};
