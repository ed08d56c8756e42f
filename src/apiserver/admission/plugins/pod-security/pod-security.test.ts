import assert from "node:assert/strict";
import { test } from "node:test";
import type { ApiError, KubeObject } from "../../../../api/index.ts";
import type { JsonObject } from "../../../../util/index.ts";
import type { AdmissionAttributes, AdmissionDecision, ObjectReader } from "../../admission.ts";
import type { PodSecurityConfiguration } from "./configuration.ts";
import { newPodSecurity, type PodSecurityOptions } from "./pod-security.ts";

const clock = { now: () => new Date("2026-01-01T00:00:00Z") };

/** An ObjectReader over fixed namespaces and pods (the plugin's only view of the cluster). */
function readerOf(namespaces: Record<string, Record<string, string>>, pods: JsonObject[] = []) {
  const ns = (name: string): JsonObject | undefined =>
    name in namespaces ? { metadata: { name, labels: namespaces[name] ?? {} } } : undefined;
  const reader: ObjectReader = {
    get: (segment, _namespace, name) => (segment === "namespaces" ? ns(name) : undefined),
    getFresh: async (segment, _namespace, name) =>
      segment === "namespaces" ? ns(name) : undefined,
    list: (segment, namespace) =>
      segment === "pods"
        ? pods.filter((p) => (p["metadata"] as { namespace?: string }).namespace === namespace)
        : [],
  };
  return reader;
}

interface Request {
  readonly operation?: AdmissionAttributes["operation"];
  readonly group?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly object?: object;
  readonly oldObject?: object;
  readonly username?: string;
}

function attributes(r: Request): AdmissionAttributes {
  const resource = r.resource ?? "pods";
  return {
    operation: r.operation ?? "CREATE",
    group: r.group ?? "",
    version: "v1",
    kind: "",
    resource,
    subresource: r.subresource ?? "",
    namespace: r.namespace ?? "ns",
    name: r.name ?? "p",
    object: r.object as KubeObject | undefined,
    oldObject: r.oldObject as KubeObject | undefined,
    dryRun: false,
    userInfo: { username: r.username ?? "alice", groups: [] },
  };
}

async function validate(
  reader: ObjectReader,
  r: Request,
  options: Partial<PodSecurityOptions> = {},
): Promise<AdmissionDecision> {
  const plugin = newPodSecurity(reader, { clock, ...options });
  const a = attributes(r);
  assert.ok(plugin.handles(a), "the plugin handles the request");
  const decision = await plugin.validate?.(a);
  assert.ok(decision !== undefined, "PodSecurity validates");
  return decision;
}

/** `allowed`, or `<code> <message>`; plus warnings and audit annotations. */
function summary(d: AdmissionDecision): {
  result: string;
  warnings: readonly string[];
  annotations: Readonly<Record<string, string>>;
} {
  return {
    result: d.allowed ? "allowed" : `${(d.error as ApiError).code} ${d.error.message}`,
    warnings: d.allowed ? (d.warnings ?? []) : [],
    annotations: d.auditAnnotations ?? {},
  };
}

const label = (mode: string, value: string) => ({ [`pod-security.kubernetes.io/${mode}`]: value });

const barePod = { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "nginx" }] } };
const privilegedPod = {
  metadata: { name: "p" },
  spec: { containers: [{ name: "c", image: "nginx", securityContext: { privileged: true } }] },
};
const restrictedDetail =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

test("PodSecurity.validate: enforce refuses a violating pod with upstream's 403", async () => {
  const d = await validate(readerOf({ ns: label("enforce", "restricted") }), { object: barePod });
  assert.deepEqual(summary(d), {
    result: `403 pods "p" is forbidden: violates PodSecurity "restricted:latest": ${restrictedDetail}`,
    warnings: [],
    annotations: { "pod-security.kubernetes.io/enforce-policy": "restricted:latest" },
  });
  assert.ok(!d.allowed, "denied");
  assert.deepEqual(d.error.toStatus().details, { name: "p", kind: "pods" });
});

test("PodSecurity.validate: warn mode admits with a would-violate warning", async () => {
  const d = await validate(readerOf({ ns: label("warn", "baseline") }), { object: privilegedPod });
  assert.deepEqual(summary(d), {
    result: "allowed",
    warnings: [
      'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
    ],
    annotations: { "pod-security.kubernetes.io/enforce-policy": "privileged:latest" },
  });
});

