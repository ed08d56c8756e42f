import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  statefulSetPrinter,
} from "./apps.ts";
import {
  cronJobPrinter,
  jobPrinter,
  leasePrinter,
  podDisruptionBudgetPrinter,
  priorityClassPrinter,
} from "./batch-policy.ts";
import {
  configMapPrinter,
  namespacePrinter,
  replicationControllerPrinter,
  secretPrinter,
  serviceAccountPrinter,
  servicePrinter,
} from "./core.ts";
import { defaultPrinter } from "./default-printer.ts";
import { endpointSlicePrinter, endpointsPrinter } from "./endpoints.ts";
import { eventPrinter } from "./event.ts";
import { podGroupPrinter, workloadPrinter } from "./gantry.ts";
import { ingressClassPrinter, ingressPrinter, networkPolicyPrinter } from "./networking.ts";
import { nodePrinter } from "./node.ts";
import { podPrinter } from "./pod.ts";
import { limitRangePrinter, resourceQuotaPrinter } from "./quota.ts";
import { clusterRoleBindingPrinter, roleBindingPrinter, rolePrinter } from "./rbac.ts";
import {
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  podTemplatePrinter,
  storageClassPrinter,
} from "./storage.ts";
import type { TablePrinter } from "./table.ts";

/** The registry key of a resource: `"<group>/<resource>"`, core group empty (`"/pods"`). */
export function printerKey(group: string, resource: string): string {
  return `${group}/${resource}`;
}

/**
 * The printers of the built-in resources, keyed by `printerKey(group, resource)`. Resources not
 * listed use `defaultPrinter`; custom resources use `crdPrinter(columns)`. Returns a new map on
 * each call.
 */
export function builtInPrinters(): ReadonlyMap<string, TablePrinter> {
  return new Map<string, TablePrinter>([
    ["/pods", podPrinter],
    ["/nodes", nodePrinter],
    ["/namespaces", namespacePrinter],
    ["/configmaps", configMapPrinter],
    ["/secrets", secretPrinter],
    ["/services", servicePrinter],
    ["/endpoints", endpointsPrinter],
    ["/serviceaccounts", serviceAccountPrinter],
    ["/events", eventPrinter],
    ["/replicationcontrollers", replicationControllerPrinter],
    ["/resourcequotas", resourceQuotaPrinter],
    ["/limitranges", limitRangePrinter],
    ["/persistentvolumes", persistentVolumePrinter],
    ["/persistentvolumeclaims", persistentVolumeClaimPrinter],
    ["/podtemplates", podTemplatePrinter],
    ["apps/deployments", deploymentPrinter],
    ["apps/replicasets", replicaSetPrinter],
    ["apps/statefulsets", statefulSetPrinter],
    ["apps/daemonsets", daemonSetPrinter],
    ["apps/controllerrevisions", controllerRevisionPrinter],
    ["batch/jobs", jobPrinter],
    ["batch/cronjobs", cronJobPrinter],
    ["networking.k8s.io/ingresses", ingressPrinter],
    ["networking.k8s.io/ingressclasses", ingressClassPrinter],
    ["networking.k8s.io/networkpolicies", networkPolicyPrinter],
    ["policy/poddisruptionbudgets", podDisruptionBudgetPrinter],
    ["coordination.k8s.io/leases", leasePrinter],
    ["discovery.k8s.io/endpointslices", endpointSlicePrinter],
    ["storage.k8s.io/storageclasses", storageClassPrinter],
    ["rbac.authorization.k8s.io/roles", rolePrinter],
    ["rbac.authorization.k8s.io/clusterroles", rolePrinter],
    ["rbac.authorization.k8s.io/rolebindings", roleBindingPrinter],
    ["rbac.authorization.k8s.io/clusterrolebindings", clusterRoleBindingPrinter],
    ["scheduling.k8s.io/priorityclasses", priorityClassPrinter],
    ["scheduling.k8s.io/workloads", workloadPrinter],
    ["scheduling.k8s.io/podgroups", podGroupPrinter],
    ["apiextensions.k8s.io/customresourcedefinitions", defaultPrinter],
  ]);
}

/** The printer for a resource: its built-in one, else the default convertor. */
export function printerFor(
  printers: ReadonlyMap<string, TablePrinter>,
  group: string,
  resource: string,
): TablePrinter {
  return printers.get(printerKey(group, resource)) ?? defaultPrinter;
}
