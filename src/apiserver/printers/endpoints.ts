// kubectl's columns for core/v1 endpoints and discovery.k8s.io/v1 endpointslices, as upstream's
// printEndpoints (formatEndpoints) and printEndpointSlice (formatDiscoveryPorts/Endpoints).

import { humanAge } from "./human-duration.ts";
import { ageColumn, column, nameColumn } from "./internal/columns.ts";
import { at, list, nameOf, type Obj, optNum, optStr, str } from "./internal/read.ts";
import type { TablePrinter } from "./table.ts";

/** How many addresses or ports a cell lists before `+ N more...`. */
const shown = 3;

/** `net.JoinHostPort`: IPv6 hosts in brackets. */
function joinHostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** `formatEndpoints(endpoints, nil)`: ready `ip:port` pairs, `<none>` without subsets. */
export function formatEndpoints(endpoints: Obj): string {
  const subsets = list(endpoints, "subsets");
  if (subsets.length === 0) return "<none>";
  const out: string[] = [];
  let more = false;
  let count = 0;
  for (const subset of subsets) {
    const addresses = list(subset, "addresses").map((a) => str(a, "ip"));
    const ports = list(subset, "ports");
    // A headless Service's endpoints may have no ports: the addresses alone.
    const entries =
      ports.length === 0
        ? [addresses]
        : ports.map((p) => addresses.map((ip) => joinHostPort(ip, optNum(p, "port") ?? 0)));
    for (const group of entries) {
      count += group.length;
      for (const entry of group) {
        if (out.length === shown) {
          more = true;
          break;
        }
        out.push(entry);
      }
    }
  }
  const joined = out.join(",");
  return more ? `${joined} + ${count - shown} more...` : joined;
}

/** `listWithMoreString`. */
function listWithMore(items: readonly string[]): string {
  const joined = items.slice(0, shown).join(",");
  if (items.length > shown) return `${joined} + ${items.length - shown} more...`;
  return joined === "" ? "<unset>" : joined;
}

/** `formatDiscoveryPorts`: each port's number, else its name, else `*`. */
export function formatDiscoveryPorts(slice: Obj): string {
  return listWithMore(
    list(slice, "ports").map((p) => {
      const port = optNum(p, "port");
      if (port !== undefined) return String(port);
      return optStr(p, "name") ?? "*";
    }),
  );
}

/** `formatDiscoveryEndpoints`: every address of every endpoint. */
export function formatDiscoveryEndpoints(slice: Obj): string {
  return listWithMore(
    list(slice, "endpoints").flatMap((e) =>
      list(e, "addresses").filter((a): a is string => typeof a === "string"),
    ),
  );
}

function age(object: Obj, now: Date): string {
  return humanAge(at(object, "metadata", "creationTimestamp"), now);
}

/** Printer for core/v1 endpoints: NAME ENDPOINTS AGE. */
export const endpointsPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Endpoints",
      "string",
      "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.",
    ),
    ageColumn,
  ],
  printRow: (endpoints, now) => ({
    cells: [nameOf(endpoints), formatEndpoints(endpoints), age(endpoints, now)],
  }),
};

/** Printer for discovery.k8s.io/v1 endpointslices: NAME ADDRESSTYPE PORTS ENDPOINTS AGE. */
export const endpointSlicePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "AddressType",
      "string",
      "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.",
    ),
    column(
      "Ports",
      "string",
      'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.',
    ),
    column(
      "Endpoints",
      "string",
      "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.",
    ),
    ageColumn,
  ],
  printRow: (slice, now) => ({
    cells: [
      nameOf(slice),
      str(slice, "addressType"),
      formatDiscoveryPorts(slice),
      formatDiscoveryEndpoints(slice),
      age(slice, now),
    ],
  }),
};
