// kubectl's columns for networking.k8s.io/v1 ingresses, ingressclasses and networkpolicies, as
// upstream's printIngress (formatHosts, formatPorts, ingressLoadBalancerStatusStringer),
// printIngressClass and printNetworkPolicy (pkg/printers/internalversion/printers.go, 1.33).

import { humanAge } from "./human-duration.ts";
import { ageColumn, column, nameColumn } from "./internal/columns.ts";
import { formatSelectorAt } from "./internal/format.ts";
import { at, list, nameOf, type Obj, optStr, str } from "./internal/read.ts";
import type { TablePrinter } from "./table.ts";

/** How many hosts the HOSTS cell lists before `+ N more...`. */
const maxHosts = 3;
/** `loadBalancerWidth`: ADDRESS is clipped to 16 characters outside `-o wide`. */
const loadBalancerWidth = 16;

/** `formatHosts`: the first three rule hosts, `*` when no rule names one. */
export function formatHosts(ingress: Obj): string {
  const rules = list(ingress, "spec", "rules");
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === maxHosts) more = true;
    const host = optStr(rule, "host") ?? "";
    if (!more && host !== "") hosts.push(host);
  }
  if (hosts.length === 0) return "*";
  const joined = hosts.join(",");
  return more ? `${joined} + ${rules.length - maxHosts} more...` : joined;
}

/** `formatPorts`: `80`, or `80, 443` when the Ingress has any TLS section. */
export function formatIngressPorts(ingress: Obj): string {
  return list(ingress, "spec", "tls").length > 0 ? "80, 443" : "80";
}

/**
 * `ingressLoadBalancerStatusStringer`: the sorted, de-duplicated IPs (else hostnames) of the
 * load-balancer ingress points, clipped to 16 characters unless `wide`.
 */
export function formatIngressAddress(ingress: Obj, wide: boolean): string {
  const addresses = new Set<string>();
  for (const point of list(ingress, "status", "loadBalancer", "ingress")) {
    const ip = optStr(point, "ip") ?? "";
    const hostname = optStr(point, "hostname") ?? "";
    if (ip !== "") addresses.add(ip);
    else if (hostname !== "") addresses.add(hostname);
  }
  const joined = [...addresses].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(",");
  return !wide && joined.length > loadBalancerWidth
    ? `${joined.slice(0, loadBalancerWidth - 3)}...`
    : joined;
}

/** `<kind>[.<apiGroup>]/<name>` of an IngressClass's parameters, `<none>` without them. */
export function formatIngressClassParameters(ingressClass: Obj): string {
  const parameters = at(ingressClass, "spec", "parameters");
  if (parameters === undefined || parameters === null) return "<none>";
  const group = optStr(parameters, "apiGroup");
  const kind = str(parameters, "kind");
  return `${group === undefined ? kind : `${kind}.${group}`}/${str(parameters, "name")}`;
}

function age(object: Obj, now: Date): string {
  return humanAge(at(object, "metadata", "creationTimestamp"), now);
}

/** Printer for ingresses: NAME CLASS HOSTS ADDRESS PORTS AGE. */
export const ingressPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Class",
      "string",
      "The name of the IngressClass resource that should be used for additional configuration",
    ),
    column(
      "Hosts",
      "string",
      "Hosts that incoming requests are matched against before the ingress rule",
    ),
    column(
      "Address",
      "string",
      "Address is a list containing ingress points for the load-balancer",
    ),
    column("Ports", "string", "Ports of TLS configurations that open"),
    ageColumn,
  ],
  printRow: (ingress, now) => ({
    cells: [
      nameOf(ingress),
      optStr(ingress, "spec", "ingressClassName") ?? "<none>",
      formatHosts(ingress),
      // The server's table convertor always generates with Wide: true, so never clipped.
      formatIngressAddress(ingress, true),
      formatIngressPorts(ingress),
      age(ingress, now),
    ],
  }),
};

/** Printer for ingressclasses: NAME CONTROLLER PARAMETERS AGE. */
export const ingressClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Controller", "string", "Controller that is responsible for handling this class"),
    column("Parameters", "string", "A reference to a resource with additional parameters"),
    ageColumn,
  ],
  printRow: (ingressClass, now) => ({
    cells: [
      nameOf(ingressClass),
      str(ingressClass, "spec", "controller"),
      formatIngressClassParameters(ingressClass),
      age(ingressClass, now),
    ],
  }),
};

/** Printer for networkpolicies: NAME POD-SELECTOR AGE. */
export const networkPolicyPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Pod-Selector",
      "string",
      "Selects the pods to which this NetworkPolicy object applies. The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.",
    ),
    ageColumn,
  ],
  printRow: (policy, now) => ({
    cells: [nameOf(policy), formatSelectorAt(policy, "spec", "podSelector"), age(policy, now)],
  }),
};
