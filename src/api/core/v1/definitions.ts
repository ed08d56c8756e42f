import { metaDefinitions } from "../../meta/schema.ts";
import type { Definitions } from "../../schema/schema.ts";
import { clusterDefinitions } from "./schema-cluster.ts";
import { endpointsDefinitions } from "./schema-endpoints.ts";
import { podTemplateDefinitions } from "./schema-pod-template.ts";
import { quotaDefinitions } from "./schema-quota.ts";
import { storageDefinitions } from "./schema-storage.ts";
import { workloadDefinitions } from "./schema-workloads.ts";

/** Every named schema core/v1 defines, including the shared meta ones its kinds refer to. */
export const coreV1Definitions: Definitions = {
  ...metaDefinitions,
  ...podTemplateDefinitions,
  ...workloadDefinitions,
  ...clusterDefinitions,
  ...quotaDefinitions,
  ...endpointsDefinitions,
  ...storageDefinitions,
};
