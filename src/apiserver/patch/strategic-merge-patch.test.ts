import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ApiError,
  anyValue,
  atomicList,
  bool,
  int32,
  intOrString,
  mapList,
  mapOf,
  obj,
  quantity,
  ref,
  type SchemaRoot,
  setList,
  str,
  stringMap,
} from "../../api/index.ts";
import type { Json, JsonObject } from "../../util/index.ts";
import { applyStrategicMergePatch } from "./strategic-merge-patch.ts";

// A small slice of the built-in schemas, with upstream's patch metadata.
const definitions = {
  ObjectMeta: obj({
    name: str(),
    namespace: str(),
    labels: stringMap(),
    annotations: stringMap(),
    finalizers: setList(str()),
    ownerReferences: mapList(obj({ uid: str(), name: str(), kind: str() }), "uid"),
  }),
  Container: obj({
    name: str(),
    image: str(),
    args: atomicList(str()),
    env: mapList(ref("EnvVar"), "name"),
    ports: mapList(obj({ containerPort: int32(), protocol: str(), name: str() }), "containerPort"),
    volumeMounts: mapList(obj({ name: str(), mountPath: str() }), "mountPath"),
    resources: obj({ limits: mapOf(quantity()), requests: mapOf(quantity()) }),
  }),
  EnvVar: obj({ name: str(), value: str(), valueFrom: obj({ fieldRef: anyValue() }) }),
  Volume: obj({
    name: str(),
    emptyDir: obj({ medium: str() }),
    configMap: obj({ name: str() }),
  }),
  PodSpec: obj({
    containers: mapList(ref("Container"), "name"),
    volumes: mapList(ref("Volume"), "name", { patchStrategy: "merge,retainKeys" }),
    tolerations: atomicList(obj({ key: str(), operator: str(), effect: str(), value: str() })),
    nodeSelector: stringMap(),
    extension: anyValue(),
  }),
  PodTemplateSpec: obj({ metadata: ref("ObjectMeta"), spec: ref("PodSpec") }),
  DeploymentStrategy: {
    ...obj({
      type: str(),
      rollingUpdate: obj({ maxSurge: intOrString(), maxUnavailable: intOrString() }),
    }),
  },
};

const deploymentSchema: SchemaRoot = {
  definitions,
  schema: obj({
    apiVersion: str(),
    kind: str(),
    metadata: ref("ObjectMeta"),
    spec: obj({
      replicas: int32(),
      template: ref("PodTemplateSpec"),
      strategy: { ...ref("DeploymentStrategy"), "x-kubernetes-patch-strategy": "retainKeys" },
    }),
  }),
};

const nodeSchema: SchemaRoot = {
  definitions,
  schema: obj({
    metadata: ref("ObjectMeta"),
    spec: obj({
      unschedulable: bool(),
      taints: atomicList(obj({ key: str(), effect: str() })),
    }),
    status: obj({
      conditions: mapList(obj({ type: str(), status: str(), reason: str() }), "type"),
    }),
  }),
};

const nginx = { name: "nginx", image: "nginx:1.24", ports: [{ containerPort: 80 }] };
const sidecar = { name: "sidecar", image: "envoy:1", env: [{ name: "A", value: "1" }] };

function deployment(podSpec: JsonObject = {}, meta: JsonObject = {}): JsonObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", finalizers: ["a", "b", "c"], ...meta },
    spec: {
      replicas: 2,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: 1 } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: {
          containers: [nginx, sidecar],
          tolerations: [{ key: "spot", operator: "Exists" }],
          ...podSpec,
        },
      },
    },
  };
}

/** Reads a nested value by keys, for short assertions. */
function at(value: Json | undefined, ...path: (string | number)[]): Json | undefined {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = Array.isArray(current) ? current[key as number] : current[key as string];
  }
  return current;
}

const names = (list: Json | undefined): Json[] =>
  Array.isArray(list) ? list.map((item) => at(item, "name") ?? null) : [];

interface Case {
  name: string;
  doc?: JsonObject;
  schema?: SchemaRoot;
  patch: Json;
  check: (got: JsonObject) => void;
}

const containersOf = (got: JsonObject) => at(got, "spec", "template", "spec", "containers");

