/** The Kueue resources the queueing component reads and writes, as the client names them. */
import { kueueGroup, kueueVersion } from "../api/index.ts";
import type { ResourceRef } from "../client/index.ts";

function kueue(resource: string, kind: string, namespaced: boolean): ResourceRef {
  return Object.freeze({ group: kueueGroup, version: kueueVersion, resource, kind, namespaced });
}

export const kueueWorkloadsResource = kueue("workloads", "Workload", true);
export const clusterQueuesResource = kueue("clusterqueues", "ClusterQueue", false);
export const localQueuesResource = kueue("localqueues", "LocalQueue", true);
export const resourceFlavorsResource = kueue("resourceflavors", "ResourceFlavor", false);
export const workloadPriorityClassesResource = kueue(
  "workloadpriorityclasses",
  "WorkloadPriorityClass",
  false,
);
