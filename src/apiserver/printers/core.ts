// kubectl's columns for the smaller core/v1 kinds: namespaces, configmaps, secrets, services,
// serviceaccounts and replicationcontrollers.

import { humanAge } from "./human-duration.ts";
import { ageColumn, column, containerColumns, nameColumn } from "./internal/columns.ts";
import { containerCells, formatLabels } from "./internal/format.ts";
import { at, list, nameOf, num, type Obj, optNum, size, str, stringMap } from "./internal/read.ts";
import type { TableCell, TablePrinter } from "./table.ts";

function age(object: Obj, now: Date): string {
  return humanAge(at(object, "metadata", "creationTimestamp"), now);
}

/** Printer for core/v1 namespaces: NAME STATUS AGE. */
export const namespacePrinter: TablePrinter = {
  columns: [nameColumn, column("Status", "string", "The status of the namespace"), ageColumn],
  printRow: (ns, now) => ({ cells: [nameOf(ns), str(ns, "status", "phase"), age(ns, now)] }),
};

/** Printer for core/v1 configmaps: NAME DATA AGE (DATA counts data and binaryData keys). */
export const configMapPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Data",
      "string",
      "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
    ),
    ageColumn,
  ],
  printRow: (cm, now) => ({
    cells: [nameOf(cm), size(cm, "data") + size(cm, "binaryData"), age(cm, now)],
  }),
};

/** Printer for core/v1 secrets: NAME TYPE DATA AGE. */
export const secretPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Type",
      "string",
      "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
    ),
    column(
      "Data",
      "string",
      "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
    ),
    ageColumn,
  ],
  printRow: (secret, now) => ({
    cells: [nameOf(secret), str(secret, "type"), size(secret, "data"), age(secret, now)],
  }),
};

/** Printer for core/v1 serviceaccounts: NAME SECRETS AGE. */
export const serviceAccountPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Secrets",
      "string",
      "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.",
    ),
    ageColumn,
  ],
  printRow: (sa, now) => ({ cells: [nameOf(sa), list(sa, "secrets").length, age(sa, now)] }),
};

/** `getServiceExternalIP(svc, wide=true)`. */
function externalIp(svc: Obj): string {
  const externalIps = list(svc, "spec", "externalIPs").filter(
    (x): x is string => typeof x === "string",
  );
  switch (str(svc, "spec", "type") || "ClusterIP") {
    case "ClusterIP":
    case "NodePort":
      return externalIps.length > 0 ? externalIps.join(",") : "<none>";
    case "LoadBalancer": {
      const ingress = new Set<string>();
      for (const entry of list(svc, "status", "loadBalancer", "ingress")) {
        const ip = str(entry, "ip");
        const host = str(entry, "hostname");
        if (ip !== "") ingress.add(ip);
        else if (host !== "") ingress.add(host);
      }
      const all = [...ingress, ...externalIps];
      return all.length > 0 ? all.join(",") : "<pending>";
    }
    case "ExternalName":
      return str(svc, "spec", "externalName");
    default:
      return "<unknown>";
  }
}

function servicePorts(svc: Obj): string {
  const ports = list(svc, "spec", "ports").map((p) => {
    const protocol = str(p, "protocol") || "TCP";
    const nodePort = num(p, "nodePort");
    return nodePort > 0
      ? `${num(p, "port")}:${nodePort}/${protocol}`
      : `${num(p, "port")}/${protocol}`;
  });
  return ports.length > 0 ? ports.join(",") : "<none>";
}

/** Printer for core/v1 services: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, wide SELECTOR. */
export const servicePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Type",
      "string",
      "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.",
    ),
    column(
      "Cluster-IP",
      "string",
      "clusterIP is the IP address of the service and is usually assigned randomly.",
    ),
    column(
      "External-IP",
      "string",
      "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.",
    ),
    column(
      "Port(s)",
      "string",
      "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
    ),
    ageColumn,
    column(
      "Selector",
      "string",
      "Route service traffic to pods with label keys and values matching this selector.",
      { priority: 1 },
    ),
  ],
  printRow: (svc, now) => {
    const clusterIps = list(svc, "spec", "clusterIPs");
    const first = typeof clusterIps[0] === "string" ? clusterIps[0] : str(svc, "spec", "clusterIP");
    return {
      cells: [
        nameOf(svc),
        str(svc, "spec", "type") || "ClusterIP",
        first === "" ? "<none>" : first,
        externalIp(svc),
        servicePorts(svc),
        age(svc, now),
        formatLabels(stringMap(svc, "spec", "selector")),
      ],
    };
  },
};

/** Printer for core/v1 replicationcontrollers: NAME DESIRED CURRENT READY AGE, wide template columns. */
export const replicationControllerPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Desired",
      "integer",
      "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
    ),
    column(
      "Current",
      "integer",
      "Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
    ),
    column("Ready", "integer", "The number of ready replicas for this replication controller."),
    ageColumn,
    ...containerColumns,
    column(
      "Selector",
      "string",
      "Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template.",
      { priority: 1 },
    ),
  ],
  printRow: (rc, now) => {
    const [names, images] = containerCells(rc, "spec", "template", "spec");
    const cells: TableCell[] = [
      nameOf(rc),
      optNum(rc, "spec", "replicas") ?? 1,
      num(rc, "status", "replicas"),
      num(rc, "status", "readyReplicas"),
      age(rc, now),
      names,
      images,
      formatLabels(stringMap(rc, "spec", "selector")),
    ];
    return { cells };
  },
};
