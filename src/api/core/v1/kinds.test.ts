import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { KubeObject } from "../../meta/types.ts";
import { refName, resolve, type Schema } from "../../schema/schema.ts";
import { coreV1Definitions } from "./definitions.ts";
import { coreV1Kinds } from "./index.ts";

function collectRefs(schema: Schema, out: Set<string>): void {
  const name = refName(schema);
  if (name !== undefined) out.add(name);
  for (const child of Object.values(schema.properties ?? {})) collectRefs(child, out);
  if (schema.items !== undefined) collectRefs(schema.items, out);
  if (typeof schema.additionalProperties === "object")
    collectRefs(schema.additionalProperties, out);
  for (const list of [schema.allOf, schema.anyOf, schema.oneOf])
    for (const s of list ?? []) collectRefs(s, out);
}

test("coreV1Definitions: every $ref of every definition resolves", () => {
  const refs = new Set<string>();
  for (const schema of Object.values(coreV1Definitions)) collectRefs(schema, refs);
  for (const kind of coreV1Kinds) collectRefs(kind.schema.schema, refs);
  assert.ok(refs.size > 50, "refs.size > 50");
  for (const name of refs) {
    assert.ok(coreV1Definitions[name] !== undefined, `dangling $ref ${name}`);
    assert.doesNotThrow(() => resolve({ $ref: `#/components/schemas/${name}` }, coreV1Definitions));
  }
});

const discovery = [
  {
    kind: "Pod",
    resource: "pods",
    singular: "pod",
    namespaced: true,
    shortNames: ["po"],
    categories: ["all"],
    status: true,
  },
  {
    kind: "Node",
    resource: "nodes",
    singular: "node",
    namespaced: false,
    shortNames: ["no"],
    categories: [],
    status: true,
  },
  {
    kind: "Namespace",
    resource: "namespaces",
    singular: "namespace",
    namespaced: false,
    shortNames: ["ns"],
    categories: [],
    status: true,
  },
  {
    kind: "Event",
    resource: "events",
    singular: "event",
    namespaced: true,
    shortNames: ["ev"],
    categories: [],
    status: false,
  },
  {
    kind: "ConfigMap",
    resource: "configmaps",
    singular: "configmap",
    namespaced: true,
    shortNames: ["cm"],
    categories: [],
    status: false,
  },
  {
    kind: "Secret",
    resource: "secrets",
    singular: "secret",
    namespaced: true,
    shortNames: [],
    categories: [],
    status: false,
  },
  {
    kind: "Service",
    resource: "services",
    singular: "service",
    namespaced: true,
    shortNames: ["svc"],
    categories: ["all"],
    status: true,
  },
  {
    kind: "ServiceAccount",
    resource: "serviceaccounts",
    singular: "serviceaccount",
    namespaced: true,
    shortNames: ["sa"],
    categories: [],
    status: false,
  },
  {
    kind: "ReplicationController",
    resource: "replicationcontrollers",
    singular: "replicationcontroller",
    namespaced: true,
    shortNames: ["rc"],
    categories: ["all"],
    status: true,
  },
  {
    kind: "Binding",
    resource: "bindings",
    singular: "binding",
    namespaced: true,
    shortNames: [],
    categories: [],
    status: false,
  },
] as const;

for (const d of discovery) {
  test(`coreV1Kinds: ${d.kind} is served as upstream discovery lists it`, () => {
    const kind = coreV1Kinds.find((k) => k.kind === d.kind);
    assert.ok(kind !== undefined, "kind !== undefined");
    assert.deepEqual(
      {
        resource: kind.resource,
        singular: kind.singular,
        namespaced: kind.namespaced,
        shortNames: kind.shortNames,
        categories: kind.categories,
        status: kind.subresources.status,
      },
      {
        resource: d.resource,
        singular: d.singular,
        namespaced: d.namespaced,
        shortNames: d.shortNames,
        categories: d.categories,
        status: d.status,
      },
    );
    assert.deepEqual(kind.schema.schema["x-kubernetes-group-version-kind"], [
      { group: "", version: "v1", kind: d.kind },
    ]);
  });
}

