// gantry's own columns for scheduling.k8s.io workloads and podgroups (no upstream printer exists;
// see README.md for the design). Fields are read across the Workload/PodGroup API revisions
// (1.35 `podGroups`, 1.36 `podGroupTemplates`/`podGroupTemplateRef`, 1.37 `workloadRef`).

import { humanAge } from "./human-duration.ts";
import { ageColumn, column, nameColumn } from "./internal/columns.ts";
import { at, isDeleting, list, nameOf, type Obj, obj, optNum, str } from "./internal/read.ts";
import type { TablePrinter } from "./table.ts";

function age(object: Obj, now: Date): string {
  return humanAge(at(object, "metadata", "creationTimestamp"), now);
}

/** `Gang(minCount=4)`, `Basic`, or `<none>` for a scheduling policy object. */
export function policyText(policy: unknown): string {
  const minCount = optNum(policy, "gang", "minCount");
  if (minCount !== undefined) return `Gang(minCount=${minCount})`;
  if (at(policy, "gang") !== undefined) return "Gang";
  if (at(policy, "basic") !== undefined) return "Basic";
  return "<none>";
}

function groupsOf(workload: Obj): readonly unknown[] {
  const templates = list(workload, "spec", "podGroupTemplates");
  return templates.length > 0 ? templates : list(workload, "spec", "podGroups");
}

function controllerText(workload: Obj): string {
  const ref = obj(workload, "spec", "controllerRef");
  const name = str(ref, "name");
  if (name === "") return "<none>";
  const kind = str(ref, "kind").toLowerCase();
  const group = str(ref, "apiGroup");
  return `${group === "" ? kind : `${kind}.${group}`}/${name}`;
}

/** Printer for workloads: NAME POD-GROUPS AGE, wide CONTROLLER and POLICIES. */
export const workloadPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Pod-Groups", "string", "Names of the pod groups (templates) this workload declares."),
    ageColumn,
    column("Controller", "string", "The object that manages this workload (spec.controllerRef).", {
      priority: 1,
    }),
    column("Policies", "string", "Scheduling policy of each pod group, in the same order.", {
      priority: 1,
    }),
  ],
  printRow: (workload, now) => {
    const groups = groupsOf(workload);
    const names = groups.map((g) => str(g, "name")).join(",");
    const policies = groups
      .map((g) => policyText(at(g, "schedulingPolicy") ?? at(g, "policy")))
      .join(",");
    return {
      cells: [
        nameOf(workload),
        names === "" ? "<none>" : names,
        age(workload, now),
        controllerText(workload),
        policies === "" ? "<none>" : policies,
      ],
    };
  },
};

const scheduledConditionTypes = ["PodGroupScheduled", "PodGroupInitiallyScheduled"];

function scheduledCondition(group: Obj): unknown {
  return list(group, "status", "conditions").find((c) =>
    scheduledConditionTypes.includes(str(c, "type")),
  );
}

/** The WORKLOAD and TEMPLATE a pod group was stamped from, `<none>` for user-managed groups. */
function templateRef(group: Obj): [string, string] {
  // gantry's v1alpha1 shape first (spec.workloadRef.name, spec.podGroupTemplateName), then the
  // names upstream's v1alpha2 and v1beta1 use, so manifests written for either still print.
  const v1alpha2 = obj(group, "spec", "podGroupTemplateRef", "workload");
  const ref = obj(group, "spec", "workloadRef");
  const workload = str(ref, "name") || str(v1alpha2, "workloadName") || str(ref, "workloadName");
  const template =
    str(obj(group, "spec"), "podGroupTemplateName") ||
    str(v1alpha2, "podGroupTemplateName") ||
    str(ref, "templateName");
  return [workload || "<none>", template || "<none>"];
}

/** The STATUS cell of a pod group. */
export function podGroupStatus(group: Obj): string {
  if (isDeleting(group)) return "Terminating";
  const condition = scheduledCondition(group);
  if (condition === undefined) return "Pending";
  const reason = str(condition, "reason");
  if (reason !== "") return reason;
  return str(condition, "status") === "True" ? "Scheduled" : "Pending";
}

/** Printer for podgroups: NAME WORKLOAD TEMPLATE SCHEDULED STATUS AGE, wide POLICY. */
export const podGroupPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Workload", "string", "The Workload this pod group was created from."),
    column("Template", "string", "The pod group template of that Workload."),
    column(
      "Scheduled",
      "string",
      "Status of the PodGroupScheduled condition: True once the group's pods were placed together.",
    ),
    column(
      "Status",
      "string",
      "Reason of the scheduling condition (Scheduled, Unschedulable, SchedulerError), Pending before the first attempt, or Terminating.",
    ),
    ageColumn,
    column("Policy", "string", "The scheduling policy: Gang(minCount=N) or Basic.", {
      priority: 1,
    }),
  ],
  printRow: (group, now) => {
    const [workload, template] = templateRef(group);
    const condition = scheduledCondition(group);
    return {
      cells: [
        nameOf(group),
        workload,
        template,
        condition === undefined ? "Unknown" : str(condition, "status") || "Unknown",
        podGroupStatus(group),
        age(group, now),
        policyText(at(group, "spec", "schedulingPolicy") ?? at(group, "spec", "policy")),
      ],
    };
  },
};
