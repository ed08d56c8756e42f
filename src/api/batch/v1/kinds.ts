/** The `batch/v1` KindDefinitions. */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import type { SchemaRoot } from "../../schema/schema.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import type { Job } from "./job.ts";
import { defaultJob } from "./job-defaults.ts";
import { batchName, jobDefinitions } from "./job-schema.ts";
import { validateJob, validateJobUpdate } from "./job-validation.ts";

/** Every named schema definition of `batch/v1`. */
export const batchV1Definitions = { ...jobDefinitions };

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

/** Every served `batch/v1` kind. */
export const batchV1Kinds = [jobKind] as const;
