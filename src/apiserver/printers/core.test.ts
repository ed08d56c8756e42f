import assert from "node:assert/strict";
import { test } from "node:test";
import {
  configMapPrinter,
  namespacePrinter,
  replicationControllerPrinter,
  secretPrinter,
  serviceAccountPrinter,
  servicePrinter,
} from "./core.ts";
import type { TableCell, TablePrinter } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");
const metadata = { name: "x", creationTimestamp: "2024-06-01T09:00:00Z" }; // 3h

const cases: {
  name: string;
  printer: TablePrinter;
  object: Record<string, unknown>;
  want: TableCell[];
}[] = [
  {
    name: "namespace phase",
    printer: namespacePrinter,
    object: { metadata, status: { phase: "Terminating" } },
    want: ["x", "Terminating", "3h"],
  },
  {
    name: "configmap counts data and binaryData",
    printer: configMapPrinter,
    object: { metadata, data: { a: "1", b: "2" }, binaryData: { c: "AA==" } },
    want: ["x", 3, "3h"],
  },
  {
    name: "secret type and data",
    printer: secretPrinter,
    object: { metadata, type: "Opaque", data: { token: "dA==" } },
    want: ["x", "Opaque", 1, "3h"],
  },
  {
    name: "serviceaccount secrets count",
    printer: serviceAccountPrinter,
    object: { metadata },
    want: ["x", 0, "3h"],
  },
  {
    name: "ClusterIP service",
    printer: servicePrinter,
    object: {
      metadata,
      spec: {
        type: "ClusterIP",
        clusterIP: "10.96.0.10",
        clusterIPs: ["10.96.0.10"],
        ports: [
          { port: 53, protocol: "UDP" },
          { port: 53, protocol: "TCP" },
        ],
        selector: { "k8s-app": "kube-dns", tier: "a" },
      },
    },
    want: [
      "x",
      "ClusterIP",
      "10.96.0.10",
      "<none>",
      "53/UDP,53/TCP",
      "3h",
      "k8s-app=kube-dns,tier=a",
    ],
  },
  {
    name: "NodePort service shows node ports",
    printer: servicePrinter,
    object: {
      metadata,
      spec: {
        type: "NodePort",
        clusterIP: "10.96.1.1",
        ports: [{ port: 80, nodePort: 30080, protocol: "TCP" }],
      },
    },
    want: ["x", "NodePort", "10.96.1.1", "<none>", "80:30080/TCP", "3h", "<none>"],
  },
  {
    name: "pending LoadBalancer and headless without ports",
    printer: servicePrinter,
    object: { metadata, spec: { type: "LoadBalancer", clusterIP: "None" } },
    want: ["x", "LoadBalancer", "None", "<pending>", "<none>", "3h", "<none>"],
  },
  {
    name: "LoadBalancer ingress then external IPs",
    printer: servicePrinter,
    object: {
      metadata,
      spec: {
        type: "LoadBalancer",
        clusterIPs: ["10.0.0.1"],
        externalIPs: ["1.2.3.4"],
        ports: [{ port: 443 }],
      },
      status: { loadBalancer: { ingress: [{ ip: "5.6.7.8" }, { hostname: "lb.example.com" }] } },
    },
    want: [
      "x",
      "LoadBalancer",
      "10.0.0.1",
      "5.6.7.8,lb.example.com,1.2.3.4",
      "443/TCP",
      "3h",
      "<none>",
    ],
  },
  {
    name: "ExternalName service",
    printer: servicePrinter,
    object: { metadata, spec: { type: "ExternalName", externalName: "db.example.com" } },
    want: ["x", "ExternalName", "<none>", "db.example.com", "<none>", "3h", "<none>"],
  },
  {
    name: "replicationcontroller",
    printer: replicationControllerPrinter,
    object: {
      metadata,
      spec: {
        replicas: 3,
        selector: { app: "web" },
        template: {
          spec: {
            containers: [
              { name: "app", image: "nginx:1" },
              { name: "log", image: "fluent" },
            ],
          },
        },
      },
      status: { replicas: 3, readyReplicas: 2 },
    },
    want: ["x", 3, 3, 2, "3h", "app,log", "nginx:1,fluent", "app=web"],
  },
];

for (const c of cases) {
  test(`corePrinters.printRow: ${c.name}`, () => {
    const row = c.printer.printRow(c.object, now);
    assert.deepEqual(row.cells, c.want);
    assert.equal(row.cells.length, c.printer.columns.length);
  });
}
