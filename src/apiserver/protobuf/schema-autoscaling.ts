// k8s.io/api/autoscaling v1 and v2: HorizontalPodAutoscaler, what `kubectl autoscale` sends
// (1.32 posts autoscaling/v1, 1.33 posts autoscaling/v2). The two versions share message
// names upstream; here the v2 ones carry a `V2` suffix. Field numbers: autoscaling/v1 and v2
// generated.proto (1.33); JSON rules: their types.go.

import { keep, list, type MessageTable, ptr, val } from "./schema.ts";

export const autoscalingMessages: MessageTable = {
  HorizontalPodAutoscaler: [
    val(1, "metadata", "ObjectMeta"),
    val(2, "spec", "HorizontalPodAutoscalerSpec"),
    val(3, "status", "HorizontalPodAutoscalerStatus"),
  ],
  HorizontalPodAutoscalerSpec: [
    val(1, "scaleTargetRef", "CrossVersionObjectReference", keep),
    ptr(2, "minReplicas", "int32"),
    val(3, "maxReplicas", "int32", keep),
    ptr(4, "targetCPUUtilizationPercentage", "int32"),
  ],
  CrossVersionObjectReference: [
    val(1, "kind", "string", keep),
    val(2, "name", "string", keep),
    val(3, "apiVersion", "string"),
  ],
  HorizontalPodAutoscalerStatus: [
    ptr(1, "observedGeneration", "int64"),
    ptr(2, "lastScaleTime", "Time"),
    val(3, "currentReplicas", "int32", keep),
    val(4, "desiredReplicas", "int32", keep),
    ptr(5, "currentCPUUtilizationPercentage", "int32"),
  ],

  HorizontalPodAutoscalerV2: [
    val(1, "metadata", "ObjectMeta"),
    val(2, "spec", "HorizontalPodAutoscalerSpecV2"),
    val(3, "status", "HorizontalPodAutoscalerStatusV2"),
  ],
  HorizontalPodAutoscalerSpecV2: [
    val(1, "scaleTargetRef", "CrossVersionObjectReference", keep),
    ptr(2, "minReplicas", "int32"),
    val(3, "maxReplicas", "int32", keep),
    list(4, "metrics", "MetricSpecV2"),
    ptr(5, "behavior", "HorizontalPodAutoscalerBehaviorV2"),
  ],
  MetricSpecV2: [
    val(1, "type", "string", keep),
    ptr(2, "object", "ObjectMetricSourceV2"),
    ptr(3, "pods", "PodsMetricSourceV2"),
    ptr(4, "resource", "ResourceMetricSourceV2"),
    ptr(7, "containerResource", "ContainerResourceMetricSourceV2"),
    ptr(5, "external", "ExternalMetricSourceV2"),
  ],
  ObjectMetricSourceV2: [
    val(1, "describedObject", "CrossVersionObjectReference", keep),
    val(2, "target", "MetricTargetV2", keep),
    val(3, "metric", "MetricIdentifierV2", keep),
  ],
  PodsMetricSourceV2: [
    val(1, "metric", "MetricIdentifierV2", keep),
    val(2, "target", "MetricTargetV2", keep),
  ],
  ResourceMetricSourceV2: [
    val(1, "name", "string", keep),
    val(2, "target", "MetricTargetV2", keep),
  ],
  ContainerResourceMetricSourceV2: [
    val(1, "name", "string", keep),
    val(2, "target", "MetricTargetV2", keep),
    val(3, "container", "string", keep),
  ],
  ExternalMetricSourceV2: [
    val(1, "metric", "MetricIdentifierV2", keep),
    val(2, "target", "MetricTargetV2", keep),
  ],
  MetricIdentifierV2: [val(1, "name", "string", keep), ptr(2, "selector", "LabelSelector")],
  MetricTargetV2: [
    val(1, "type", "string", keep),
    ptr(2, "value", "Quantity"),
    ptr(3, "averageValue", "Quantity"),
    ptr(4, "averageUtilization", "int32"),
  ],
  HorizontalPodAutoscalerBehaviorV2: [
    ptr(1, "scaleUp", "HPAScalingRulesV2"),
    ptr(2, "scaleDown", "HPAScalingRulesV2"),
  ],
  HPAScalingRulesV2: [
    ptr(3, "stabilizationWindowSeconds", "int32"),
    ptr(1, "selectPolicy", "string"),
    list(2, "policies", "HPAScalingPolicyV2"),
    ptr(4, "tolerance", "Quantity"),
  ],
  HPAScalingPolicyV2: [
    val(1, "type", "string", keep),
    val(2, "value", "int32", keep),
    val(3, "periodSeconds", "int32", keep),
  ],
  HorizontalPodAutoscalerStatusV2: [
    ptr(1, "observedGeneration", "int64"),
    ptr(2, "lastScaleTime", "Time"),
    val(3, "currentReplicas", "int32"),
    val(4, "desiredReplicas", "int32", keep),
    list(5, "currentMetrics", "MetricStatusV2", keep),
    list(6, "conditions", "HorizontalPodAutoscalerConditionV2"),
  ],
  MetricStatusV2: [
    val(1, "type", "string", keep),
    ptr(2, "object", "ObjectMetricStatusV2"),
    ptr(3, "pods", "PodsMetricStatusV2"),
    ptr(4, "resource", "ResourceMetricStatusV2"),
    ptr(7, "containerResource", "ContainerResourceMetricStatusV2"),
    ptr(5, "external", "ExternalMetricStatusV2"),
  ],
  ObjectMetricStatusV2: [
    val(1, "metric", "MetricIdentifierV2", keep),
    val(2, "current", "MetricValueStatusV2", keep),
    val(3, "describedObject", "CrossVersionObjectReference", keep),
  ],
  PodsMetricStatusV2: [
    val(1, "metric", "MetricIdentifierV2", keep),
    val(2, "current", "MetricValueStatusV2", keep),
  ],
  ResourceMetricStatusV2: [
    val(1, "name", "string", keep),
    val(2, "current", "MetricValueStatusV2", keep),
  ],
  ContainerResourceMetricStatusV2: [
    val(1, "name", "string", keep),
    val(2, "current", "MetricValueStatusV2", keep),
    val(3, "container", "string", keep),
  ],
  ExternalMetricStatusV2: [
    val(1, "metric", "MetricIdentifierV2", keep),
    val(2, "current", "MetricValueStatusV2", keep),
  ],
  MetricValueStatusV2: [
    ptr(1, "value", "Quantity"),
    ptr(2, "averageValue", "Quantity"),
    ptr(3, "averageUtilization", "int32"),
  ],
  HorizontalPodAutoscalerConditionV2: [
    val(1, "type", "string", keep),
    val(2, "status", "string", keep),
    val(3, "lastTransitionTime", "Time"),
    val(4, "reason", "string"),
    val(5, "message", "string"),
  ],
};
