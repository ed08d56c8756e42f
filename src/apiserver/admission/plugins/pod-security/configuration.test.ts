import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString } from "../../../../api/index.ts";
import { parsePodSecurityConfiguration } from "./configuration.ts";
import { levelVersionString } from "./levels.ts";

const head = {
  apiVersion: "pod-security.admission.config.k8s.io/v1",
  kind: "PodSecurityConfiguration",
};

function parse(value: object): string | readonly string[] {
  const result = parsePodSecurityConfiguration(value);
  if ("errors" in result) return result.errors.map(fieldErrorString);
  const { defaults, exemptions } = result.configuration;
  return `enforce=${levelVersionString(defaults.enforce)} audit=${levelVersionString(defaults.audit)} warn=${levelVersionString(defaults.warn)} users=${exemptions.usernames.join(",")} classes=${exemptions.runtimeClasses.join(",")} namespaces=${exemptions.namespaces.join(",")}`;
}

const cases = [
  {
    name: "empty configuration: privileged defaults, no exemptions",
    value: head,
    want: "enforce=privileged:latest audit=privileged:latest warn=privileged:latest users= classes= namespaces=",
  },
  {
    name: "defaults and exemptions",
    value: {
      ...head,
      defaults: {
        enforce: "baseline",
        "enforce-version": "v1.30",
        audit: "restricted",
        warn: "restricted",
        "warn-version": "latest",
      },
      exemptions: {
        usernames: ["system:serviceaccount:kube-system:replicaset-controller"],
        runtimeClasses: ["kata-containers"],
        namespaces: ["kube-system"],
      },
    },
    want: "enforce=baseline:v1.30 audit=restricted:latest warn=restricted:latest users=system:serviceaccount:kube-system:replicaset-controller classes=kata-containers namespaces=kube-system",
  },
  {
    name: "older API versions are read the same way",
    value: {
      ...head,
      apiVersion: "pod-security.admission.config.k8s.io/v1beta1",
      defaults: { warn: "baseline" },
    },
    want: "enforce=privileged:latest audit=privileged:latest warn=baseline:latest users= classes= namespaces=",
  },
  {
    name: "invalid levels and versions, in upstream's order",
    value: {
      ...head,
      defaults: { enforce: "strict", audit: "nope", "warn-version": "1.2" },
    },
    want: [
      'defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted',
      'defaults.warn-version: Invalid value: "1.2": must be "latest" or "v1.x"',
      'defaults.audit: Invalid value: "nope": must be one of privileged, baseline, restricted',
    ],
  },
  {
    name: "invalid and duplicate exemptions",
    value: {
      ...head,
      exemptions: {
        namespaces: ["Bad_NS", "ok", "ok"],
        runtimeClasses: ["a..b"],
        usernames: ["", "u", "u"],
      },
    },
    want: [
      "exemptions.namespaces[0]: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'exemptions.namespaces[2]: Duplicate value: "ok"',
      "exemptions.runtimeClasses[0]: Invalid value: \"a..b\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "exemptions.usernames[0]: Required value",
      'exemptions.usernames[2]: Duplicate value: "u"',
    ],
  },
  {
    name: "the wrong kind",
    value: { apiVersion: "v1", kind: "ConfigMap" },
    want: [
      'apiVersion: Invalid value: "v1": must be one of pod-security.admission.config.k8s.io/v1, pod-security.admission.config.k8s.io/v1beta1, pod-security.admission.config.k8s.io/v1alpha1',
      'kind: Invalid value: "ConfigMap": must be PodSecurityConfiguration',
    ],
  },
] as const;

for (const c of cases) {
  test(`parsePodSecurityConfiguration: ${c.name}`, () => {
    assert.deepEqual(parse(c.value), c.want);
  });
}
