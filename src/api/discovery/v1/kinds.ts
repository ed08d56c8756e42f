/** The `discovery.k8s.io/v1` KindDefinitions. */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import type { EndpointSlice } from "./endpoint-slice.ts";
import { applyEndpointSliceDefaults } from "./endpoint-slice-defaults.ts";
import { validateEndpointSlice, validateEndpointSliceUpdate } from "./endpoint-slice-validation.ts";
import { discoveryName, discoveryV1Definitions } from "./schema.ts";

const definitions = { ...externalDefinitions(), ...discoveryV1Definitions };

export const endpointSliceKind: KindDefinition<EndpointSlice> = {
  group: "discovery.k8s.io",
  version: "v1",
  kind: "EndpointSlice",
  listKind: "EndpointSliceList",
  resource: "endpointslices",
  singular: "endpointslice",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  schema: { schema: discoveryV1Definitions[discoveryName("EndpointSlice")] ?? {}, definitions },
  // Upstream's strategy bumps the generation on every change outside metadata.
  tracksGeneration: true,
  subresources: { status: false },
  applyDefaults: applyEndpointSliceDefaults,
  validate: validateEndpointSlice,
  validateUpdate: validateEndpointSliceUpdate,
};

/** Every served `discovery.k8s.io/v1` kind. */
export const discoveryV1Kinds = [endpointSliceKind] as const;