const cases: Case[] = [
  {
    name: "kubectl apply 3-way patch updates an image and keeps live-only containers",
    patch: {
      spec: {
        template: {
          spec: {
            "$setElementOrder/containers": [{ name: "nginx" }],
            containers: [{ image: "nginx:1.25", name: "nginx" }],
          },
        },
      },
    },
    check: (got) => {
      assert.deepEqual(containersOf(got), [{ ...nginx, image: "nginx:1.25" }, sidecar]);
    },
  },
  {
    name: "kubectl apply removes a container with a $patch: delete item",
    patch: {
      spec: {
        template: {
          spec: {
            "$setElementOrder/containers": [{ name: "nginx" }],
            containers: [{ $patch: "delete", name: "sidecar" }],
          },
        },
      },
    },
    check: (got) => assert.deepEqual(containersOf(got), [nginx]),
  },
  {
    name: "$setElementOrder alone reorders a merge list",
    patch: {
      spec: {
        template: {
          spec: { "$setElementOrder/containers": [{ name: "sidecar" }, { name: "nginx" }] },
        },
      },
    },
    check: (got) => assert.deepEqual(names(containersOf(got)), ["sidecar", "nginx"]),
  },
  {
    name: "$setElementOrder places new items where it says",
    patch: {
      spec: {
        template: {
          spec: {
            "$setElementOrder/containers": [
              { name: "nginx" },
              { name: "init" },
              { name: "sidecar" },
            ],
            containers: [{ name: "init", image: "busybox" }],
          },
        },
      },
    },
    check: (got) => assert.deepEqual(names(containersOf(got)), ["nginx", "init", "sidecar"]),
  },
  {
    name: "$setElementOrder with a list the live object lacks creates it in that order",
    doc: deployment({ containers: [] }),
    patch: {
      spec: {
        template: {
          spec: {
            "$setElementOrder/volumes": [{ name: "b" }, { name: "a" }],
            volumes: [
              { name: "b", emptyDir: {} },
              { name: "a", $patch: "delete" },
              { name: "a", emptyDir: {} },
            ],
          },
        },
      },
    },
    check: (got) =>
      assert.deepEqual(names(at(got, "spec", "template", "spec", "volumes")), ["b", "a"]),
  },
  {
    name: "kubectl set image merges the container by name",
    patch: {
      spec: { template: { spec: { containers: [{ name: "sidecar", image: "envoy:2" }] } } },
    },
    check: (got) => assert.deepEqual(containersOf(got), [nginx, { ...sidecar, image: "envoy:2" }]),
  },
  {
    name: "a new container without $setElementOrder goes first (upstream order rule)",
    patch: { spec: { template: { spec: { containers: [{ name: "debug", image: "busybox" }] } } } },
    check: (got) => assert.deepEqual(names(containersOf(got)), ["debug", "nginx", "sidecar"]),
  },
  {
    name: "kubectl rollout restart adds a template annotation",
    patch: {
      spec: {
        template: {
          metadata: {
            annotations: { "kubectl.kubernetes.io/restartedAt": "2024-05-01T10:00:00Z" },
          },
        },
      },
    },
    check: (got) => {
      assert.deepEqual(at(got, "spec", "template", "metadata"), {
        labels: { app: "web" },
        annotations: { "kubectl.kubernetes.io/restartedAt": "2024-05-01T10:00:00Z" },
      });
    },
  },
  {
    name: "$patch: delete of a container by merge key",
    patch: { spec: { template: { spec: { containers: [{ name: "nginx", $patch: "delete" }] } } } },
    check: (got) => assert.deepEqual(containersOf(got), [sidecar]),
  },
  {
    name: "$patch: delete of an absent item changes nothing",
    patch: { spec: { template: { spec: { containers: [{ name: "ghost", $patch: "delete" }] } } } },
    check: (got) => assert.deepEqual(containersOf(got), [nginx, sidecar]),
  },
  {
    name: "$patch: replace in a list replaces the whole list",
    patch: {
      spec: {
        template: { spec: { containers: [{ $patch: "replace" }, { name: "only", image: "x" }] } },
      },
    },
    check: (got) => assert.deepEqual(containersOf(got), [{ name: "only", image: "x" }]),
  },
  {
    name: "env vars merge by name, new ones after live ones they follow",
    patch: {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: "sidecar",
                env: [
                  { name: "A", value: "2" },
                  { name: "B", value: "3" },
                ],
              },
            ],
          },
        },
      },
    },
    check: (got) => {
      assert.deepEqual(at(containersOf(got), 1, "env"), [
        { name: "A", value: "2" },
        { name: "B", value: "3" },
      ]);
    },
  },
  {
    name: "ports merge by containerPort inside a merged container",
    patch: {
      spec: {
        template: { spec: { containers: [{ name: "nginx", ports: [{ containerPort: 443 }] }] } },
      },
    },
    check: (got) => {
      assert.deepEqual(at(containersOf(got), 0, "ports"), [
        { containerPort: 443 },
        { containerPort: 80 },
      ]);
    },
  },
  {
    name: "tolerations have no merge strategy and are replaced",
    patch: { spec: { template: { spec: { tolerations: [{ key: "gpu", operator: "Exists" }] } } } },
    check: (got) => {
      assert.deepEqual(at(got, "spec", "template", "spec", "tolerations"), [
        { key: "gpu", operator: "Exists" },
      ]);
    },
  },
  {
    name: "atomic lists inside merged items are replaced",
    doc: deployment({ containers: [{ name: "nginx", args: ["-a", "-b"] }] }),
    patch: { spec: { template: { spec: { containers: [{ name: "nginx", args: ["-c"] }] } } } },
    check: (got) => assert.deepEqual(containersOf(got), [{ name: "nginx", args: ["-c"] }]),
  },
  {
    name: "finalizers merge as a set, patch items first when the live order cannot place them",
    patch: { metadata: { finalizers: ["d", "a"] } },
    check: (got) => assert.deepEqual(at(got, "metadata", "finalizers"), ["d", "a", "b", "c"]),
  },
  {
    name: "finalizers already present are not duplicated",
    patch: { metadata: { finalizers: ["b", "c"] } },
    check: (got) => assert.deepEqual(at(got, "metadata", "finalizers"), ["a", "b", "c"]),
  },
  {
    name: "$deleteFromPrimitiveList/finalizers removes set members",
    patch: { metadata: { "$deleteFromPrimitiveList/finalizers": ["b", "zzz"] } },
    check: (got) => assert.deepEqual(at(got, "metadata", "finalizers"), ["a", "c"]),
  },
  {
    name: "$deleteFromPrimitiveList on a list the object lacks changes nothing",
    doc: { metadata: { name: "x" } },
    patch: { metadata: { "$deleteFromPrimitiveList/finalizers": ["b"] } },
    check: (got) => assert.deepEqual(got, { metadata: { name: "x" } }),
  },
  {
    name: "kubectl apply finalizer change: order, additions and deletions together",
    patch: {
      metadata: {
        "$setElementOrder/finalizers": ["a", "c", "d"],
        "$deleteFromPrimitiveList/finalizers": ["b"],
        finalizers: ["d"],
      },
    },
    check: (got) => assert.deepEqual(at(got, "metadata", "finalizers"), ["a", "c", "d"]),
  },
  {
    name: "$setElementOrder on a list of scalars reorders it",
    patch: { metadata: { "$setElementOrder/finalizers": ["c", "a", "b"] } },
    check: (got) => assert.deepEqual(at(got, "metadata", "finalizers"), ["c", "a", "b"]),
  },
  {
    name: "a merge list the live object lacks drops $patch marker items",
    doc: { metadata: { name: "x" } },
    patch: {
      metadata: {
        ownerReferences: [
          { uid: "u1", name: "rs", kind: "ReplicaSet" },
          { uid: "u2", $patch: "delete" },
        ],
      },
    },
    check: (got) => {
      assert.deepEqual(at(got, "metadata", "ownerReferences"), [
        { uid: "u1", name: "rs", kind: "ReplicaSet" },
      ]);
    },
  },
  {
    name: "owner references merge by uid",
    doc: { metadata: { ownerReferences: [{ uid: "u1", name: "old" }] } },
    patch: { metadata: { ownerReferences: [{ uid: "u1", name: "new" }] } },
    check: (got) => {
      assert.deepEqual(at(got, "metadata", "ownerReferences"), [{ uid: "u1", name: "new" }]);
    },
  },
  {
    name: "$patch: replace on a map keeps only the patch's keys",
    patch: { spec: { template: { metadata: { labels: { $patch: "replace", tier: "front" } } } } },
    check: (got) =>
      assert.deepEqual(at(got, "spec", "template", "metadata", "labels"), { tier: "front" }),
  },
  {
    name: "$patch: delete on a map empties it",
    patch: { spec: { template: { metadata: { labels: { $patch: "delete" } } } } },
    check: (got) => assert.deepEqual(at(got, "spec", "template", "metadata", "labels"), {}),
  },
  {
    name: "$retainKeys clears keys it does not list (Deployment strategy switch)",
    patch: {
      spec: { strategy: { $retainKeys: ["type"], type: "Recreate", rollingUpdate: null } },
    },
    check: (got) => assert.deepEqual(at(got, "spec", "strategy"), { type: "Recreate" }),
  },
  {
    name: "$retainKeys inside a merge,retainKeys list item (volume source switch)",
    doc: deployment({ volumes: [{ name: "data", emptyDir: { medium: "Memory" } }] }),
    patch: {
      spec: {
        template: {
          spec: {
            volumes: [
              { name: "data", $retainKeys: ["configMap", "name"], configMap: { name: "cm" } },
            ],
          },
        },
      },
    },
    check: (got) => {
      assert.deepEqual(at(got, "spec", "template", "spec", "volumes"), [
        { name: "data", configMap: { name: "cm" } },
      ]);
    },
  },
  {
    name: "null deletes a key; nulls for missing keys are ignored",
    patch: { spec: { replicas: null, paused: null } },
    check: (got) => {
      assert.equal(at(got, "spec", "replicas"), undefined);
      assert.equal(Object.hasOwn(at(got, "spec") as JsonObject, "paused"), false);
    },
  },
  {
    name: "a new subtree loses its nulls",
    patch: { metadata: { annotations: { a: "1", b: null } } },
    check: (got) => assert.deepEqual(at(got, "metadata", "annotations"), { a: "1" }),
  },
  {
    name: "fields the schema does not declare merge like a JSON merge patch",
    doc: deployment({ extension: { keep: 1, list: [1, 2], nested: { a: 1 } } }),
    patch: {
      spec: {
        template: {
          spec: { extension: { list: [3], nested: { b: 2 }, keep: null }, futureField: { x: 1 } },
        },
      },
    },
    check: (got) => {
      assert.deepEqual(at(got, "spec", "template", "spec", "extension"), {
        list: [3],
        nested: { a: 1, b: 2 },
      });
      assert.deepEqual(at(got, "spec", "template", "spec", "futureField"), { x: 1 });
    },
  },
  {
    name: "a value of another type replaces the live one",
    patch: { spec: { template: { metadata: { labels: "oops" } } } },
    check: (got) => assert.equal(at(got, "spec", "template", "metadata", "labels"), "oops"),
  },
  {
    name: "$patch: replace at the root replaces the object",
    patch: { $patch: "replace", kind: "Deployment" },
    check: (got) => assert.deepEqual(got, { kind: "Deployment" }),
  },
  {
    name: "a null patch changes nothing",
    patch: null,
    check: (got) => assert.deepEqual(got, deployment()),
  },
  {
    name: "kubectl cordon sets spec.unschedulable",
    schema: nodeSchema,
    doc: { metadata: { name: "n1" }, spec: {} },
    patch: { spec: { unschedulable: true } },
    check: (got) =>
      assert.deepEqual(got, { metadata: { name: "n1" }, spec: { unschedulable: true } }),
  },
  {
    name: "kubectl uncordon removes spec.unschedulable",
    schema: nodeSchema,
    doc: { metadata: { name: "n1" }, spec: { unschedulable: true } },
    patch: { spec: { unschedulable: null } },
    check: (got) => assert.deepEqual(got, { metadata: { name: "n1" }, spec: {} }),
  },
  {
    name: "node conditions merge by type",
    schema: nodeSchema,
    doc: {
      status: {
        conditions: [
          { type: "Ready", status: "True" },
          { type: "MemoryPressure", status: "False" },
        ],
      },
    },
    patch: {
      status: { conditions: [{ type: "Ready", status: "False", reason: "KubeletNotReady" }] },
    },
    check: (got) => {
      assert.deepEqual(at(got, "status", "conditions"), [
        { type: "Ready", status: "False", reason: "KubeletNotReady" },
        { type: "MemoryPressure", status: "False" },
      ]);
    },
  },
];

