// The scheduling queue.
export { KeyedHeap } from "./heap.ts";
export { Nominator } from "./nominator.ts";
export { nodeSchedulingPropertiesChange, podSchedulingPropertiesChange } from "./object-events.ts";
export {
  type QueueName,
  type QueueProfile,
  SchedulingQueue,
  type SchedulingQueueOptions,
} from "./scheduling-queue.ts";