test("coreV1Kinds: strategic-merge keys of PodSpec and Container", () => {
  const spec = coreV1Definitions["io.k8s.api.core.v1.PodSpec"]?.properties ?? {};
  assert.equal(spec["containers"]?.["x-kubernetes-patch-merge-key"], "name");
  assert.equal(spec["volumes"]?.["x-kubernetes-patch-strategy"], "merge,retainKeys");
  assert.equal(spec["tolerations"]?.["x-kubernetes-list-type"], "atomic");
  const container = coreV1Definitions["io.k8s.api.core.v1.Container"]?.properties ?? {};
  assert.equal(container["ports"]?.["x-kubernetes-patch-merge-key"], "containerPort");
  assert.deepEqual(container["ports"]?.["x-kubernetes-list-map-keys"], [
    "containerPort",
    "protocol",
  ]);
  assert.equal(container["volumeMounts"]?.["x-kubernetes-patch-merge-key"], "mountPath");
  const status = coreV1Definitions["io.k8s.api.core.v1.PodStatus"]?.properties ?? {};
  assert.equal(status["conditions"]?.["x-kubernetes-patch-merge-key"], "type");
});

function kindOf(name: string) {
  const kind = coreV1Kinds.find((k) => k.kind === name);
  if (kind === undefined) throw new Error(`no kind ${name}`);
  return kind;
}

function defaulted(kind: string, obj: KubeObject): KubeObject {
  kindOf(kind).applyDefaults(obj);
  return obj;
}

const meta = (name: string, namespace?: string) =>
  namespace === undefined ? { name } : { name, namespace };

const defaultCases: {
  name: string;
  kind: string;
  obj: KubeObject;
  want: Record<string, unknown>;
}[] = [
  {
    name: "Namespace gets phase, the name label and the kubernetes finalizer",
    kind: "Namespace",
    obj: { metadata: meta("team-a") },
    want: {
      metadata: { name: "team-a", labels: { "kubernetes.io/metadata.name": "team-a" } },
      status: { phase: "Active" },
      spec: { finalizers: ["kubernetes"] },
    },
  },
  {
    name: "Secret defaults to Opaque and folds stringData into data",
    kind: "Secret",
    obj: { metadata: meta("s", "d"), stringData: { user: "admin" } },
    want: { metadata: { name: "s", namespace: "d" }, type: "Opaque", data: { user: "YWRtaW4=" } },
  },
  {
    name: "Service defaults type, affinity, protocol and targetPort",
    kind: "Service",
    obj: { metadata: meta("web", "d"), spec: { ports: [{ port: 80 }] } },
    want: {
      metadata: { name: "web", namespace: "d" },
      spec: {
        ports: [{ port: 80, protocol: "TCP", targetPort: 80 }],
        sessionAffinity: "None",
        type: "ClusterIP",
        internalTrafficPolicy: "Cluster",
      },
      status: { loadBalancer: {} },
    },
  },
  {
    name: "Node allocatable defaults to capacity",
    kind: "Node",
    obj: { metadata: meta("n1"), status: { capacity: { cpu: "4", memory: "8192Mi" } } },
    want: {
      metadata: { name: "n1" },
      spec: {},
      status: { capacity: { cpu: "4", memory: "8Gi" }, allocatable: { cpu: "4", memory: "8Gi" } },
    },
  },
];

for (const c of defaultCases) {
  test(`applyDefaults: ${c.name}`, () => {
    assert.deepEqual(defaulted(c.kind, c.obj), c.want);
  });
}

test("applyDefaults: ReplicationController copies template labels and defaults replicas", () => {
  const rc = defaulted("ReplicationController", {
    metadata: meta("rc", "d"),
    spec: {
      template: {
        metadata: { labels: { app: "x" } },
        spec: { containers: [{ name: "a", image: "x" }] },
      },
    },
  }) as KubeObject & {
    spec: {
      replicas: number;
      selector: Record<string, string>;
      template: { spec: { restartPolicy: string } };
    };
  };
  assert.equal(rc.spec.replicas, 1);
  assert.deepEqual(rc.spec.selector, { app: "x" });
  assert.deepEqual(rc.metadata.labels, { app: "x" });
  assert.equal(rc.spec.template.spec.restartPolicy, "Always");
});

