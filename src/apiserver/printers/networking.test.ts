import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatIngressAddress,
  ingressClassPrinter,
  ingressPrinter,
  networkPolicyPrinter,
} from "./networking.ts";
import type { TableCell, TablePrinter } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");
const metadata = { name: "web", creationTimestamp: "2024-06-01T11:55:00Z" }; // 5m
const rule = (host?: string) => ({
  ...(host === undefined ? {} : { host }),
  http: { paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: "s" } } }] },
});

const cases: {
  name: string;
  printer: TablePrinter;
  object: Record<string, unknown>;
  want: TableCell[];
}[] = [
  {
    name: "ingress from kubectl create ingress: no class, one host, port 80",
    printer: ingressPrinter,
    object: { metadata, spec: { rules: [rule("foo.com")] }, status: { loadBalancer: {} } },
    want: ["web", "<none>", "foo.com", "", "80", "5m"],
  },
  {
    name: "ingress without hosts prints *, TLS adds 443, the class is printed",
    printer: ingressPrinter,
    object: {
      metadata,
      spec: { ingressClassName: "nginx", rules: [rule()], tls: [{ secretName: "tls" }] },
    },
    want: ["web", "nginx", "*", "", "80, 443", "5m"],
  },
  {
    name: "ingress with only a default backend prints *",
    printer: ingressPrinter,
    object: { metadata, spec: { defaultBackend: { service: { name: "s" } } } },
    want: ["web", "<none>", "*", "", "80", "5m"],
  },
  {
    name: "ingress past three hosts says how many more rules",
    printer: ingressPrinter,
    object: {
      metadata,
      spec: { rules: [rule("a.com"), rule(), rule("b.com"), rule("c.com"), rule("d.com")] },
    },
    want: ["web", "<none>", "a.com,b.com,c.com + 2 more...", "", "80", "5m"],
  },
  {
    name: "ingress addresses: IPs, else hostnames, sorted and de-duplicated",
    printer: ingressPrinter,
    object: {
      metadata,
      spec: { rules: [rule("foo.com")] },
      status: {
        loadBalancer: {
          ingress: [
            { ip: "10.0.0.2" },
            { hostname: "lb.example.com" },
            { ip: "10.0.0.1", hostname: "ignored.example.com" },
            { ip: "10.0.0.2" },
          ],
        },
      },
    },
    want: ["web", "<none>", "foo.com", "10.0.0.1,10.0.0.2,lb.example.com", "80", "5m"],
  },
  {
    name: "ingressclass without parameters",
    printer: ingressClassPrinter,
    object: { metadata, spec: { controller: "k8s.io/ingress-nginx" } },
    want: ["web", "k8s.io/ingress-nginx", "<none>", "5m"],
  },
  {
    name: "ingressclass parameters: kind.apiGroup/name",
    printer: ingressClassPrinter,
    object: {
      metadata,
      spec: {
        controller: "acme.io/lb",
        parameters: { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "cfg" },
      },
    },
    want: ["web", "acme.io/lb", "IngressParameters.k8s.example.com/cfg", "5m"],
  },
  {
    name: "ingressclass parameters in the core group: kind/name",
    printer: ingressClassPrinter,
    object: {
      metadata,
      spec: { controller: "acme.io/lb", parameters: { kind: "ConfigMap", name: "cfg" } },
    },
    want: ["web", "acme.io/lb", "ConfigMap/cfg", "5m"],
  },
  {
    name: "networkpolicy with an empty selector prints <none>",
    printer: networkPolicyPrinter,
    object: { metadata, spec: { podSelector: {}, policyTypes: ["Ingress"] } },
    want: ["web", "<none>", "5m"],
  },
  {
    name: "networkpolicy selector labels and expressions",
    printer: networkPolicyPrinter,
    object: {
      metadata,
      spec: {
        podSelector: {
          matchLabels: { app: "web" },
          matchExpressions: [{ key: "tier", operator: "In", values: ["a", "b"] }],
        },
      },
    },
    want: ["web", "app=web,tier in (a,b)", "5m"],
  },
];

for (const c of cases) {
  test(`networkingPrinters.printRow: ${c.name}`, () => {
    const row = c.printer.printRow(c.object, now);
    assert.deepEqual(row.cells, c.want);
    assert.equal(row.cells.length, c.printer.columns.length, "one cell per column");
  });
}

test("formatIngressAddress: clipped to 16 characters only when not wide", () => {
  const ingress = {
    status: { loadBalancer: { ingress: [{ ip: "10.0.0.1" }, { ip: "10.0.0.2" }] } },
  };
  assert.equal(formatIngressAddress(ingress, true), "10.0.0.1,10.0.0.2");
  assert.equal(formatIngressAddress(ingress, false), "10.0.0.1,10.0...");
});

test("networkingPrinters.columns: upstream's headers", () => {
  assert.deepEqual(
    ingressPrinter.columns.map((c) => c.name),
    ["Name", "Class", "Hosts", "Address", "Ports", "Age"],
  );
  assert.deepEqual(
    ingressClassPrinter.columns.map((c) => c.name),
    ["Name", "Controller", "Parameters", "Age"],
  );
  assert.deepEqual(
    networkPolicyPrinter.columns.map((c) => c.name),
    ["Name", "Pod-Selector", "Age"],
  );
});
