/** Every named schema definition of `apps/v1`. */
import type { Definitions } from "../../schema/schema.ts";
import { controllerRevisionDefinitions } from "./controller-revision-schema.ts";
import { daemonSetDefinitions } from "./daemon-set-schema.ts";
import { deploymentDefinitions } from "./deployment-schema.ts";
import { replicaSetDefinitions } from "./replica-set-schema.ts";
import { statefulSetDefinitions } from "./stateful-set-schema.ts";

export const appsV1Definitions: Definitions = {
  ...deploymentDefinitions,
  ...replicaSetDefinitions,
  ...statefulSetDefinitions,
  ...daemonSetDefinitions,
  ...controllerRevisionDefinitions,
};