test("PodSecurity.validate: audit mode records the violation as an audit annotation", async () => {
  const d = await validate(readerOf({ ns: label("audit", "restricted") }), { object: barePod });
  assert.deepEqual(summary(d), {
    result: "allowed",
    warnings: [],
    annotations: {
      "pod-security.kubernetes.io/enforce-policy": "privileged:latest",
      "pod-security.kubernetes.io/audit-violations": `would violate PodSecurity "restricted:latest": ${restrictedDetail}`,
    },
  });
});

test("PodSecurity.validate: a denied pod gets no warnings, only the error", async () => {
  const labels = { ...label("enforce", "baseline"), ...label("warn", "restricted") };
  const d = await validate(readerOf({ ns: labels }), { object: privilegedPod });
  assert.equal(d.allowed, false);
  assert.equal(summary(d).warnings.length, 0);
});

test("PodSecurity.validate: a compliant pod passes restricted enforce, audit and warn", async () => {
  const labels = {
    ...label("enforce", "restricted"),
    ...label("audit", "restricted"),
    ...label("warn", "restricted"),
  };
  const pod = {
    metadata: { name: "p" },
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
      containers: [
        {
          name: "c",
          image: "nginx",
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
        },
      ],
    },
  };
  assert.deepEqual(summary(await validate(readerOf({ ns: labels }), { object: pod })), {
    result: "allowed",
    warnings: [],
    annotations: { "pod-security.kubernetes.io/enforce-policy": "restricted:latest" },
  });
});

test("PodSecurity.validate: the enforce version picks the policy revision", async () => {
  const pod = {
    metadata: { name: "p" },
    spec: {
      containers: [{ name: "c", livenessProbe: { httpGet: { host: "10.0.0.1", port: 80 } } }],
    },
  };
  const old = { ...label("enforce", "baseline"), ...label("enforce-version", "v1.33") };
  assert.equal(summary(await validate(readerOf({ ns: old }), { object: pod })).result, "allowed");
  const current = label("enforce", "baseline");
  assert.equal(
    summary(await validate(readerOf({ ns: current }), { object: pod })).result,
    '403 pods "p" is forbidden: violates PodSecurity "baseline:latest": probe or lifecycle host (container "c" uses probe or lifecycle host "10.0.0.1")',
  );
});

test("PodSecurity.validate: a namespace with a bad enforce label enforces restricted and says why", async () => {
  const d = await validate(readerOf({ ns: label("enforce", "strict") }), { object: barePod });
  assert.deepEqual(summary(d), {
    result: `403 pods "p" is forbidden: violates PodSecurity "restricted:latest": ${restrictedDetail}`,
    warnings: [],
    annotations: {
      "pod-security.kubernetes.io/error":
        'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
      "pod-security.kubernetes.io/enforce-policy": "restricted:latest",
    },
  });
});

const exemptions: PodSecurityConfiguration = {
  defaults: {
    enforce: { level: "restricted", version: { latest: true } },
    audit: { level: "privileged", version: { latest: true } },
    warn: { level: "privileged", version: { latest: true } },
  },
  exemptions: { usernames: ["ops"], runtimeClasses: ["kata"], namespaces: ["infra"] },
};

const exemptCases = [
  { name: "an exempt namespace", request: { namespace: "infra" }, want: "namespace" },
  { name: "an exempt user", request: { username: "ops" }, want: "user" },
  {
    name: "an exempt runtime class",
    request: {
      object: { ...barePod, spec: { ...barePod.spec, runtimeClassName: "kata" } },
    },
    want: "runtimeClass",
  },
] as const;

for (const c of exemptCases) {
  test(`PodSecurity.validate: ${c.name} is not checked, and the audit event says why`, async () => {
    const d = await validate(
      readerOf({ ns: {}, infra: {} }),
      { object: barePod, ...c.request },
      { configuration: exemptions },
    );
    assert.deepEqual(summary(d), {
      result: "allowed",
      warnings: [],
      annotations: { "pod-security.kubernetes.io/exempt": c.want },
    });
  });
}

test("PodSecurity.validate: configured defaults apply to namespaces without labels", async () => {
  const d = await validate(
    readerOf({ ns: {} }),
    { object: barePod },
    { configuration: exemptions },
  );
  assert.equal(
    summary(d).result,
    `403 pods "p" is forbidden: violates PodSecurity "restricted:latest": ${restrictedDetail}`,
  );
});