for (const c of cases) {
  test(`applyStrategicMergePatch: ${c.name}`, () => {
    const doc = c.doc ?? deployment();
    const docBefore = structuredClone(doc);
    const patch = structuredClone(c.patch);
    const got = applyStrategicMergePatch(doc, patch, c.schema ?? deploymentSchema);
    c.check(got);
    assert.deepEqual(doc, docBefore, "the input document must not be mutated");
    assert.deepEqual(patch, c.patch, "the patch must not be mutated");
  });
}

const failures = [
  {
    name: "an unknown $patch value in a list item",
    patch: { spec: { template: { spec: { containers: [{ name: "nginx", $patch: "foo" }] } } } },
    code: 500,
    message: "unknown patch type: foo in map: map[$patch:foo name:nginx]",
  },
  {
    name: "an unknown $patch value in a map",
    patch: { metadata: { labels: { $patch: "frob", app: "x" } } },
    code: 500,
    message: "unknown patch type: frob in map: map[$patch:frob app:x]",
  },
  {
    name: "$patch: merge in a map (upstream accepts only replace and delete)",
    patch: { spec: { template: { metadata: { $patch: "merge" } } } },
    code: 500,
    message: "unknown patch type: merge in map: map[$patch:merge]",
  },
  {
    name: "$patch: merge in a list",
    patch: { spec: { template: { spec: { containers: [{ name: "nginx", $patch: "merge" }] } } } },
    code: 500,
    message: "merging lists cannot yet be specified in the patch",
  },
  {
    name: "a merge list item without its merge key",
    patch: { spec: { template: { spec: { containers: [{ image: "x" }] } } } },
    code: 500,
    message: "map: map[image:x] does not contain declared merge key: name",
  },
  {
    name: "a $setElementOrder list contradicting the patch list",
    patch: {
      spec: {
        template: {
          spec: {
            "$setElementOrder/containers": [{ name: "nginx" }, { name: "sidecar" }],
            containers: [{ name: "sidecar" }, { name: "nginx" }],
          },
        },
      },
    },
    code: 500,
    message:
      "The order in patch list:\n[map[name:sidecar] map[name:nginx]]\n doesn't match $setElementOrder list:\n[map[name:nginx] map[name:sidecar]]\n",
  },
  {
    name: "a $setElementOrder value that is not a list",
    patch: { metadata: { "$setElementOrder/finalizers": "a" } },
    code: 500,
    message: "expected a []interface {}, but received a string",
  },
  {
    name: "a $retainKeys value that is not a list",
    patch: { spec: { strategy: { $retainKeys: "type" } } },
    code: 400,
    message: "invalid patch format of retainKeys",
  },
  {
    name: "a patch key missing from $retainKeys",
    patch: { spec: { strategy: { $retainKeys: ["type"], rollingUpdate: { maxSurge: 1 } } } },
    code: 400,
    message: "invalid patch format of retainKeys",
  },
  {
    name: "a malformed $setElementOrder key",
    patch: { metadata: { $setElementOrderfinalizers: ["a"] } },
    code: 400,
    message: "invalid patch format of setElementOrder list",
  },
  {
    name: "a malformed $deleteFromPrimitiveList key",
    patch: { metadata: { $deleteFromPrimitiveList: ["a"] } },
    code: 400,
    message: "invalid patch format of primitive list",
  },
  {
    name: "a list of lists in a merge list",
    doc: { metadata: { finalizers: [] } },
    patch: { metadata: { finalizers: [["a"]] } },
    code: 422,
    message: "lists of lists are not supported",
  },
  {
    name: "items of different types in a merge list",
    patch: { metadata: { finalizers: [1] } },
    code: 500,
    message: "list element types are not identical: [[a b c] [1]]",
  },
  {
    name: "a patch that is a list",
    patch: [{ op: "add" }],
    code: 400,
    message: "json: cannot unmarshal array into Go value of type map[string]interface {}",
  },
  {
    name: "a patch that is a string",
    patch: "spec",
    code: 400,
    message: "json: cannot unmarshal string into Go value of type map[string]interface {}",
  },
] as const;

for (const c of failures) {
  test(`applyStrategicMergePatch: ${c.code} for ${c.name}`, () => {
    const doc = "doc" in c ? (structuredClone(c.doc) as unknown as JsonObject) : deployment();
    assert.throws(
      () => applyStrategicMergePatch(doc, structuredClone(c.patch), deploymentSchema),
      (error: unknown) => {
        assert.ok(error instanceof ApiError, "error instanceof ApiError");
        assert.equal(error.code, c.code);
        assert.equal(error.message, c.message);
        return true;
      },
    );
  });
}

test("applyStrategicMergePatch: the result shares no structure with the patch", () => {
  const patch: JsonObject = { metadata: { annotations: { a: "1" } } };
  const got = applyStrategicMergePatch(deployment(), patch, deploymentSchema);
  (at(patch, "metadata", "annotations") as JsonObject)["a"] = "changed";
  assert.deepEqual(at(got, "metadata", "annotations"), { a: "1" });
});
