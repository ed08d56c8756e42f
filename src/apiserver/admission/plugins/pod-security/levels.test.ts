import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString } from "../../../../api/index.ts";
import { defaultPodSecurityConfiguration } from "./configuration.ts";
import { levelVersionString, type Policy, policyToEvaluate } from "./levels.ts";

const defaults = defaultPodSecurityConfiguration.defaults;

function show(p: Policy): string {
  return `enforce=${levelVersionString(p.enforce)} audit=${levelVersionString(p.audit)} warn=${levelVersionString(p.warn)}`;
}

const cases = [
  {
    name: "no labels: the defaults",
    labels: {},
    want: "enforce=privileged:latest audit=privileged:latest warn=privileged:latest",
    errors: [],
  },
  {
    name: "every label",
    labels: {
      "pod-security.kubernetes.io/enforce": "baseline",
      "pod-security.kubernetes.io/enforce-version": "v1.25",
      "pod-security.kubernetes.io/audit": "restricted",
      "pod-security.kubernetes.io/audit-version": "v1.0",
      "pod-security.kubernetes.io/warn": "restricted",
      "pod-security.kubernetes.io/warn-version": "latest",
    },
    want: "enforce=baseline:v1.25 audit=restricted:v1.0 warn=restricted:latest",
    errors: [],
  },
  {
    name: "an invalid enforce level fails closed to restricted",
    labels: { "pod-security.kubernetes.io/enforce": "strict" },
    want: "enforce=restricted:latest audit=privileged:latest warn=privileged:latest",
    errors: [
      'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    ],
  },
  {
    name: "invalid audit and warn levels fail open to privileged",
    labels: {
      "pod-security.kubernetes.io/audit": "Restricted",
      "pod-security.kubernetes.io/warn": "",
    },
    want: "enforce=privileged:latest audit=privileged:latest warn=privileged:latest",
    errors: [
      'metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "Restricted": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "": must be one of privileged, baseline, restricted',
    ],
  },
  {
    name: "invalid versions mean latest",
    labels: {
      "pod-security.kubernetes.io/enforce": "baseline",
      "pod-security.kubernetes.io/enforce-version": "1.25",
      "pod-security.kubernetes.io/warn-version": "v1.01",
      "pod-security.kubernetes.io/audit-version": "v2.0",
    },
    want: "enforce=baseline:latest audit=privileged:latest warn=privileged:latest",
    errors: [
      'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "1.25": must be "latest" or "v1.x"',
      'metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "v2.0": must be "latest" or "v1.x"',
      'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v1.01": must be "latest" or "v1.x"',
    ],
  },
  {
    name: "a version label alone keeps the default level",
    labels: { "pod-security.kubernetes.io/enforce-version": "v1.30" },
    want: "enforce=privileged:v1.30 audit=privileged:latest warn=privileged:latest",
    errors: [],
  },
] as const;

for (const c of cases) {
  test(`policyToEvaluate: ${c.name}`, () => {
    const { policy, errors } = policyToEvaluate(c.labels, defaults);
    assert.equal(show(policy), c.want);
    assert.deepEqual(errors.map(fieldErrorString), c.errors);
  });
}

test("policyToEvaluate: labels fall back to configured defaults, not to privileged", () => {
  const { policy } = policyToEvaluate(
    { "pod-security.kubernetes.io/warn": "baseline" },
    {
      enforce: { level: "baseline", version: { latest: false, minor: 30 } },
      audit: { level: "restricted", version: { latest: true } },
      warn: { level: "restricted", version: { latest: true } },
    },
  );
  assert.equal(show(policy), "enforce=baseline:v1.30 audit=restricted:latest warn=baseline:latest");
});
