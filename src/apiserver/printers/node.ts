// kubectl's node columns (printNode): STATUS from the Ready condition, ROLES from labels.

import { humanAge } from "./human-duration.ts";
import { ageColumn, column, nameColumn } from "./internal/columns.ts";
import { at, bool, list, nameOf, type Obj, str, stringMap } from "./internal/read.ts";
import type { PrintedRow, TablePrinter } from "./table.ts";

const addressesDescription =
  "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses";

const columns = [
  nameColumn,
  column("Status", "string", "The status of the node"),
  column("Roles", "string", "The roles of the node"),
  ageColumn,
  column("Version", "string", "Kubelet Version reported by the node."),
  column("Internal-IP", "string", addressesDescription, { priority: 1 }),
  column("External-IP", "string", addressesDescription, { priority: 1 }),
  column(
    "OS-Image",
    "string",
    "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
    { priority: 1 },
  ),
  column(
    "Kernel-Version",
    "string",
    "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
    { priority: 1 },
  ),
  column(
    "Container-Runtime",
    "string",
    "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
    { priority: 1 },
  ),
] as const;

const rolePrefix = "node-role.kubernetes.io/";
const legacyRoleLabel = "kubernetes.io/role";

/** Roles from `node-role.kubernetes.io/<role>` keys and `kubernetes.io/role=<role>`, sorted. */
export function nodeRoles(node: Obj): string[] {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(stringMap(node, "metadata", "labels"))) {
    if (key.startsWith(rolePrefix)) {
      const role = key.slice(rolePrefix.length);
      if (role !== "") roles.add(role);
    } else if (key === legacyRoleLabel && value !== "") {
      roles.add(value);
    }
  }
  return [...roles].sort();
}

function address(node: Obj, type: string): string {
  const found = list(node, "status", "addresses").find((a) => str(a, "type") === type);
  return found === undefined ? "<none>" : str(found, "address");
}

function orUnknown(value: string): string {
  return value === "" ? "<unknown>" : value;
}

/** `printNode`: one row of `kubectl get nodes`. */
export function printNodeRow(node: Obj, now: Date): PrintedRow {
  // Only the Ready condition is reported; the last entry of a type wins, as upstream's map does.
  const ready = list(node, "status", "conditions")
    .filter((c) => str(c, "type") === "Ready")
    .at(-1);
  const status: string[] = [];
  if (ready === undefined) status.push("Unknown");
  else status.push(str(ready, "status") === "True" ? "Ready" : "NotReady");
  if (bool(node, "spec", "unschedulable")) status.push("SchedulingDisabled");

  const roles = nodeRoles(node).join(",");
  const info = (field: string): string => str(node, "status", "nodeInfo", field);
  return {
    cells: [
      nameOf(node),
      status.join(","),
      roles === "" ? "<none>" : roles,
      humanAge(at(node, "metadata", "creationTimestamp"), now),
      info("kubeletVersion"),
      address(node, "InternalIP"),
      address(node, "ExternalIP"),
      orUnknown(info("osImage")),
      orUnknown(info("kernelVersion")),
      orUnknown(info("containerRuntimeVersion")),
    ],
  };
}

/** Printer for core/v1 nodes. */
export const nodePrinter: TablePrinter = { columns, printRow: printNodeRow };
