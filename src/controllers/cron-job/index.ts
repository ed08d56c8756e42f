// The CronJob controller, and the pure decisions its tests use.
export {
  type CronJobControllerDeps,
  type CronJobControllerOptions,
  newCronJobController,
} from "./controller.ts";
export { orderByStartTime } from "./history.ts";
export { jobFromTemplate, jobNameFor, rfc1123z, rfc3339In } from "./job-template.ts";
