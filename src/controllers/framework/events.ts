/**
 * Event recording for controllers: client-go's tools/record, which lives in `client/` so the
 * kubelet records through the same broadcaster and correlator. Re-exported here under the
 * names controllers use.
 */
export {
  type EventBroadcaster,
  type EventBroadcasterDeps as EventRecorderDeps,
  type EventRecorder,
  type EventSource as EventRecorderOptions,
  type EventType,
  type FlushableEventRecorder,
  newEventBroadcaster,
  newEventRecorder,
  referenceTo,
} from "../../client/index.ts";
