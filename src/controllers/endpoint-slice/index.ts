// The endpointslice controller.
export {
  type EndpointSliceControllerDeps,
  type EndpointSliceControllerOptions,
  newEndpointSliceController,
} from "./controller.ts";
export {
  controllerName,
  defaultMaxEndpointsPerSlice,
  endpointPorts,
  planEndpointSlices,
  podToEndpoint,
  type SlicePlan,
  sliceLabels,
  slicePrefix,
} from "./plan.ts";
