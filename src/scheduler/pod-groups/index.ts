// Pod-group state of the scheduler: members, policies, and the PodGroup status writer.
export {
  missingGroupMessage,
  missingTemplateMessage,
  PodGroupManager,
  type PodGroupManagerDeps,
  type PodGroupObjects,
  waitingForPodGroupMessage,
  waitingForWorkloadMessage,
  workloadMismatchMessage,
} from "./pod-group-manager.ts";
export {
  computePodGroupStatus,
  type GroupCondition,
  PodGroupStatusWriter,
  type PodGroupStatusWriterDeps,
  podGroupScheduledType,
  reasonScheduled,
  reasonSchedulerError,
  reasonTimeout,
  reasonUnschedulable,
  reasonWaitingForPreemption,
  timeoutMessage,
} from "./status-writer.ts";
