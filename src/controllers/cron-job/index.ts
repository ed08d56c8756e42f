// The CronJob controller, and the pure decisions its tests use.
export {
  type CronJobControllerDeps,
  type CronJobControllerOptions,
  jobFromTemplate,
  jobNameFor,
  newCronJobController,
  rfc1123z,
  rfc3339In,
} from "./controller.ts";
export { orderByStartTime } from "./history.ts";
