// kubectl's apps/v1 columns: deployments, replicasets, statefulsets, daemonsets.

import { humanAge } from "./human-duration.ts";
import { ageColumn, column, containerColumns, nameColumn } from "./internal/columns.ts";
import {
  containerCells,
  formatLabels,
  formatSelectorAt,
  selectorStringAt,
} from "./internal/format.ts";
import { at, nameOf, num, type Obj, optNum, stringMap } from "./internal/read.ts";
import type { TablePrinter } from "./table.ts";

function age(object: Obj, now: Date): string {
  return humanAge(at(object, "metadata", "creationTimestamp"), now);
}

/** `spec.replicas`, which the apiserver defaults to 1. */
function desired(object: Obj): number {
  return optNum(object, "spec", "replicas") ?? 1;
}

/** Printer for deployments: NAME READY UP-TO-DATE AVAILABLE AGE, wide CONTAINERS IMAGES SELECTOR. */
export const deploymentPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Ready", "string", "Number of the pod with ready state"),
    column(
      "Up-to-date",
      "string",
      "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
    ),
    column(
      "Available",
      "string",
      "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
    ),
    ageColumn,
    ...containerColumns,
    column(
      "Selector",
      "string",
      "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
      { priority: 1 },
    ),
  ],
  printRow: (d, now) => {
    const [names, images] = containerCells(d, "spec", "template", "spec");
    return {
      cells: [
        nameOf(d),
        `${num(d, "status", "readyReplicas")}/${desired(d)}`,
        num(d, "status", "updatedReplicas"),
        num(d, "status", "availableReplicas"),
        age(d, now),
        names,
        images,
        selectorStringAt(d, "spec", "selector"),
      ],
    };
  },
};

/** Printer for replicasets: NAME DESIRED CURRENT READY AGE, wide CONTAINERS IMAGES SELECTOR. */
export const replicaSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Desired",
      "integer",
      "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#replicaset",
    ),
    column(
      "Current",
      "integer",
      "Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#replicaset",
    ),
    column(
      "Ready",
      "integer",
      "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.",
    ),
    ageColumn,
    ...containerColumns,
    column(
      "Selector",
      "string",
      "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
      { priority: 1 },
    ),
  ],
  printRow: (rs, now) => {
    const [names, images] = containerCells(rs, "spec", "template", "spec");
    return {
      cells: [
        nameOf(rs),
        desired(rs),
        num(rs, "status", "replicas"),
        num(rs, "status", "readyReplicas"),
        age(rs, now),
        names,
        images,
        formatSelectorAt(rs, "spec", "selector"),
      ],
    };
  },
};

/** Printer for statefulsets: NAME READY AGE, wide CONTAINERS IMAGES. */
export const statefulSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Ready", "string", "Number of the pod with ready state"),
    ageColumn,
    ...containerColumns,
  ],
  printRow: (ss, now) => {
    const [names, images] = containerCells(ss, "spec", "template", "spec");
    return {
      cells: [
        nameOf(ss),
        `${num(ss, "status", "readyReplicas")}/${desired(ss)}`,
        age(ss, now),
        names,
        images,
      ],
    };
  },
};

/**
 * Printer for daemonsets: NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE,
 * wide CONTAINERS IMAGES SELECTOR.
 */
export const daemonSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Desired",
      "integer",
      "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
    ),
    column(
      "Current",
      "integer",
      "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
    ),
    column(
      "Ready",
      "integer",
      "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.",
    ),
    column(
      "Up-to-date",
      "integer",
      "The total number of nodes that are running updated daemon pod",
    ),
    column(
      "Available",
      "integer",
      "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
    ),
    column(
      "Node Selector",
      "string",
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    ),
    ageColumn,
    ...containerColumns,
    column(
      "Selector",
      "string",
      "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
      { priority: 1 },
    ),
  ],
  printRow: (ds, now) => {
    const [names, images] = containerCells(ds, "spec", "template", "spec");
    return {
      cells: [
        nameOf(ds),
        num(ds, "status", "desiredNumberScheduled"),
        num(ds, "status", "currentNumberScheduled"),
        num(ds, "status", "numberReady"),
        num(ds, "status", "updatedNumberScheduled"),
        num(ds, "status", "numberAvailable"),
        formatLabels(stringMap(ds, "spec", "template", "spec", "nodeSelector")),
        age(ds, now),
        names,
        images,
        formatSelectorAt(ds, "spec", "selector"),
      ],
    };
  },
};

/** `formatResourceName` of the controlling owner: `statefulset.apps/web`, or `<none>`. */
function controllerName(object: Obj): string {
  const refs = at(object, "metadata", "ownerReferences");
  if (!Array.isArray(refs)) return "<none>";
  const ref = refs.find((r: unknown) => at(r, "controller") === true) as Obj | undefined;
  if (ref === undefined) return "<none>";
  const apiVersion = typeof ref["apiVersion"] === "string" ? ref["apiVersion"] : "";
  const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
  const kind = typeof ref["kind"] === "string" ? ref["kind"] : "";
  const groupKind = group === "" ? kind : `${kind}.${group}`;
  return `${groupKind.toLowerCase()}/${typeof ref["name"] === "string" ? ref["name"] : ""}`;
}

/** Printer for controllerrevisions: NAME CONTROLLER REVISION AGE. */
export const controllerRevisionPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Controller", "string", "Controller of the object"),
    column(
      "Revision",
      "string",
      "Revision indicates the revision of the state represented by Data.",
    ),
    ageColumn,
  ],
  printRow: (revision, now) => ({
    cells: [
      nameOf(revision),
      controllerName(revision),
      num(revision, "revision"),
      age(revision, now),
    ],
  }),
};
