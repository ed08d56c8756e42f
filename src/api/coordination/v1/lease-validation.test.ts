import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { leaseKind } from "./kinds.ts";
import type { LeaseSpec } from "./lease.ts";
import { validateLease } from "./lease-validation.ts";

const cases: { name: string; spec: LeaseSpec; want: string[] }[] = [
  {
    name: "a renewed lease",
    spec: {
      holderIdentity: "node-1",
      leaseDurationSeconds: 40,
      renewTime: "2026-01-01T00:00:00.000000Z",
    },
    want: [],
  },
  {
    name: "a zero duration",
    spec: { leaseDurationSeconds: 0 },
    want: ["spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0"],
  },
  {
    name: "negative transitions",
    spec: { leaseTransitions: -1 },
    want: ["spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"],
  },
  {
    name: "a preferred holder without a strategy",
    spec: { preferredHolder: "node-2" },
    want: ["spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined"],
  },
  {
    name: "an unknown unprefixed strategy",
    spec: { strategy: "Newest" },
    want: [
      'spec.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
    ],
  },
];

for (const c of cases) {
  test(`validateLease: ${c.name}`, () => {
    const lease = { metadata: { name: "node-1", namespace: "kube-node-lease" }, spec: c.spec };
    assert.deepEqual(validateLease(lease).map(fieldErrorString), c.want);
  });
}

test("leaseKind: served as leases with no short names and no status", () => {
  assert.equal(leaseKind.resource, "leases");
  assert.deepEqual(leaseKind.shortNames, []);
  assert.equal(leaseKind.subresources.status, false);
});
