import assert from "node:assert/strict";
import { test } from "node:test";
import type { ApiError, KubeObject } from "../../../../api/index.ts";
import type { JsonObject } from "../../../../util/index.ts";
import type { AdmissionAttributes, AdmissionDecision, ObjectReader } from "../../admission.ts";
import { defaultPodSecurityConfiguration, type PodSecurityConfiguration } from "./configuration.ts";
import { newEvaluator } from "./evaluator.ts";
import { type NamespaceCheckDeps, validateNamespace } from "./namespace-policy.ts";

function pod(name: string, spec: object, extra: object = {}): JsonObject {
  return { metadata: { name, namespace: "team-a", ...extra }, spec } as JsonObject;
}

const bare = { containers: [{ name: "c", image: "nginx" }] };
const privileged = { containers: [{ name: "c", securityContext: { privileged: true } }] };
const hostNet = { hostNetwork: true, containers: [{ name: "c" }] };
const compliant = {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
  containers: [
    {
      name: "c",
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
    },
  ],
};

function deps(pods: JsonObject[], overrides: Partial<NamespaceCheckDeps> = {}): NamespaceCheckDeps {
  const reader: ObjectReader = {
    get: () => undefined,
    getFresh: async () => undefined,
    list: (segment, namespace) =>
      segment === "pods"
        ? pods.filter((p) => (p["metadata"] as { namespace?: string }).namespace === namespace)
        : [],
  };
  return {
    reader,
    configuration: defaultPodSecurityConfiguration,
    evaluator: newEvaluator(),
    now: () => new Date(0),
    maxPodsToCheck: 3000,
    podCheckTimeoutMs: 1000,
    ...overrides,
  };
}

function namespace(labels: Record<string, string>): KubeObject {
  return { metadata: { name: "team-a", labels } } as KubeObject;
}

function request(
  operation: "CREATE" | "UPDATE",
  labels: Record<string, string>,
  oldLabels: Record<string, string> = {},
): AdmissionAttributes {
  return {
    operation,
    group: "",
    version: "v1",
    kind: "Namespace",
    resource: "namespaces",
    subresource: "",
    namespace: "",
    name: "team-a",
    object: namespace(labels),
    oldObject: operation === "UPDATE" ? namespace(oldLabels) : undefined,
    dryRun: false,
    userInfo: { username: "admin", groups: [] },
  };
}

function outcome(d: AdmissionDecision): string | readonly string[] {
  return d.allowed ? (d.warnings ?? []) : `${(d.error as ApiError).code} ${d.error.message}`;
}

const enforce = (level: string) => ({ "pod-security.kubernetes.io/enforce": level });

test("validateNamespace: creating a namespace with invalid labels is a 422 naming each label", () => {
  const d = validateNamespace(
    deps([]),
    request("CREATE", {
      "pod-security.kubernetes.io/enforce": "strict",
      "pod-security.kubernetes.io/warn-version": "1.30",
    }),
  );
  assert.equal(
    outcome(d),
    '422 Namespace "team-a" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]',
  );
  assert.ok(!d.allowed, "denied");
  assert.deepEqual(d.error.toStatus().details?.causes?.[0], {
    reason: "FieldValueInvalid",
    message: 'Invalid value: "strict": must be one of privileged, baseline, restricted',
    field: "metadata.labels[pod-security.kubernetes.io/enforce]",
  });
});

test("validateNamespace: an update may keep labels that were already invalid", () => {
  const bad = enforce("strict");
  assert.deepEqual(
    outcome(validateNamespace(deps([]), request("UPDATE", { ...bad, a: "b" }, bad))),
    [],
  );
  assert.equal(
    outcome(validateNamespace(deps([]), request("UPDATE", enforce("Strict"), bad))),
    '422 Namespace "team-a" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "Strict": must be one of privileged, baseline, restricted',
  );
});

test("validateNamespace: raising enforce warns about existing pods, grouped by violation", () => {
  const pods = [
    pod("web-2", bare),
    pod("web-1", bare),
    pod("web-3", bare),
    pod("db", privileged),
    pod("cache", hostNet),
    pod("cache-2", hostNet),
    pod("ok", compliant),
  ];
  assert.deepEqual(
    outcome(validateNamespace(deps(pods), request("UPDATE", enforce("restricted")))),
    [
      'existing pods in namespace "team-a" violate the new PodSecurity enforce level "restricted:latest"',
      "cache (and 1 other pod): host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
      "db: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
      "web-1 (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
    ],
  );
});

