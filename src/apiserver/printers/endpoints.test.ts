import assert from "node:assert/strict";
import { test } from "node:test";
import { endpointSlicePrinter, endpointsPrinter } from "./endpoints.ts";
import type { TableCell, TablePrinter } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");
const metadata = { name: "web", creationTimestamp: "2024-06-01T11:55:00Z" }; // 5m

const address = (ip: string) => ({ ip });
const port = (n: number, name?: string) => ({ port: n, protocol: "TCP", name });
const endpoint = (...addresses: string[]) => ({ addresses, conditions: { ready: true } });

const cases: {
  name: string;
  printer: TablePrinter;
  object: Record<string, unknown>;
  want: TableCell[];
}[] = [
  {
    name: "endpoints without subsets print <none>",
    printer: endpointsPrinter,
    object: { metadata },
    want: ["web", "<none>", "5m"],
  },
  {
    name: "endpoints list each ready address with each port",
    printer: endpointsPrinter,
    object: {
      metadata,
      subsets: [{ addresses: [address("10.0.0.1"), address("10.0.0.2")], ports: [port(80)] }],
    },
    want: ["web", "10.0.0.1:80,10.0.0.2:80", "5m"],
  },
  {
    name: "endpoints past three addresses say how many more",
    printer: endpointsPrinter,
    object: {
      metadata,
      subsets: [
        {
          addresses: ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"].map(address),
          ports: [port(80, "http"), port(443, "https")],
        },
      ],
    },
    want: ["web", "10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 5 more...", "5m"],
  },
  {
    name: "endpoints of a headless service without ports print the bare addresses",
    printer: endpointsPrinter,
    object: { metadata, subsets: [{ addresses: [address("10.0.0.1")] }] },
    want: ["web", "10.0.0.1", "5m"],
  },
  {
    name: "endpoints with only not-ready addresses print an empty cell",
    printer: endpointsPrinter,
    object: {
      metadata,
      subsets: [{ notReadyAddresses: [address("10.0.0.1")], ports: [port(80)] }],
    },
    want: ["web", "", "5m"],
  },
  {
    name: "endpoints join IPv6 addresses in brackets",
    printer: endpointsPrinter,
    object: { metadata, subsets: [{ addresses: [address("fd00::1")], ports: [port(80)] }] },
    want: ["web", "[fd00::1]:80", "5m"],
  },
  {
    name: "endpointslice with ports and addresses",
    printer: endpointSlicePrinter,
    object: {
      metadata,
      addressType: "IPv4",
      ports: [port(80, "")],
      endpoints: [endpoint("10.0.0.1"), endpoint("10.0.0.2")],
    },
    want: ["web", "IPv4", "80", "10.0.0.1,10.0.0.2", "5m"],
  },
  {
    name: "endpointslice without ports or endpoints prints <unset>",
    printer: endpointSlicePrinter,
    object: { metadata, addressType: "IPv4", ports: null, endpoints: null },
    want: ["web", "IPv4", "<unset>", "<unset>", "5m"],
  },
  {
    name: "endpointslice ports without a number print the name, else *",
    printer: endpointSlicePrinter,
    object: {
      metadata,
      addressType: "IPv4",
      ports: [{ name: "http" }, {}, { port: 53 }, { port: 54 }],
      endpoints: [],
    },
    want: ["web", "IPv4", "http,*,53 + 1 more...", "<unset>", "5m"],
  },
  {
    name: "endpointslice past three addresses says how many more",
    printer: endpointSlicePrinter,
    object: {
      metadata,
      addressType: "IPv4",
      ports: [port(80)],
      endpoints: [endpoint("10.0.0.1", "10.0.0.2"), endpoint("10.0.0.3"), endpoint("10.0.0.4")],
    },
    want: ["web", "IPv4", "80", "10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...", "5m"],
  },
];

for (const c of cases) {
  test(`endpointPrinters.printRow: ${c.name}`, () => {
    const row = c.printer.printRow(c.object, now);
    assert.deepEqual(row.cells, c.want);
    assert.equal(row.cells.length, c.printer.columns.length, "one cell per column");
  });
}

test("endpointPrinters.columns: upstream's headers", () => {
  assert.deepEqual(
    endpointsPrinter.columns.map((c) => c.name),
    ["Name", "Endpoints", "Age"],
  );
  assert.deepEqual(
    endpointSlicePrinter.columns.map((c) => c.name),
    ["Name", "AddressType", "Ports", "Endpoints", "Age"],
  );
});
