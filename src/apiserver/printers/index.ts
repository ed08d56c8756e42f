// The public surface of apiserver/printers: server-side Table conversion.

export {
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  statefulSetPrinter,
} from "./apps.ts";
export {
  jobPrinter,
  jobStatus,
  leasePrinter,
  podDisruptionBudgetPrinter,
  priorityClassPrinter,
} from "./batch-policy.ts";
export {
  configMapPrinter,
  namespacePrinter,
  replicationControllerPrinter,
  secretPrinter,
  serviceAccountPrinter,
  servicePrinter,
} from "./core.ts";
export { type CustomResourceColumn, crdPrinter, defaultPrinter } from "./default-printer.ts";
export { eventPrinter } from "./event.ts";
export { podGroupPrinter, podGroupStatus, workloadPrinter } from "./gantry.ts";
export { humanAge, humanDuration } from "./human-duration.ts";
export { nodePrinter, nodeRoles } from "./node.ts";
export { podPrinter, printPodRow } from "./pod.ts";
export { limitRangePrinter, resourceQuotaPrinter } from "./quota.ts";
export { builtInPrinters, printerFor, printerKey } from "./registry.ts";
export {
  type ApiObject,
  type IncludeObjectPolicy,
  type PrintedRow,
  partialObjectMetadata,
  type Table,
  type TableCell,
  type TableColumnDefinition,
  type TableListMeta,
  type TableOptions,
  type TablePrinter,
  type TableRow,
  type TableRowCondition,
  toTable,
  type WatchTableOptions,
  watchEventTable,
} from "./table.ts";
