/**
 * The Jobs a CronJob creates: their names, and how they are made from its template
 * (upstream's `getJobName` and `getJobFromTemplate2`), with the Go time formats they and the
 * controller's events carry.
 */
import { type CronJob, cronJobScheduledTimestampAnnotation, type Job } from "../../api/index.ts";
import { type DeepReadonly, deepCopy, rfc3339 } from "../../util/index.ts";
import { newControllerRef } from "../framework/index.ts";

const controllerKind = { apiVersion: "batch/v1", kind: "CronJob" };

/** `getJobName`: the CronJob's name and the scheduled time in minutes since the epoch. */
export function jobNameFor(cronJobName: string, scheduledTime: Date): string {
  return `${cronJobName}-${Math.floor(scheduledTime.getTime() / 60_000)}`;
}

/** `getJobFromTemplate2`: the template's labels, annotations and spec, owned by the CronJob. */
export function jobFromTemplate(
  cronJob: DeepReadonly<CronJob>,
  scheduled: Date,
  name: string,
): Job {
  const template = cronJob.spec.jobTemplate;
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      name,
      namespace: cronJob.metadata.namespace ?? "",
      labels: { ...(template.metadata?.labels ?? {}) },
      annotations: {
        ...(template.metadata?.annotations ?? {}),
        [cronJobScheduledTimestampAnnotation]: rfc3339In(scheduled, cronJob.spec.timeZone),
      },
      ownerReferences: [newControllerRef(cronJob, controllerKind)],
    },
    spec: deepCopy(template.spec ?? {}) as Job["spec"],
  };
}

/** Go's `time.RFC1123Z` in UTC: `Mon, 02 Jan 2006 15:04:05 +0000`. */
export function rfc1123z(t: Date): string {
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const months = [
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
  ];
  const two = (n: number) => String(n).padStart(2, "0");
  return `${days[t.getUTCDay()]}, ${two(t.getUTCDate())} ${months[t.getUTCMonth()]} ${t.getUTCFullYear()} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())} +0000`;
}

/**
 * `scheduledTime.In(zone).Format(time.RFC3339)`: the wall-clock time in `zone` (UTC when unset)
 * with its offset, `2026-11-29T09:00:00-05:00`, or `Z` in UTC.
 */
export function rfc3339In(t: Date, zone: string | undefined): string {
  if (zone === undefined || zone === "UTC") return rfc3339(t);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(t);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  const wall = Date.UTC(
    Number(get("year")),
    Number(get("month")) - 1,
    Number(get("day")),
    Number(get("hour")),
    Number(get("minute")),
    Number(get("second")),
  );
  const offsetMinutes = Math.round((wall - Math.floor(t.getTime() / 1000) * 1000) / 60_000);
  if (offsetMinutes === 0)
    return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}Z`;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}${offset}`;
}
