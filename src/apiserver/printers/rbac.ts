// kubectl's columns for roles, clusterroles, rolebindings and clusterrolebindings
// (rbac.authorization.k8s.io/v1), as upstream's printRole / printRoleBinding.

import { humanAge } from "./human-duration.ts";
import { ageColumn, column, creationTimestampDescription, nameColumn } from "./internal/columns.ts";
import { at, list, nameOf, type Obj, str } from "./internal/read.ts";
import type { TablePrinter } from "./table.ts";

/** NAME CREATED AT: the creation time in RFC 3339 (UTC, seconds), not humanized. */
export const rolePrinter: TablePrinter = {
  columns: [nameColumn, column("Created At", "date", creationTimestampDescription)],
  printRow: (role) => {
    const created = Date.parse(str(role, "metadata", "creationTimestamp"));
    return {
      cells: [
        nameOf(role),
        Number.isNaN(created) ? "" : new Date(created).toISOString().replace(/\.\d+Z$/, "Z"),
      ],
    };
  },
};

/** `rbac.SubjectsStrings`: users, groups and `namespace/name` service accounts. */
function subjectCells(binding: Obj): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const subject of list(binding, "subjects")) {
    const name = str(subject, "name");
    switch (str(subject, "kind")) {
      case "User":
        users.push(name);
        break;
      case "Group":
        groups.push(name);
        break;
      case "ServiceAccount":
        serviceAccounts.push(`${str(subject, "namespace")}/${name}`);
        break;
      default:
        break;
    }
  }
  return [users.join(", "), groups.join(", "), serviceAccounts.join(", ")];
}

function bindingPrinter(kind: "roleBinding" | "clusterRoleBinding"): TablePrinter {
  return {
    columns: [
      nameColumn,
      column(
        "Role",
        "string",
        kind === "roleBinding"
          ? "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable."
          : "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
      ),
      ageColumn,
      column("Users", "string", `Users in the ${kind}`, { priority: 1 }),
      column("Groups", "string", `Groups in the ${kind}`, { priority: 1 }),
      column("ServiceAccounts", "string", `ServiceAccounts in the ${kind}`, { priority: 1 }),
    ],
    printRow: (binding, now) => ({
      cells: [
        nameOf(binding),
        `${str(binding, "roleRef", "kind")}/${str(binding, "roleRef", "name")}`,
        humanAge(at(binding, "metadata", "creationTimestamp"), now),
        ...subjectCells(binding),
      ],
    }),
  };
}

/** NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS. */
export const roleBindingPrinter: TablePrinter = bindingPrinter("roleBinding");
export const clusterRoleBindingPrinter: TablePrinter = bindingPrinter("clusterRoleBinding");
