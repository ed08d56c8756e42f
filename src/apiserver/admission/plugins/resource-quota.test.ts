import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ApiError,
  conflict,
  type KubeObject,
  objectModifiedMessage,
  type Pod,
  type ResourceQuota,
} from "../../../api/index.ts";
import { FakeClock } from "../../../testing/index.ts";
import type { AdmissionAttributes, AdmissionDecision } from "../admission.ts";
import { newResourceQuota, type QuotaAccess } from "./resource-quota.ts";

/**
 * Quotas in a pretend storage with compare-and-swap on resourceVersion, and a cache that shows
 * the stored state only when `sync()` is called (a watch cache lagging behind).
 */
function quotaStore(initial: ResourceQuota[]) {
  let revision = 1;
  const stored = new Map<string, ResourceQuota>();
  for (const q of initial) {
    stored.set(q.metadata.name ?? "", {
      ...structuredClone(q),
      metadata: { ...q.metadata, resourceVersion: "1" },
    });
  }
  let cached = [...stored.values()].map((q) => structuredClone(q));
  const writes: ResourceQuota[] = [];
  const sync = () => {
    cached = [...stored.values()].map((q) => structuredClone(q));
  };
  const access: QuotaAccess = {
    list: (namespace) => cached.filter((q) => q.metadata.namespace === namespace),
    async listFresh(namespace) {
      sync();
      return access.list(namespace);
    },
    async updateStatus(quota) {
      const name = quota.metadata.name ?? "";
      const current = stored.get(name);
      if (
        current === undefined ||
        current.metadata.resourceVersion !== quota.metadata.resourceVersion
      ) {
        throw conflict({ group: "", resource: "resourcequotas" }, name, objectModifiedMessage);
      }
      revision++;
      const next = {
        ...current,
        metadata: { ...current.metadata, resourceVersion: String(revision) },
        status: structuredClone(quota.status ?? {}),
      };
      stored.set(name, next);
      writes.push(structuredClone(next));
      return structuredClone(next);
    },
  };
  return { access, stored, writes, sync };
}

const quota = (
  name: string,
  hard: Record<string, string>,
  used: Record<string, string>,
  spec: Partial<ResourceQuota["spec"]> = {},
): ResourceQuota => ({
  metadata: { name, namespace: "ns" },
  spec: { hard, ...spec },
  status: { hard, used },
});

const pod = (
  name: string,
  containers: Pod["spec"]["containers"] = [{ name: "c", image: "nginx" }],
): Pod => ({
  metadata: { name, namespace: "ns" },
  spec: { containers },
});

function attributes(
  object: KubeObject,
  extra: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  return {
    operation: "CREATE",
    group: "",
    version: "v1",
    kind: "Pod",
    resource: "pods",
    subresource: "",
    namespace: "ns",
    name: object.metadata.name ?? "",
    object,
    oldObject: undefined,
    dryRun: false,
    userInfo: { username: "u", groups: [] },
    ...extra,
  };
}

function messageOf(decision: AdmissionDecision | undefined): string {
  assert.equal(decision?.allowed, false, "refused");
  const error = (decision as { error: ApiError }).error;
  return `${error.code} ${error.message}`;
}

const withCpu = (cpu: string, memory?: string) => [
  {
    name: "c",
    image: "nginx",
    resources: { requests: { cpu, ...(memory === undefined ? {} : { memory }) }, limits: { cpu } },
  },
];

test("ResourceQuota: a pod within the quota is admitted and charged with a compare-and-swap", async () => {
  const store = quotaStore([
    quota("q", { pods: "2", "requests.cpu": "2" }, { pods: "1", "requests.cpu": "500m" }),
  ]);
  const plugin = newResourceQuota({ quotas: store.access, clock: new FakeClock() });
  const a = attributes(pod("p", withCpu("1")) as unknown as KubeObject);
  assert.equal(plugin.handles(a), true, "handles pod creation");
  assert.deepEqual(await plugin.validate?.(a), { allowed: true });
  assert.equal(store.writes.length, 1);
  assert.deepEqual(store.writes[0]?.status?.used, { pods: "2", "requests.cpu": "1500m" });
  assert.equal(store.writes[0]?.metadata.resourceVersion, "2");
});

