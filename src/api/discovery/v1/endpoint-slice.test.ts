import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { Endpoint, EndpointSlice, EndpointSlicePort } from "./endpoint-slice.ts";
import { applyEndpointSliceDefaults } from "./endpoint-slice-defaults.ts";
import { validateEndpointSlice, validateEndpointSliceUpdate } from "./endpoint-slice-validation.ts";
import { endpointSliceKind } from "./kinds.ts";

const metadata = { name: "web-abcde", namespace: "default" };
const http: EndpointSlicePort = { name: "http", port: 80, protocol: "TCP" };
const pod = (ip: string): Endpoint => ({ addresses: [ip], conditions: { ready: true } });

const slice = (fields: Partial<EndpointSlice>): EndpointSlice => ({
  metadata,
  addressType: "IPv4",
  endpoints: [pod("10.244.0.5")],
  ports: [http],
  ...fields,
});

const cases: { name: string; slice: EndpointSlice; want: string[] }[] = [
  { name: "a controller's slice", slice: slice({}), want: [] },
  {
    name: "an FQDN slice",
    slice: slice({ addressType: "FQDN", endpoints: [pod("web.example.com")] }),
    want: [],
  },
  {
    name: "no address type",
    slice: slice({ addressType: "" as never }),
    want: ["addressType: Required value"],
  },
  {
    name: "the deprecated IP address type on create",
    slice: slice({ addressType: "IP" as never }),
    want: ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"'],
  },
  {
    name: "an IPv6 address in an IPv4 slice, and an endpoint without addresses",
    slice: slice({ endpoints: [pod("fd00::1"), { addresses: [] }] }),
    want: [
      'endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
      "endpoints[1].addresses: Required value: must contain at least 1 address",
    ],
  },
  {
    name: "a link-local IPv6 address",
    slice: slice({ addressType: "IPv6", endpoints: [pod("fe80::1")] }),
    want: [
      'endpoints[0].addresses[0]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    ],
  },
  {
    name: "more than 1000 endpoints",
    slice: slice({ endpoints: Array.from({ length: 1001 }, () => pod("10.0.0.1")) }),
    want: ["endpoints: Too many: 1001: must have at most 1000 items"],
  },
  {
    name: "more than 100 addresses in one endpoint",
    slice: slice({ endpoints: [{ addresses: Array.from({ length: 101 }, () => "10.0.0.1") }] }),
    want: ["endpoints[0].addresses: Too many: 101: must have at most 100 items"],
  },
  {
    name: "more than 100 ports",
    slice: slice({
      ports: Array.from({ length: 101 }, (_, i) => ({
        name: `p${i}`,
        port: i + 1,
        protocol: "TCP",
      })),
    }),
    want: ["ports: Too many: 101: must have at most 100 items"],
  },
  {
    name: "duplicate, invalid and protocol-less ports",
    slice: slice({
      ports: [http, { name: "http", port: 81, protocol: "TCP" }, { name: "Web", port: 82 }],
    }),
    want: [
      'ports[1].name: Duplicate value: "http"',
      "ports[2].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      "ports[2].protocol: Required value",
    ],
  },
  {
    name: "a bad hostname, node name and duplicate zone hints",
    slice: slice({
      endpoints: [
        {
          addresses: ["10.0.0.1"],
          hostname: "Web",
          nodeName: "node_1",
          hints: { forZones: [{ name: "a" }, { name: "a" }] },
        },
      ],
    }),
    want: [
      "endpoints[0].nodeName: Invalid value: \"node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "endpoints[0].hostname: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'endpoints[0].hints.forZones[1].name: Duplicate value: "a"',
    ],
  },
  {
    name: "more than 8 zone hints",
    slice: slice({
      endpoints: [
        {
          addresses: ["10.0.0.1"],
          hints: { forZones: Array.from({ length: 9 }, (_, i) => ({ name: `z${i}` })) },
        },
      ],
    }),
    want: ["endpoints[0].hints.forZones: Too many: 9: must have at most 8 items"],
  },
  {
    name: "the zone label in deprecatedTopology",
    slice: slice({
      endpoints: [
        { addresses: ["10.0.0.1"], deprecatedTopology: { "topology.kubernetes.io/zone": "a" } },
      ],
    }),
    want: [
      "endpoints[0].deprecatedTopology[topology.kubernetes.io/zone]: Internal error: reserved key was not removed in conversion",
    ],
  },
];

for (const c of cases) {
  test(`validateEndpointSlice: ${c.name}`, () => {
    assert.deepEqual(validateEndpointSlice(c.slice).map(fieldErrorString), c.want);
  });
}

test("validateEndpointSliceUpdate: addressType is immutable", () => {
  const old = slice({ metadata: { ...metadata, resourceVersion: "1" } });
  const changed = { ...old, addressType: "IPv6" as const, endpoints: [pod("fd00::1")] };
  assert.deepEqual(validateEndpointSliceUpdate(changed, old).map(fieldErrorString), [
    'addressType: Invalid value: "IPv6": field is immutable',
  ]);
});

test("validateEndpointSliceUpdate: an old slice of the deprecated IP type may be updated", () => {
  const old = slice({
    metadata: { ...metadata, resourceVersion: "1" },
    addressType: "IP" as never,
  });
  assert.deepEqual(validateEndpointSliceUpdate({ ...old, endpoints: [pod("fd00::2")] }, old), []);
});

test("applyEndpointSliceDefaults: ports get an empty name and TCP", () => {
  const s = slice({ ports: [{ port: 80 }] });
  applyEndpointSliceDefaults(s);
  assert.deepEqual(s.ports, [{ name: "", port: 80, protocol: "TCP" }]);
});

test("endpointSliceKind: served as discovery.k8s.io/v1 endpointslices, with generations", () => {
  assert.equal(endpointSliceKind.group, "discovery.k8s.io");
  assert.equal(endpointSliceKind.resource, "endpointslices");
  assert.deepEqual(endpointSliceKind.shortNames, []);
  assert.equal(endpointSliceKind.tracksGeneration, true);
});
