// k8s.io/api/apps/v1: Deployment. Field numbers: apps/v1 generated.proto (1.33); JSON rules:
// apps/v1 types.go.

import { keep, type MessageTable, ptr, val } from "./schema.ts";

export const appsMessages: MessageTable = {
  Deployment: [
    val(1, "metadata", "ObjectMeta"),
    val(2, "spec", "DeploymentSpec"),
    val(3, "status", "DeploymentStatus"),
  ],
  DeploymentSpec: [
    ptr(1, "replicas", "int32"),
    ptr(2, "selector", "LabelSelector", keep),
    val(3, "template", "PodTemplateSpec", keep),
    val(4, "strategy", "DeploymentStrategy"),
    val(5, "minReadySeconds", "int32"),
    ptr(6, "revisionHistoryLimit", "int32"),
    val(7, "paused", "bool"),
    ptr(9, "progressDeadlineSeconds", "int32"),
  ],
  DeploymentStrategy: [
    val(1, "type", "string"),
    ptr(2, "rollingUpdate", "RollingUpdateDeployment"),
  ],
  RollingUpdateDeployment: [
    ptr(1, "maxUnavailable", "IntOrString"),
    ptr(2, "maxSurge", "IntOrString"),
  ],
  // Status is server-owned and ignored on create; only its shape (`{}`) is kept.
  DeploymentStatus: [],
};