test("validateNamespace: no warnings when every existing pod complies", () => {
  assert.deepEqual(
    outcome(
      validateNamespace(deps([pod("ok", compliant)]), request("UPDATE", enforce("restricted"))),
    ),
    [],
  );
});

const skipCases = [
  {
    name: "the enforce policy is unchanged",
    labels: { ...enforce("baseline"), a: "b" },
    old: enforce("baseline"),
  },
  { name: "the new level is privileged", labels: enforce("privileged"), old: enforce("baseline") },
  { name: "the level is relaxed", labels: enforce("baseline"), old: enforce("restricted") },
] as const;

for (const c of skipCases) {
  test(`validateNamespace: existing pods are not checked when ${c.name}`, () => {
    const d = validateNamespace(deps([pod("db", privileged)]), request("UPDATE", c.labels, c.old));
    assert.deepEqual(outcome(d), []);
  });
}

test("validateNamespace: a new enforce version re-checks pods even at the same level", () => {
  const probeHost = {
    containers: [{ name: "c", livenessProbe: { httpGet: { host: "h", port: 1 } } }],
  };
  const d = validateNamespace(
    deps([pod("p", probeHost)]),
    request("UPDATE", enforce("baseline"), {
      ...enforce("baseline"),
      "pod-security.kubernetes.io/enforce-version": "v1.33",
    }),
  );
  assert.deepEqual(outcome(d), [
    'existing pods in namespace "team-a" violate the new PodSecurity enforce level "baseline:latest"',
    "p: probe or lifecycle host",
  ]);
});

test("validateNamespace: one pod per controller first, so the limit sees distinct workloads", () => {
  const owned = (name: string, uid: string, spec: object) =>
    pod(name, spec, {
      ownerReferences: [
        { apiVersion: "apps/v1", kind: "ReplicaSet", name: uid, uid, controller: true },
      ],
    });
  const pods = [
    owned("rs1-a", "rs1", bare),
    owned("rs1-b", "rs1", bare),
    owned("rs1-c", "rs1", bare),
    owned("rs2-a", "rs2", privileged),
  ];
  const d = validateNamespace(
    deps(pods, { maxPodsToCheck: 2 }),
    request("UPDATE", enforce("baseline")),
  );
  assert.deepEqual(outcome(d), [
    "new PodSecurity enforce level only checked against the first 2 of 4 existing pods",
    'existing pods in namespace "team-a" violate the new PodSecurity enforce level "baseline:latest"',
    "rs2-a: privileged",
  ]);
});

test("validateNamespace: the check of existing pods stops when its time is up", () => {
  let t = 0;
  const slowClock = (): Date => {
    t += 400;
    return new Date(t);
  };
  const pods = ["a", "b", "c", "d", "e"].map((n) => pod(n, privileged));
  const d = validateNamespace(
    deps(pods, { now: slowClock, podCheckTimeoutMs: 1000 }),
    request("UPDATE", enforce("baseline")),
  );
  assert.deepEqual(outcome(d), [
    // The clock reads 400 ms later each time: a, b and c fit in the 1 s budget.
    "new PodSecurity enforce level only checked against the first 3 of 5 existing pods",
    'existing pods in namespace "team-a" violate the new PodSecurity enforce level "baseline:latest"',
    "a (and 2 other pods): privileged",
  ]);
});

const exemptConfig: PodSecurityConfiguration = {
  ...defaultPodSecurityConfiguration,
  exemptions: { usernames: [], runtimeClasses: ["kata"], namespaces: ["team-a"] },
};

test("validateNamespace: an exempt namespace is told its policy will be ignored", () => {
  const labels = {
    ...enforce("restricted"),
    "pod-security.kubernetes.io/warn": "baseline",
    "pod-security.kubernetes.io/audit": "privileged",
  };
  const d = validateNamespace(
    deps([pod("db", privileged)], { configuration: exemptConfig }),
    request("UPDATE", labels),
  );
  assert.deepEqual(outcome(d), [
    'namespace "team-a" is exempt from Pod Security, and the policy (enforce=restricted:latest, warn=baseline:latest) will be ignored',
  ]);
});

test("validateNamespace: pods of an exempt runtime class are not counted", () => {
  const kata = { ...privileged, runtimeClassName: "kata" };
  const d = validateNamespace(
    deps([pod("vm", kata), pod("db", privileged)], {
      configuration: {
        ...exemptConfig,
        exemptions: { ...exemptConfig.exemptions, namespaces: [] },
      },
    }),
    request("UPDATE", enforce("baseline")),
  );
  assert.deepEqual(outcome(d), [
    'existing pods in namespace "team-a" violate the new PodSecurity enforce level "baseline:latest"',
    "db: privileged",
  ]);
});
