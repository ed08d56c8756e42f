/**
 * `makeQueuedPod("p", options)`: a plain pod for Kueue's pod integration, as a user writes it
 * (a `kueue.x-k8s.io/queue-name` label, `restartPolicy: Never`, one container `c` with requests),
 * or, with `gated`, as Kueue's pod webhook leaves it. No uid, status or server-set fields: the
 * result is what a test or a benchmark creates through the API.
 */
import {
  admissionGate,
  managedFinalizer,
  managedLabel,
  type Pod,
  podGroupNameLabel,
  podGroupTotalCountAnnotation,
  queueNameLabel,
  type ResourceList,
  workloadPriorityClassLabel,
} from "../../api/index.ts";
import { exitCodeAnnotation, runForAnnotation } from "../../kubelet/index.ts";

/** Options of `makeQueuedPod`; every field is optional. */
export interface QueuedPodOptions {
  /** @default "default" */
  readonly namespace?: string;
  /** The LocalQueue (`kueue.x-k8s.io/queue-name`). @default "user-queue" */
  readonly queue?: string;
  /** The WorkloadPriorityClass (`kueue.x-k8s.io/priority-class`); none when undefined. */
  readonly priorityClass?: string;
  /** The pod group (`kueue.x-k8s.io/pod-group-name`); a single pod when undefined. */
  readonly group?: string;
  /** The group's size (`kueue.x-k8s.io/pod-group-total-count`); none when undefined. */
  readonly total?: number;
  /** How long the emulated container runs (`gantry.dev/run-for`, "2s"); forever when undefined. */
  readonly runFor?: string;
  /** The emulated container's exit code (`gantry.dev/exit-code`); 0 when undefined. */
  readonly exitCode?: number;
  /** The container's requests. @default { cpu: "1" } */
  readonly requests?: ResourceList;
  /** The container's image. @default "busybox" */
  readonly image?: string;
  /** More labels, after (and over) the ones above. */
  readonly labels?: Record<string, string>;
  /** More annotations, after (and over) the ones above. */
  readonly annotations?: Record<string, string>;
  /**
   * As Kueue's pod webhook leaves a pod it manages: label `kueue.x-k8s.io/managed: "true"`,
   * finalizer `kueue.x-k8s.io/managed` and scheduling gate `kueue.x-k8s.io/admission`.
   * @default false
   */
  readonly gated?: boolean;
}

/** A queued plain pod named `name` (see `QueuedPodOptions` for what each option sets). */
export function makeQueuedPod(name: string, options: QueuedPodOptions = {}): Pod {
  const labels: Record<string, string> = { [queueNameLabel]: options.queue ?? "user-queue" };
  if (options.priorityClass !== undefined) {
    labels[workloadPriorityClassLabel] = options.priorityClass;
  }
  if (options.group !== undefined) labels[podGroupNameLabel] = options.group;
  if (options.gated === true) labels[managedLabel] = "true";
  Object.assign(labels, options.labels);

  const annotations: Record<string, string> = {};
  if (options.total !== undefined) {
    annotations[podGroupTotalCountAnnotation] = String(options.total);
  }
  if (options.runFor !== undefined) annotations[runForAnnotation] = options.runFor;
  if (options.exitCode !== undefined) annotations[exitCodeAnnotation] = String(options.exitCode);
  Object.assign(annotations, options.annotations);

  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: options.namespace ?? "default",
      labels,
      ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
      ...(options.gated === true ? { finalizers: [managedFinalizer] } : {}),
    },
    spec: {
      restartPolicy: "Never",
      ...(options.gated === true ? { schedulingGates: [{ name: admissionGate }] } : {}),
      containers: [
        {
          name: "c",
          image: options.image ?? "busybox",
          resources: { requests: { ...(options.requests ?? { cpu: "1" }) } },
        },
      ],
    },
  };
}
