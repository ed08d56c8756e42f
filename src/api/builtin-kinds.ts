import { apiextensionsV1Kinds } from "./apiextensions/v1/index.ts";
import { appsV1Kinds } from "./apps/v1/index.ts";
import { authenticationV1Kinds } from "./authentication/index.ts";
import { authorizationV1Kinds } from "./authorization/index.ts";
import { batchV1Kinds } from "./batch/v1/index.ts";
import { coordinationV1Kinds } from "./coordination/v1/index.ts";
import { coreV1Kinds } from "./core/v1/index.ts";
import { discoveryV1Kinds } from "./discovery/v1/index.ts";
import { networkingV1Kinds } from "./networking/v1/index.ts";
import { policyV1Kinds } from "./policy/v1/index.ts";
import { rbacV1Kinds } from "./rbac/index.ts";
import { schedulingV1Kinds } from "./scheduling/v1/index.ts";
import { schedulingV1alpha1Kinds } from "./scheduling/v1alpha1/index.ts";
import type { KindDefinition } from "./scheme.ts";
import { storageV1Kinds } from "./storage/v1/index.ts";

/** Every built-in kind gantry serves, in discovery order. */
export function builtInKinds(): KindDefinition[] {
  return [
    ...coreV1Kinds,
    ...appsV1Kinds,
    ...batchV1Kinds,
    ...networkingV1Kinds,
    ...policyV1Kinds,
    ...rbacV1Kinds,
    ...authorizationV1Kinds,
    ...authenticationV1Kinds,
    ...schedulingV1Kinds,
    ...schedulingV1alpha1Kinds,
    ...coordinationV1Kinds,
    ...discoveryV1Kinds,
    ...storageV1Kinds,
    ...apiextensionsV1Kinds,
  ] as unknown as KindDefinition[];
}
