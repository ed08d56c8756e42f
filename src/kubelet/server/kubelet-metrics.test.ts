import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePrometheusText } from "../internal/prometheus-text.ts";
import { kubeletMetricsText } from "./kubelet-metrics.ts";

test("kubeletMetricsText: a node without a static policy reports the registered CPU manager metrics at 0", () => {
  const text = kubeletMetricsText("n1", undefined, { list: 0, getAllocatable: 0 });
  assert.deepEqual(Object.fromEntries(parsePrometheusText(text)), {
    kubelet_cpu_manager_exclusive_cpu_allocation_count: 0,
    kubelet_cpu_manager_pinning_errors_total: 0,
    kubelet_cpu_manager_pinning_requests_total: 0,
    kubelet_cpu_manager_shared_pool_size_millicores: 0,
    'kubelet_node_name{node="n1"}': 1,
  });
  assert.match(
    text,
    /^# HELP kubelet_cpu_manager_pinning_requests_total \[ALPHA\] The number of cpu core allocations which required pinning\.\n# TYPE kubelet_cpu_manager_pinning_requests_total counter$/m,
  );
});

test("kubeletMetricsText: PodResources calls are counted by server API version", () => {
  const text = kubeletMetricsText("n1", [], { list: 2, getAllocatable: 1 });
  const samples = parsePrometheusText(text);
  assert.deepEqual(
    [
      samples.get('kubelet_pod_resources_endpoint_requests_total{server_api_version="v1"}'),
      samples.get('kubelet_pod_resources_endpoint_requests_list{server_api_version="v1"}'),
      samples.get(
        'kubelet_pod_resources_endpoint_requests_get_allocatable{server_api_version="v1"}',
      ),
      samples.get("kubelet_cpu_manager_pinning_requests_total"),
    ],
    [3, 2, 1, undefined],
  );
});
