export {
  type AdmissionAttributes,
  AdmissionChain,
  type AdmissionDecision,
  type AdmissionOperation,
  type AdmissionPlugin,
  admit,
  type ObjectReader,
  type UserInfo,
} from "./admission.ts";
export { newGangAdmission } from "./plugins/gang-admission.ts";
export {
  defaultPodSecurityConfiguration,
  newPodSecurity,
  type PodSecurityConfiguration,
  parsePodSecurityConfiguration,
} from "./plugins/pod-security/index.ts";
