import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { applyNetworkPolicyDefaults } from "./defaults.ts";
import type { NetworkPolicy, NetworkPolicySpec } from "./network-policy.ts";
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from "./network-policy-validation.ts";

const metadata = { name: "deny", namespace: "default", resourceVersion: "1" };
const policy = (spec: NetworkPolicySpec): NetworkPolicy => ({ metadata, spec });

const defaults: { name: string; spec: NetworkPolicySpec; want: NetworkPolicySpec }[] = [
  {
    name: "an empty spec selects every pod and is an Ingress policy",
    spec: {},
    want: { podSelector: {}, policyTypes: ["Ingress"] },
  },
  {
    name: "egress rules add Egress; ports default to TCP",
    spec: {
      podSelector: { matchLabels: { app: "web" } },
      ingress: [{ ports: [{ port: 80 }] }],
      egress: [{ ports: [{ port: 53, protocol: "UDP" }, { port: "dns" }] }],
    },
    want: {
      podSelector: { matchLabels: { app: "web" } },
      ingress: [{ ports: [{ port: 80, protocol: "TCP" }] }],
      egress: [
        {
          ports: [
            { port: 53, protocol: "UDP" },
            { port: "dns", protocol: "TCP" },
          ],
        },
      ],
      policyTypes: ["Ingress", "Egress"],
    },
  },
  {
    name: "given policyTypes are kept (an egress-only policy)",
    spec: { podSelector: {}, policyTypes: ["Egress"] },
    want: { podSelector: {}, policyTypes: ["Egress"] },
  },
  {
    name: "an empty egress list does not add Egress",
    spec: { podSelector: {}, egress: [] },
    want: { podSelector: {}, egress: [], policyTypes: ["Ingress"] },
  },
];

for (const c of defaults) {
  test(`applyNetworkPolicyDefaults: ${c.name}`, () => {
    const p = policy(structuredClone(c.spec));
    applyNetworkPolicyDefaults(p);
    assert.deepEqual(p.spec, c.want);
  });
}

const cases: { name: string; spec: NetworkPolicySpec; want: string[] }[] = [
  {
    name: "a default-deny policy",
    spec: { podSelector: {}, policyTypes: ["Ingress", "Egress"] },
    want: [],
  },
  {
    name: "ports: numbers, names, ranges",
    spec: {
      podSelector: {},
      ingress: [
        {
          ports: [
            { protocol: "TCP", port: 80 },
            { protocol: "UDP", port: "dns" },
            { protocol: "TCP", port: 32000, endPort: 32768 },
            { protocol: "SCTP" },
          ],
        },
      ],
    },
    want: [],
  },
  {
    name: "an unknown protocol and an out-of-range port",
    spec: { podSelector: {}, ingress: [{ ports: [{ protocol: "ICMP" as never, port: 0 }] }] },
    want: [
      'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
      "spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
    ],
  },
  {
    name: "endPort below port, with a named port, and without a port",
    spec: {
      podSelector: {},
      egress: [
        {
          ports: [{ port: 100, endPort: 99 }, { port: "http", endPort: 90 }, { endPort: 90 }],
        },
      ],
    },
    want: [
      "spec.egress[0].ports[0].endPort: Invalid value: 99: must be greater than or equal to `port`",
      "spec.egress[0].ports[1].endPort: Invalid value: 90: may not be specified when `port` is non-numeric",
      "spec.egress[0].ports[2].endPort: Invalid value: 90: may not be specified when `port` is not specified",
    ],
  },
  {
    name: "a peer without anything, and an ipBlock with a selector",
    spec: {
      podSelector: {},
      ingress: [{ from: [{}, { ipBlock: { cidr: "10.0.0.0/8" }, podSelector: {} }] }],
    },
    want: [
      "spec.ingress[0].from[0]: Required value: must specify a peer",
      "spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer",
    ],
  },
  {
    name: "pod and namespace selectors together are one peer",
    spec: {
      podSelector: {},
      ingress: [{ from: [{ podSelector: { matchLabels: { app: "a" } }, namespaceSelector: {} }] }],
    },
    want: [],
  },
  {
    name: "ipBlock: a missing cidr, a bad cidr, except outside or equal to the cidr",
    spec: {
      podSelector: {},
      egress: [
        {
          to: [
            { ipBlock: { cidr: "" } },
            { ipBlock: { cidr: "10.0.0.0/33" } },
            {
              ipBlock: {
                cidr: "10.0.0.0/16",
                except: ["10.0.1.0/24", "10.1.0.0/24", "10.0.0.0/16", "nope", "fd00::/120", ""],
              },
            },
          ],
        },
      ],
    },
    want: [
      "spec.egress[0].to[0].ipBlock.cidr: Required value",
      'spec.egress[0].to[1].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.egress[0].to[2].ipBlock.except[1]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
      'spec.egress[0].to[2].ipBlock.except[2]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`',
      'spec.egress[0].to[2].ipBlock.except[3]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.egress[0].to[2].ipBlock.except[4]: Invalid value: "fd00::/120": must be a strict subset of `cidr`',
      "spec.egress[0].to[2].ipBlock.except[5]: Required value",
    ],
  },
  {
    name: "IPv6 blocks and a host bit set in the cidr (accepted by 1.33's sloppy parse)",
    spec: {
      podSelector: {},
      ingress: [{ from: [{ ipBlock: { cidr: "fd00::1/64", except: ["fd00::/96"] } }] }],
    },
    want: [],
  },
  {
    name: "a bad selector label value",
    spec: { podSelector: { matchLabels: { app: "bad value" } } },
    want: [
      "spec.podSelector.matchLabels: Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  },
  {
    name: "an unknown policy type",
    spec: { podSelector: {}, policyTypes: ["Ingress", "Both" as never] },
    want: ['spec.policyTypes[1]: Unsupported value: "Both": supported values: "Ingress", "Egress"'],
  },
  {
    name: "more than two policy types",
    spec: { podSelector: {}, policyTypes: ["Ingress", "Egress", "Ingress"] },
    want: [
      'spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes',
    ],
  },
];

for (const c of cases) {
  test(`validateNetworkPolicy: ${c.name}`, () => {
    assert.deepEqual(validateNetworkPolicy(policy(c.spec)).map(fieldErrorString), c.want);
  });
}

test("validateNetworkPolicyUpdate: the spec is validated again and may change", () => {
  const old = policy({ podSelector: {}, policyTypes: ["Ingress"] });
  assert.deepEqual(
    validateNetworkPolicyUpdate(policy({ podSelector: {}, policyTypes: ["Egress"] }), old).map(
      fieldErrorString,
    ),
    [],
  );
  assert.deepEqual(
    validateNetworkPolicyUpdate(
      policy({ podSelector: {}, ingress: [{ from: [{}] }], policyTypes: ["Ingress"] }),
      old,
    ).map(fieldErrorString),
    ["spec.ingress[0].from[0]: Required value: must specify a peer"],
  );
});
