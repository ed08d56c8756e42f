/**
 * The Workload Kueue creates for a single plain pod (jobframework `ConstructWorkload` with the
 * pod integration's PodSets): named `pod-<name>-<hash>`, one PodSet `main`, owned by the pod,
 * with the `resource-in-use` finalizer and the pod's UID in `kueue.x-k8s.io/job-uid`.
 */
import { createHash } from "node:crypto";
import {
  isGroupWorkloadAnnotation,
  isValidLabelValue,
  jobUidLabel,
  type KueueWorkload,
  kueueApiVersion,
  mainPodSetName,
  maxExecTimeLabel,
  type Pod,
  type PodSet,
  queueNameOf,
  resourceInUseFinalizer,
} from "../../api/index.ts";
import { type DeepReadonly, deepCopy } from "../../util/index.ts";

/** Where a Workload's priority comes from. */
export interface WorkloadPriority {
  readonly priority: number;
  readonly priorityClassName?: string;
  readonly priorityClassSource?: string;
}

/**
 * Kueue's `GetWorkloadNameForOwnerWithGVK`: `<kind>-<owner name>` cut to 247 characters, a
 * dash and the first 5 hex characters of SHA-1 over kind, group, name and UID (newline-joined).
 */
export function workloadNameForOwner(
  kind: string,
  group: string,
  name: string,
  uid: string,
): string {
  const prefix = `${kind.toLowerCase()}-${name}`.slice(0, 247);
  const hash = createHash("sha1").update([kind, group, name, uid].join("\n")).digest("hex");
  return `${prefix}-${hash.slice(0, 5)}`;
}

export function workloadNameForPod(pod: DeepReadonly<Pod>): string {
  return workloadNameForOwner("Pod", "", pod.metadata.name ?? "", pod.metadata.uid ?? "");
}

/** The Workload for a single pod. */
export function workloadForPod(pod: DeepReadonly<Pod>, priority: WorkloadPriority): KueueWorkload {
  const uid = pod.metadata.uid ?? "";
  const labels: Record<string, string> = {};
  if (isValidLabelValue(uid).length === 0) labels[jobUidLabel] = uid;
  const maxExec = Number(pod.metadata.labels?.[maxExecTimeLabel]);
  return {
    apiVersion: kueueApiVersion,
    kind: "Workload",
    metadata: {
      name: workloadNameForPod(pod),
      namespace: pod.metadata.namespace ?? "",
      labels,
      finalizers: [resourceInUseFinalizer],
      ownerReferences: [
        {
          apiVersion: "v1",
          kind: "Pod",
          name: pod.metadata.name ?? "",
          uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      queueName: queueNameOf(pod.metadata),
      podSets: [
        {
          name: mainPodSetName,
          count: 1,
          template: { spec: deepCopy(pod.spec) as Pod["spec"] },
        },
      ],
      priority: priority.priority,
      ...(priority.priorityClassName === undefined
        ? {}
        : { priorityClassName: priority.priorityClassName }),
      ...(priority.priorityClassSource === undefined
        ? {}
        : { priorityClassSource: priority.priorityClassSource }),
      ...(Number.isInteger(maxExec) && maxExec > 0 ? { maximumExecutionTimeSeconds: maxExec } : {}),
    },
  };
}

/**
 * The Workload of a pod group (Kueue's `NewGroupWorkload`): named after the group, annotated
 * `kueue.x-k8s.io/is-group-workload: "true"`, owned (not controlled) by every pod in `owners`.
 */
export function workloadForGroup(
  name: string,
  pod: DeepReadonly<Pod>,
  podSets: readonly PodSet[],
  owners: readonly DeepReadonly<Pod>[],
  priority: WorkloadPriority,
): KueueWorkload {
  const single = workloadForPod(pod, priority);
  return {
    ...single,
    metadata: {
      name,
      namespace: pod.metadata.namespace ?? "",
      annotations: { [isGroupWorkloadAnnotation]: "true" },
      finalizers: [resourceInUseFinalizer],
      ownerReferences: owners.map((o) => ({
        apiVersion: "v1",
        kind: "Pod",
        name: o.metadata.name ?? "",
        uid: o.metadata.uid ?? "",
      })),
    },
    spec: { ...single.spec, podSets: deepCopy([...podSets]) as PodSet[] },
  };
}