const validateCases: { name: string; kind: string; obj: KubeObject; want: string[] }[] = [
  {
    name: "ConfigMap rejects a bad key",
    kind: "ConfigMap",
    obj: { metadata: meta("cm", "d"), data: { "a/b": "x" } },
    want: [
      `data[a/b]: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ],
  },
  {
    name: "ConfigMap over 1 MiB",
    kind: "ConfigMap",
    obj: { metadata: meta("cm", "d"), data: { big: "x".repeat(1024 * 1024) } },
    want: [": Too long: may not be more than 1048576 bytes"],
  },
  {
    name: "Namespace names are DNS labels",
    kind: "Namespace",
    obj: { metadata: meta("a.b") },
    want: [
      `metadata.name: Invalid value: "a.b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
  },
  {
    name: "Secret of type tls needs both keys",
    kind: "Secret",
    obj: { metadata: meta("s", "d"), type: "kubernetes.io/tls", data: {} },
    want: ["data[tls.crt]: Required value", "data[tls.key]: Required value"],
  },
  {
    name: "Node taints must be unique by key and effect",
    kind: "Node",
    obj: {
      metadata: meta("n1"),
      spec: {
        taints: [
          { key: "k", effect: "NoSchedule" },
          { key: "k", value: "v", effect: "NoSchedule" },
          { key: "x", effect: "Sometimes" },
        ],
      },
    },
    want: [
      'spec.taints[1]: Duplicate value: {"key":"k","value":"v","effect":"NoSchedule"}: taints must be unique by key and effect pair',
      'spec.taints[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ],
  },
  {
    name: "Service needs ports and named multi-ports",
    kind: "Service",
    obj: {
      metadata: meta("web", "d"),
      spec: { ports: [{ port: 80 }, { port: 70000, name: "b" }] },
    },
    want: [
      "spec.ports[0].name: Required value",
      "spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
      "spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ],
  },
  {
    name: "ReplicationController selector must match the template",
    kind: "ReplicationController",
    obj: {
      metadata: meta("rc", "d"),
      spec: {
        selector: { app: "y" },
        template: {
          metadata: { labels: { app: "x" } },
          spec: { containers: [{ name: "a", image: "x" }] },
        },
      },
    },
    want: [
      'spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`',
    ],
  },
  {
    name: "Binding needs a target name",
    kind: "Binding",
    obj: { metadata: meta("p", "d"), target: { kind: "Pod" } },
    want: [
      'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"',
      "target.name: Required value",
    ],
  },
];

for (const c of validateCases) {
  test(`validate: ${c.name}`, () => {
    const kind = kindOf(c.kind);
    kind.applyDefaults(c.obj);
    assert.deepEqual(kind.validate(c.obj).map(fieldErrorString), c.want);
  });
}

test("validateUpdate: an immutable ConfigMap keeps its data", () => {
  const kind = kindOf("ConfigMap");
  const old = {
    metadata: { ...meta("cm", "d"), uid: "u", resourceVersion: "1" },
    immutable: true,
    data: { a: "1" },
  };
  const next = { ...structuredClone(old), data: { a: "2" } };
  assert.deepEqual(kind.validateUpdate(next, old).map(fieldErrorString), [
    "data: Forbidden: field is immutable when `immutable` is set",
  ]);
});

test("selectableFields: node, secret, namespace, event and replication controller", () => {
  assert.deepEqual(
    kindOf("Node").selectableFields?.({ metadata: meta("n"), spec: { unschedulable: true } }),
    {
      "spec.unschedulable": "true",
    },
  );
  assert.deepEqual(
    kindOf("Secret").selectableFields?.({ metadata: meta("s", "d"), type: "Opaque" }),
    { type: "Opaque" },
  );
  assert.deepEqual(
    kindOf("ReplicationController").selectableFields?.({
      metadata: meta("r", "d"),
      status: { replicas: 3 },
    }),
    {
      "status.replicas": "3",
    },
  );
  const ev = kindOf("Event").selectableFields?.({
    metadata: meta("e", "d"),
    involvedObject: { kind: "Pod", name: "p" },
    reason: "Scheduled",
    source: { component: "default-scheduler" },
    type: "Normal",
  });
  assert.equal(ev?.["involvedObject.kind"], "Pod");
  assert.equal(ev?.["source"], "default-scheduler");
  assert.equal(ev?.["reason"], "Scheduled");
});
