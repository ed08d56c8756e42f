// The public surface of queueing/: Kueue's plain-pod integration and admission core. Named
// exports only; see README.md.
export {
  defaultQueueingConfig,
  knownFrameworks,
  parseQueueingConfig,
  type QueueingConfig,
  queueingSystemNamespace,
} from "./config.ts";
export { newQueueingMetrics, type QueueingMetrics } from "./metrics.ts";
export {
  type DefaultResult,
  defaultPod,
  type PodWebhookEnv,
  type ValidationResult,
  validatePodCreate,
  validatePodUpdate,
} from "./pod-integration/pod-webhook.ts";
export { roleHash } from "./pod-integration/role-hash.ts";
export { newQueueing, type Queueing, type QueueingDeps } from "./queueing.ts";
