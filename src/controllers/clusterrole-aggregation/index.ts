// The clusterrole-aggregation controller.
export {
  aggregatedRules,
  type ClusterRoleAggregationDeps,
  type ClusterRoleAggregationOptions,
  clusterRolesResource,
  newClusterRoleAggregationController,
} from "./controller.ts";
