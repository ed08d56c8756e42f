/** core/v1: the served kinds and their definitions. */
import type { KindDefinition } from "../../scheme.ts";
import { bindingKind } from "./binding.ts";
import { configMapKind } from "./config-map.ts";
import { endpointsKind } from "./endpoints.ts";
import { eventKind } from "./event.ts";
import { limitRangeKind } from "./limit-range.ts";
import { namespaceKind } from "./namespace.ts";
import { nodeKind } from "./node.ts";
import { persistentVolumeClaimKind, persistentVolumeKind } from "./persistent-volume-kinds.ts";
import { podKind } from "./pod.ts";
import { podTemplateKind } from "./pod-template-kind.ts";
import { replicationControllerKind } from "./replication-controller.ts";
import { resourceQuotaKind } from "./resource-quota.ts";
import { secretKind } from "./secret.ts";
import { serviceKind } from "./service.ts";
import { serviceAccountKind } from "./service-account.ts";

/** Every core/v1 kind gantry serves, in discovery order. */
export const coreV1Kinds: readonly KindDefinition[] = [
  bindingKind,
  configMapKind,
  endpointsKind,
  eventKind,
  limitRangeKind,
  namespaceKind,
  nodeKind,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  podKind,
  podTemplateKind,
  replicationControllerKind,
  resourceQuotaKind,
  secretKind,
  serviceAccountKind,
  serviceKind,
] as readonly KindDefinition[];
