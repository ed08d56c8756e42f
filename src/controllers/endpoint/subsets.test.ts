import assert from "node:assert/strict";
import { test } from "node:test";
import type { EndpointSubset, Pod, Service, ServiceSpec } from "../../api/index.ts";
import { computeEndpointSubsets, truncateSubsets } from "./subsets.ts";

const ready = [{ type: "Ready", status: "True" as const }];
const pod = (name: string, ip: string, ports: { name: string; containerPort: number }[]): Pod => ({
  metadata: { name, namespace: "default", uid: `uid-${name}` },
  spec: { nodeName: "n1", containers: [{ name: "c", image: "i", ports }] },
  status: { phase: "Running", podIP: ip, conditions: ready },
});
const ref = (name: string) => ({ kind: "Pod", namespace: "default", name, uid: `uid-${name}` });
const service = (spec: ServiceSpec): Service => ({
  metadata: { name: "web", namespace: "default" },
  spec,
});

const cases: { name: string; service: Service; pods: Pod[]; want: EndpointSubset[] }[] = [
  {
    name: "two ports every pod offers share one subset, addresses sorted by IP",
    service: service({
      selector: { app: "web" },
      ports: [
        { name: "https", port: 443, targetPort: 8443, protocol: "TCP" },
        { name: "http", port: 80, targetPort: 8080, protocol: "TCP" },
      ],
    }),
    pods: [pod("b", "10.0.0.10", []), pod("a", "10.0.0.9", [])],
    want: [
      {
        addresses: [
          { ip: "10.0.0.9", nodeName: "n1", targetRef: ref("a") },
          { ip: "10.0.0.10", nodeName: "n1", targetRef: ref("b") },
        ],
        ports: [
          { name: "http", port: 8080, protocol: "TCP" },
          { name: "https", port: 8443, protocol: "TCP" },
        ],
      },
    ],
  },
  {
    name: "a named port resolves per pod: different numbers make different subsets, a pod without it is left out",
    service: service({
      selector: { app: "web" },
      ports: [{ port: 80, targetPort: "http", protocol: "TCP" }],
    }),
    pods: [
      pod("a", "10.0.0.1", [{ name: "http", containerPort: 8080 }]),
      pod("b", "10.0.0.2", [{ name: "http", containerPort: 9090 }]),
      pod("c", "10.0.0.3", [{ name: "web", containerPort: 8080 }]),
    ],
    want: [
      {
        addresses: [{ ip: "10.0.0.1", nodeName: "n1", targetRef: ref("a") }],
        ports: [{ name: "", port: 8080, protocol: "TCP" }],
      },
      {
        addresses: [{ ip: "10.0.0.2", nodeName: "n1", targetRef: ref("b") }],
        ports: [{ name: "", port: 9090, protocol: "TCP" }],
      },
    ],
  },
  {
    name: "a headless Service without ports lists bare addresses",
    service: service({ selector: { app: "web" }, clusterIP: "None" }),
    pods: [pod("a", "10.0.0.1", [])],
    want: [{ addresses: [{ ip: "10.0.0.1", nodeName: "n1", targetRef: ref("a") }] }],
  },
  {
    name: "a Service with a cluster IP and no ports gets no subsets",
    service: service({ selector: { app: "web" }, clusterIP: "10.96.0.10" }),
    pods: [pod("a", "10.0.0.1", [])],
    want: [],
  },
];

for (const c of cases) {
  test(`computeEndpointSubsets: ${c.name}`, () => {
    assert.deepEqual(computeEndpointSubsets(c.service, c.pods), c.want);
  });
}

test("truncateSubsets: past 1000 ready addresses each subset keeps its share and no not-ready ones", () => {
  const addresses = (n: number, base: number) =>
    Array.from({ length: n }, (_, i) => ({ ip: `10.${base}.${Math.floor(i / 250)}.${i % 250}` }));
  const subsets: EndpointSubset[] = [
    { addresses: addresses(900, 1), notReadyAddresses: addresses(5, 3) },
    { addresses: addresses(300, 2) },
  ];
  assert.equal(truncateSubsets(subsets), true);
  assert.equal(subsets[0]?.addresses?.length, 750);
  assert.equal(subsets[0]?.notReadyAddresses, undefined);
  assert.equal(subsets[1]?.addresses?.length, 250);
});

test("truncateSubsets: at most 1000 addresses are kept as they are", () => {
  const subsets: EndpointSubset[] = [{ addresses: [{ ip: "10.0.0.1" }] }];
  assert.equal(truncateSubsets(subsets), false);
  assert.equal(subsets[0]?.addresses?.length, 1);
});
