/** The `batch/v1` KindDefinitions. */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import type { SchemaRoot } from "../../schema/schema.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import type { CronJob } from "./cron-job.ts";
import { defaultCronJob } from "./cron-job-defaults.ts";
import { cronJobDefinitions } from "./cron-job-schema.ts";
import { validateCronJob, validateCronJobUpdate } from "./cron-job-validation.ts";
import type { Job } from "./job.ts";
import { defaultJob } from "./job-defaults.ts";
import { batchName, jobDefinitions } from "./job-schema.ts";
import { validateJob, validateJobUpdate } from "./job-validation.ts";

/** Every named schema definition of `batch/v1`. */
export const batchV1Definitions = { ...jobDefinitions, ...cronJobDefinitions };

function root(name: string): SchemaRoot {
  const definitions = { ...externalDefinitions(), ...batchV1Definitions };
  const schema = definitions[name];
  if (schema === undefined) throw new RangeError(`Cannot find schema definition "${name}"`);
  return { schema, definitions };
}

export const jobKind: KindDefinition<Job> = {
  group: "batch",
  version: "v1",
  kind: "Job",
  listKind: "JobList",
  resource: "jobs",
  singular: "job",
  namespaced: true,
  shortNames: [],
  categories: ["all"],
  verbs: allVerbs,
  schema: root(batchName("Job")),
  tracksGeneration: true,
  subresources: { status: true },
  applyDefaults: defaultJob,
  validate: validateJob,
  validateUpdate: validateJobUpdate,
  // Upstream's job field selector: `status.successful`.
  selectableFields: (job) => ({ "status.successful": String(job.status?.succeeded ?? 0) }),
};

export const cronJobKind: KindDefinition<CronJob> = {
  group: "batch",
  version: "v1",
  kind: "CronJob",
  listKind: "CronJobList",
  resource: "cronjobs",
  singular: "cronjob",
  namespaced: true,
  shortNames: ["cj"],
  categories: ["all"],
  verbs: allVerbs,
  schema: root(batchName("CronJob")),
  tracksGeneration: true,
  subresources: { status: true },
  applyDefaults: defaultCronJob,
  validate: validateCronJob,
  validateUpdate: validateCronJobUpdate,
};

/** Every served `batch/v1` kind. */
export const batchV1Kinds = [jobKind, cronJobKind] as const;
