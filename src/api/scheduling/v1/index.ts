// The public surface of scheduling.k8s.io/v1.
export { defaultPriorityClass, priorityClassKind, schedulingV1Kinds } from "./kinds.ts";
export {
  highestUserDefinablePriority,
  type PreemptionPolicy,
  type PriorityClass,
  systemPriorityClasses,
  systemPriorityClassPrefix,
} from "./priority-class.ts";
export { validatePriorityClass, validatePriorityClassUpdate } from "./priority-class-validation.ts";
export { schedulingV1Definitions, schedulingV1Name } from "./schema.ts";
