// The public surface of discovery.k8s.io/v1.
export {
  type AddressType,
  type Endpoint,
  type EndpointConditions,
  type EndpointHints,
  type EndpointSlice,
  type EndpointSlicePort,
  managedByLabel,
  serviceNameLabel,
} from "./endpoint-slice.ts";
export { applyEndpointSliceDefaults } from "./endpoint-slice-defaults.ts";
export {
  maxEndpointsPerSlice,
  validateEndpointSlice,
  validateEndpointSliceUpdate,
} from "./endpoint-slice-validation.ts";
export { discoveryV1Kinds, endpointSliceKind } from "./kinds.ts";
export { discoveryName, discoveryV1Definitions } from "./schema.ts";
