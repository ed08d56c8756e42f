import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import {
  applyEndpointsDefaults,
  type EndpointSubset,
  type Endpoints,
  endpointsKind,
  validateEndpoints,
  validateEndpointsUpdate,
} from "./endpoints.ts";

const metadata = { name: "web", namespace: "default" };
const ready = { ip: "10.244.0.5", nodeName: "node-1" };

const cases: { name: string; subsets: EndpointSubset[]; want: string[] }[] = [
  {
    name: "a Service's endpoints",
    subsets: [{ addresses: [ready], ports: [{ name: "http", port: 80, protocol: "TCP" }] }],
    want: [],
  },
  {
    name: "only not-ready addresses, no ports (a headless Service)",
    subsets: [{ notReadyAddresses: [ready] }],
    want: [],
  },
  {
    name: "a subset without addresses",
    subsets: [{ ports: [{ port: 80, protocol: "TCP" }] }],
    want: ["subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`"],
  },
  {
    name: "an address that is not an IP",
    subsets: [{ addresses: [{ ip: "web" }] }],
    want: [
      'subsets[0].addresses[0].ip: Invalid value: "web": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[0].addresses[0].ip: Invalid value: "web": must be a valid IP address',
    ],
  },
  {
    name: "a loopback not-ready address and a bad node name",
    subsets: [{ notReadyAddresses: [{ ip: "127.0.0.1", nodeName: "Node_1" }] }],
    want: [
      "subsets[0].notReadyAddresses[0].nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'subsets[0].notReadyAddresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    ],
  },
  {
    name: "two ports, one without a name",
    subsets: [
      {
        addresses: [ready],
        ports: [
          { name: "http", port: 80, protocol: "TCP" },
          { port: 443, protocol: "TCP" },
        ],
      },
    ],
    want: ["subsets[0].ports[1].name: Required value"],
  },
  {
    name: "a bad port number, protocol and appProtocol",
    subsets: [
      {
        addresses: [ready],
        ports: [{ port: 70000, protocol: "HTTP" as never, appProtocol: "a/b/c" }],
      },
    ],
    want: [
      "subsets[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
      'subsets[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      "subsets[0].ports[0].appProtocol: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  },
];

for (const c of cases) {
  test(`validateEndpoints: ${c.name}`, () => {
    const endpoints: Endpoints = { metadata, subsets: c.subsets };
    assert.deepEqual(validateEndpoints(endpoints).map(fieldErrorString), c.want);
  });
}

test("validateEndpointsUpdate: a changed node name is allowed, the new subsets are checked", () => {
  const old: Endpoints = {
    metadata: { ...metadata, resourceVersion: "1" },
    subsets: [{ addresses: [ready] }],
  };
  const moved: Endpoints = { ...old, subsets: [{ addresses: [{ ...ready, nodeName: "node-2" }] }] };
  assert.deepEqual(validateEndpointsUpdate(moved, old), []);
  const emptied: Endpoints = { ...old, subsets: [{}] };
  assert.deepEqual(validateEndpointsUpdate(emptied, old).map(fieldErrorString), [
    "subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`",
  ]);
});

test("applyEndpointsDefaults: a port without a protocol is TCP", () => {
  const endpoints: Endpoints = {
    metadata,
    subsets: [{ addresses: [ready], ports: [{ port: 80 }] }],
  };
  applyEndpointsDefaults(endpoints);
  assert.equal(endpoints.subsets?.[0]?.ports?.[0]?.protocol, "TCP");
});

test("endpointsKind: served as endpoints, short name ep, no status", () => {
  assert.equal(endpointsKind.resource, "endpoints");
  assert.equal(endpointsKind.singular, "endpoints");
  assert.deepEqual(endpointsKind.shortNames, ["ep"]);
  assert.equal(endpointsKind.subresources.status, false);
});