const refusals: { name: string; quotas: ResourceQuota[]; object: Pod; want: string }[] = [
  {
    name: "the third pod of a `pods: 2` quota",
    quotas: [quota("q", { pods: "2" }, { pods: "2" })],
    object: pod("p3"),
    want: '403 pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
  },
  {
    name: "cpu over the hard limit",
    quotas: [quota("compute", { cpu: "2", pods: "10" }, { cpu: "1", pods: "1" })],
    object: pod("big", withCpu("2", "1Gi")),
    want: '403 pods "big" is forbidden: exceeded quota: compute, requested: cpu=2, used: cpu=1, limited: cpu=2',
  },
  {
    name: "a container without the cpu request a cpu quota needs",
    quotas: [
      quota(
        "compute",
        { "requests.cpu": "2", "limits.memory": "1Gi" },
        { "requests.cpu": "0", "limits.memory": "0" },
      ),
    ],
    object: pod("p", [{ name: "c", image: "nginx" }]),
    want: '403 pods "p" is forbidden: failed quota: compute: must specify limits.memory for: c; requests.cpu for: c',
  },
  {
    name: "a quota whose usage the controller has not counted yet",
    quotas: [quota("q", { pods: "2", "count/pods": "5" }, { pods: "0" })],
    object: pod("p"),
    want: '403 pods "p" is forbidden: status unknown for quota: q, resources: count/pods,pods',
  },
  {
    name: "extended resources are counted as requests.<name>",
    quotas: [quota("gpu", { "requests.nvidia.com/gpu": "1" }, { "requests.nvidia.com/gpu": "1" })],
    object: pod("train", [
      {
        name: "c",
        image: "x",
        resources: { requests: { "nvidia.com/gpu": "1" }, limits: { "nvidia.com/gpu": "1" } },
      },
    ]),
    want: '403 pods "train" is forbidden: exceeded quota: gpu, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=1, limited: requests.nvidia.com/gpu=1',
  },
];

for (const c of refusals) {
  test(`ResourceQuota: refuses ${c.name}`, async () => {
    const store = quotaStore(c.quotas);
    const plugin = newResourceQuota({ quotas: store.access, clock: new FakeClock() });
    assert.equal(
      messageOf(await plugin.validate?.(attributes(c.object as unknown as KubeObject))),
      c.want,
    );
    assert.equal(store.writes.length, 0, "nothing charged");
  });
}

test("ResourceQuota: scopes decide which quotas a pod counts against", async () => {
  const store = quotaStore([
    quota("best-effort", { pods: "0" }, { pods: "0" }, { scopes: ["BestEffort"] }),
    quota("burstable", { pods: "1" }, { pods: "0" }, { scopes: ["NotBestEffort"] }),
  ]);
  const plugin = newResourceQuota({ quotas: store.access, clock: new FakeClock() });
  assert.deepEqual(
    await plugin.validate?.(attributes(pod("b", withCpu("100m")) as unknown as KubeObject)),
    { allowed: true },
  );
  assert.equal(
    messageOf(await plugin.validate?.(attributes(pod("e") as unknown as KubeObject))),
    '403 pods "e" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=0, limited: pods=0',
  );
  assert.deepEqual(store.stored.get("burstable")?.status?.used, { pods: "1" });
});

test("ResourceQuota: dry-run requests are checked but never charged", async () => {
  const store = quotaStore([quota("q", { pods: "1" }, { pods: "0" })]);
  const plugin = newResourceQuota({ quotas: store.access, clock: new FakeClock() });
  assert.deepEqual(
    await plugin.validate?.(attributes(pod("p") as unknown as KubeObject, { dryRun: true })),
    { allowed: true },
  );
  assert.equal(store.writes.length, 0);
});

test("ResourceQuota: racing creates in one server take the last unit once", async () => {
  const store = quotaStore([quota("q", { pods: "2" }, { pods: "1" })]);
  const plugin = newResourceQuota({ quotas: store.access, clock: new FakeClock() });
  const results = await Promise.all(
    ["a", "b", "c"].map((n) => plugin.validate?.(attributes(pod(n) as unknown as KubeObject))),
  );
  assert.deepEqual(
    results.map((r) => r?.allowed),
    [true, false, false],
  );
  assert.deepEqual(store.stored.get("q")?.status?.used, { pods: "2" });
});

