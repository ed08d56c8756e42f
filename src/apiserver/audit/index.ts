export { type AuditLog, type AuditLogOptions, type LineWriter, newAuditLog } from "./audit-log.ts";
export {
  type AuditUser,
  eventLine,
  microTime,
  type ObjectReference,
  type ResponseStatus,
  sourceIPsOf,
} from "./event.ts";
export { type AuditLogFileOptions, openAuditLogFile } from "./log-file.ts";
export { type AuditMetrics, newAuditMetrics } from "./metrics.ts";
export {
  type AuditLevel,
  type AuditPolicy,
  type AuditPolicyRule,
  type AuditStage,
  evaluatePolicy,
  type GroupResources,
  parseAuditPolicy,
  type RequestAuditConfig,
  ruleMatches,
} from "./policy.ts";
export {
  type AuditBegin,
  type Auditing,
  type AuditingOptions,
  type AuditSink,
  newAuditing,
  RequestAuditor,
} from "./request-auditor.ts";
