// The public surface of autoscaling/v1.
export {
  autoscalingName,
  autoscalingV1Definitions,
  type Scale,
  type ScaleSpec,
  type ScaleStatus,
} from "./scale.ts";
