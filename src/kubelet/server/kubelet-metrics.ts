/**
 * `GET /metrics`: the kubelet metrics an emulated node keeps, in upstream's names: the CPU
 * manager's (pinning requests and errors, shared pool size, exclusive CPUs, allocation per NUMA
 * node, aligned allocations by boundary), the PodResources endpoint counters and the node name.
 */
import { idleCpuManagerFamilies } from "../cpumanager/metrics.ts";
import { type MetricFamily, renderPrometheusText } from "../internal/prometheus-text.ts";

/** How often the PodResources API was called (upstream counts per server API version). */
export interface PodResourcesCalls {
  list: number;
  getAllocatable: number;
}

/** The PodResources endpoint counters; a vector appears once its `v1` label set is used. */
function podResourcesFamilies(calls: PodResourcesCalls): MetricFamily[] {
  const v1 = (value: number) =>
    value === 0 ? [] : [{ labels: { server_api_version: "v1" }, value }];
  return [
    {
      name: "kubelet_pod_resources_endpoint_requests_total",
      help: "Cumulative number of requests to the PodResource endpoint. Broken down by server api version.",
      type: "counter",
      samples: v1(calls.list + calls.getAllocatable),
    },
    {
      name: "kubelet_pod_resources_endpoint_requests_list",
      help: "Number of requests to the PodResource List endpoint. Broken down by server api version.",
      type: "counter",
      samples: v1(calls.list),
    },
    {
      name: "kubelet_pod_resources_endpoint_requests_get_allocatable",
      help: "Number of requests to the PodResource GetAllocatableResources endpoint. Broken down by server api version.",
      type: "counter",
      samples: v1(calls.getAllocatable),
    },
  ];
}

/**
 * The text of one node's `/metrics`. `cpuManager` is the node's CPU manager families, or
 * `undefined` for a node without a static policy (its counters are registered and stay 0).
 */
export function kubeletMetricsText(
  nodeName: string,
  cpuManager: readonly MetricFamily[] | undefined,
  calls: PodResourcesCalls,
): string {
  return renderPrometheusText([
    {
      name: "kubelet_node_name",
      help: "The node's name. The count is always 1.",
      type: "gauge",
      samples: [{ labels: { node: nodeName }, value: 1 }],
    },
    ...(cpuManager ?? idleCpuManagerFamilies()),
    ...podResourcesFamilies(calls),
  ]);
}
