// The endpoints controller.
export {
  type EndpointsControllerDeps,
  type EndpointsControllerOptions,
  newEndpointsController,
} from "./controller.ts";
export {
  computeEndpointSubsets,
  maxEndpointsCapacity,
  overCapacityAnnotation,
  truncateSubsets,
} from "./subsets.ts";