test("ResourceQuota: a conflict with another server's write is retried on the fresh quota", async () => {
  const store = quotaStore([quota("q", { pods: "2" }, { pods: "1" })]);
  // Two API servers share the storage; neither cache has seen the other's write.
  const one = newResourceQuota({ quotas: store.access, clock: new FakeClock() });
  const two = newResourceQuota({ quotas: store.access, clock: new FakeClock() });
  assert.deepEqual(await one.validate?.(attributes(pod("a") as unknown as KubeObject)), {
    allowed: true,
  });
  assert.equal(
    messageOf(await two.validate?.(attributes(pod("b") as unknown as KubeObject))),
    '403 pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
  );
  assert.equal(store.writes.length, 1, "only the first create was charged");
});

test("ResourceQuota: an update is charged the difference (a service becoming NodePort)", async () => {
  const store = quotaStore([
    quota(
      "q",
      { "services.nodeports": "1", services: "5" },
      { "services.nodeports": "0", services: "1" },
    ),
  ]);
  const plugin = newResourceQuota({ quotas: store.access, clock: new FakeClock() });
  const old = {
    metadata: { name: "s", namespace: "ns", resourceVersion: "3" },
    spec: { type: "ClusterIP", ports: [{ port: 80 }, { port: 81 }] },
  };
  const next = { ...old, spec: { ...old.spec, type: "NodePort" } };
  const a = attributes(next as unknown as KubeObject, {
    operation: "UPDATE",
    kind: "Service",
    resource: "services",
    oldObject: old as unknown as KubeObject,
  });
  assert.equal(
    messageOf(await plugin.validate?.(a)),
    '403 services "s" is forbidden: exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
  );
});

test("ResourceQuota: object counts, and what it never handles", async () => {
  const store = quotaStore([
    quota(
      "q",
      { "count/configmaps": "1", configmaps: "1" },
      { "count/configmaps": "1", configmaps: "1" },
    ),
  ]);
  const plugin = newResourceQuota({ quotas: store.access, clock: new FakeClock() });
  const cm = { metadata: { name: "cm", namespace: "ns" } } as KubeObject;
  const a = attributes(cm, { kind: "ConfigMap", resource: "configmaps" });
  assert.equal(
    messageOf(await plugin.validate?.(a)),
    '403 configmaps "cm" is forbidden: exceeded quota: q, requested: configmaps=1,count/configmaps=1, used: configmaps=1,count/configmaps=1, limited: configmaps=1,count/configmaps=1',
  );
  assert.equal(plugin.handles({ ...a, kind: "Event", resource: "events" }), false, "events");
  assert.equal(plugin.handles({ ...a, subresource: "status" }), false, "subresources");
  assert.equal(plugin.handles({ ...a, operation: "DELETE" }), false, "deletes");
  assert.equal(plugin.handles({ ...a, namespace: "" }), false, "cluster-scoped");
  // An update of a configmap changes no count.
  assert.deepEqual(await plugin.validate?.({ ...a, operation: "UPDATE", oldObject: cm }), {
    allowed: true,
  });
});

test("ResourceQuota: a conflict that keeps happening is returned after three retries", async () => {
  const store = quotaStore([quota("q", { pods: "5" }, { pods: "0" })]);
  let attempts = 0;
  const access: QuotaAccess = {
    ...store.access,
    async updateStatus() {
      attempts++;
      throw conflict({ group: "", resource: "resourcequotas" }, "q", objectModifiedMessage);
    },
  };
  const plugin = newResourceQuota({ quotas: access, clock: new FakeClock() });
  const decision = await plugin.validate?.(attributes(pod("p") as unknown as KubeObject));
  assert.equal(attempts, 4);
  assert.equal(decision?.allowed, false, "refused");
  const error = (decision as { error: ApiError }).error;
  assert.ok(error instanceof ApiError, "an ApiError");
  assert.equal(error.code, 409);
  assert.equal(
    error.message,
    'Operation cannot be fulfilled on resourcequotas "q": the object has been modified; please apply your changes to the latest version and try again',
  );
});
