export {
  defaultPodSecurityConfiguration,
  type PodSecurityConfiguration,
  type PodSecurityExemptions,
  parsePodSecurityConfiguration,
} from "./configuration.ts";
export { type Evaluator, newEvaluator } from "./evaluator.ts";
export { newPodSecurity, type PodSecurityOptions } from "./pod-security.ts";
