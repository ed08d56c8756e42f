export {
  defaultFlowSchemas,
  defaultPriorityLevels,
  type FlowSchema,
  type PriorityLevel,
} from "./config.ts";
export { type Deadline, type Deadlines, newDeadlines } from "./deadlines.ts";
export {
  type Classification,
  type FlowController,
  type FlowControlObserver,
  type FlowControlOptions,
  type LimiterAdmission,
  newFlowController,
  type RequestLimiter,
} from "./flow-controller.ts";
export { newFlowControlMetrics } from "./metrics.ts";
export {
  type QueuedRequest,
  QueueSet,
  type QueueSetConfig,
  type RejectReason,
} from "./queue-set.ts";
export {
  defaultRequestTimeoutMs,
  requestTimeoutOf,
  timeoutBody,
  writeRequestTimeout,
} from "./request-timeout.ts";
export { dealHand, flowHash } from "./shuffle-shard.ts";
export { newWatchLimiter, type WatchLimiter, type WatchTicket } from "./watch-limit.ts";