test("PodSecurity.validate: pod updates are checked only when an image or container changes", async () => {
  const reader = readerOf({ ns: label("enforce", "baseline") });
  const relabelled = { ...privilegedPod, metadata: { name: "p", labels: { a: "b" } } };
  const labelOnly = await validate(reader, {
    operation: "UPDATE",
    object: relabelled,
    oldObject: privilegedPod,
  });
  assert.equal(summary(labelOnly).result, "allowed");
  const newImage = {
    ...privilegedPod,
    spec: { containers: [{ name: "c", image: "nginx:2", securityContext: { privileged: true } }] },
  };
  const imageChange = await validate(reader, {
    operation: "UPDATE",
    object: newImage,
    oldObject: privilegedPod,
  });
  assert.equal(
    summary(imageChange).result,
    '403 pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
  );
});

test("PodSecurity.validate: an added ephemeral container is checked", async () => {
  const reader = readerOf({ ns: label("enforce", "baseline") });
  const debug = {
    ...barePod,
    spec: {
      ...barePod.spec,
      ephemeralContainers: [
        { name: "debug", image: "busybox", securityContext: { privileged: true } },
      ],
    },
  };
  const d = await validate(reader, {
    operation: "UPDATE",
    subresource: "ephemeralcontainers",
    object: debug,
    oldObject: barePod,
  });
  assert.equal(
    summary(d).result,
    '403 pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)',
  );
});

test("PodSecurity.validate: status, binding and eviction writes are not checked", async () => {
  const reader = readerOf({ ns: label("enforce", "restricted") });
  for (const subresource of ["status", "binding", "eviction"]) {
    const d = await validate(reader, { subresource, object: barePod });
    assert.deepEqual(summary(d), { result: "allowed", warnings: [], annotations: {} }, subresource);
  }
});

const deployment = {
  metadata: { name: "web" },
  spec: { template: { metadata: { labels: { app: "web" } }, spec: privilegedPod.spec } },
};

test("PodSecurity.validate: workloads are never refused, even where pods are enforced", async () => {
  const d = await validate(readerOf({ ns: label("enforce", "restricted") }), {
    group: "apps",
    resource: "deployments",
    name: "web",
    object: deployment,
  });
  assert.deepEqual(summary(d), { result: "allowed", warnings: [], annotations: {} });
});

const workloadCases = [
  { resource: "deployments", group: "apps", object: deployment },
  { resource: "replicasets", group: "apps", object: deployment },
  { resource: "statefulsets", group: "apps", object: deployment },
  { resource: "daemonsets", group: "apps", object: deployment },
  { resource: "jobs", group: "batch", object: deployment },
  {
    resource: "cronjobs",
    group: "batch",
    object: { metadata: { name: "web" }, spec: { jobTemplate: { spec: deployment.spec } } },
  },
  { resource: "replicationcontrollers", group: "", object: deployment },
  {
    resource: "podtemplates",
    group: "",
    object: { metadata: { name: "web" }, template: deployment.spec.template },
  },
] as const;

for (const c of workloadCases) {
  test(`PodSecurity.validate: ${c.resource} get warn and audit on their pod template`, async () => {
    const labels = {
      ...label("enforce", "restricted"),
      ...label("warn", "baseline"),
      ...label("audit", "baseline"),
    };
    const d = await validate(readerOf({ ns: labels }), {
      group: c.group,
      resource: c.resource,
      name: "web",
      object: c.object,
    });
    const violation =
      'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)';
    assert.deepEqual(summary(d), {
      result: "allowed",
      warnings: [violation],
      annotations: { "pod-security.kubernetes.io/audit-violations": violation },
    });
  });
}

test("PodSecurity.validate: a workload's scale and status writes are not checked", async () => {
  const d = await validate(readerOf({ ns: label("warn", "restricted") }), {
    group: "apps",
    resource: "deployments",
    subresource: "scale",
    object: deployment,
  });
  assert.deepEqual(summary(d), { result: "allowed", warnings: [], annotations: {} });
});

test("PodSecurity.handles: deletes and unrelated resources are not its business", () => {
  const plugin = newPodSecurity(readerOf({}), { clock });
  assert.equal(plugin.handles(attributes({ operation: "DELETE" })), false);
  assert.equal(plugin.handles(attributes({ resource: "configmaps" })), false);
  assert.equal(
    plugin.handles(attributes({ group: "apps", resource: "controllerrevisions" })),
    false,
  );
});
