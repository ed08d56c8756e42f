import assert from "node:assert/strict";
import { test } from "node:test";
import type { ApiError, KubeObject, LimitRange, Pod } from "../../../api/index.ts";
import { FakeClock } from "../../../testing/index.ts";
import type { JsonObject } from "../../../util/index.ts";
import type { AdmissionAttributes, ObjectReader } from "../admission.ts";
import { aggregateMessages, limitRangerAnnotation, newLimitRanger } from "./limit-ranger.ts";

function readerOf(ranges: LimitRange[], counter?: { fresh: number }): ObjectReader {
  return {
    get: () => undefined,
    list: (segment, namespace) =>
      segment === "limitranges"
        ? (ranges.filter((r) => r.metadata.namespace === namespace) as unknown as JsonObject[])
        : [],
    getFresh: async () => {
      if (counter !== undefined) counter.fresh++;
      return undefined;
    },
  };
}

const range = (limits: NonNullable<LimitRange["spec"]>["limits"]): LimitRange => ({
  metadata: { name: "limits", namespace: "ns" },
  spec: { limits: limits ?? [] },
});

function podAttributes(pod: Pod): AdmissionAttributes {
  return {
    operation: "CREATE",
    group: "",
    version: "v1",
    kind: "Pod",
    resource: "pods",
    subresource: "",
    namespace: "ns",
    name: pod.metadata.name ?? "",
    object: pod as unknown as KubeObject,
    oldObject: undefined,
    dryRun: false,
    userInfo: { username: "u", groups: [] },
  };
}

const basicPod = (resources?: Pod["spec"]["containers"][number]["resources"]): Pod => ({
  metadata: { name: "p", namespace: "ns" },
  spec: {
    containers: [{ name: "c", image: "nginx", ...(resources === undefined ? {} : { resources }) }],
    initContainers: [{ name: "init", image: "busybox" }],
  },
});

const defaults = range([
  {
    type: "Container",
    default: { cpu: "500m", memory: "256Mi" },
    defaultRequest: { cpu: "250m", memory: "128Mi" },
    max: { cpu: "1" },
  },
]);

test("LimitRanger.mutate: defaults requests and limits of containers and init containers, annotated", async () => {
  const plugin = newLimitRanger({ reader: readerOf([defaults]), clock: new FakeClock() });
  const pod = basicPod({ requests: { cpu: "100m" } });
  const a = podAttributes(pod);
  assert.equal(plugin.handles(a), true, "handles pod creation");
  assert.deepEqual(await plugin.mutate?.(a), { allowed: true });
  assert.deepEqual(pod.spec.containers[0]?.resources, {
    requests: { cpu: "100m", memory: "128Mi" },
    limits: { cpu: "500m", memory: "256Mi" },
  });
  assert.deepEqual(pod.spec.initContainers?.[0]?.resources, {
    requests: { cpu: "250m", memory: "128Mi" },
    limits: { cpu: "500m", memory: "256Mi" },
  });
  assert.equal(
    pod.metadata.annotations?.[limitRangerAnnotation],
    "LimitRanger plugin set: memory request for container c; cpu, memory limit for container c; cpu, memory request for init container init; cpu, memory limit for init container init",
  );
});

test("LimitRanger.mutate: nothing to default leaves the pod as it was", async () => {
  const plugin = newLimitRanger({ reader: readerOf([defaults]), clock: new FakeClock() });
  const full = { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } };
  const pod: Pod = {
    metadata: { name: "p" },
    spec: { containers: [{ name: "c", image: "x", resources: full }] },
  };
  await plugin.mutate?.(podAttributes(pod));
  assert.equal(pod.metadata.annotations, undefined);
  assert.deepEqual(pod.spec.containers[0]?.resources, full);
});

const violations: { name: string; range: LimitRange; pod: Pod; want: string }[] = [
  {
    name: "over the container max, both resources",
    range: range([{ type: "Container", max: { cpu: "1", memory: "512Mi" } }]),
    pod: basicPod({ limits: { cpu: "2", memory: "1Gi" } }),
    want: 'pods "p" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 512Mi, but limit is 1Gi, maximum cpu usage per Container is 1.  No limit is specified, maximum memory usage per Container is 512Mi.  No limit is specified]',
  },
  {
    name: "a missing limit under a max, the same message once for two containers",
    range: range([{ type: "Container", max: { cpu: "1" } }]),
    pod: {
      metadata: { name: "p" },
      spec: {
        containers: [
          { name: "a", image: "x" },
          { name: "b", image: "x" },
        ],
      },
    },
    want: 'pods "p" is forbidden: maximum cpu usage per Container is 1.  No limit is specified',
  },
  {
    name: "under the min",
    range: range([{ type: "Container", min: { memory: "64Mi" } }]),
    pod: {
      metadata: { name: "p" },
      spec: {
        containers: [{ name: "c", image: "x", resources: { requests: { memory: "32Mi" } } }],
      },
    },
    want: 'pods "p" is forbidden: minimum memory usage per Container is 64Mi, but request is 32Mi',
  },
  {
    name: "no request under a min",
    range: range([{ type: "Container", min: { cpu: "100m" } }]),
    pod: { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "x" }] } },
    want: 'pods "p" is forbidden: minimum cpu usage per Container is 100m.  No request is specified',
  },
  {
    name: "a limit to request ratio over the maximum",
    range: range([{ type: "Container", maxLimitRequestRatio: { cpu: "2" } }]),
    pod: {
      metadata: { name: "p" },
      spec: {
        containers: [
          {
            name: "c",
            image: "x",
            resources: { requests: { cpu: "100m" }, limits: { cpu: "300m" } },
          },
        ],
      },
    },
    want: 'pods "p" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000',
  },
  {
    name: "the pod's sum over the Pod max",
    range: range([{ type: "Pod", max: { memory: "1Gi" } }]),
    pod: {
      metadata: { name: "p" },
      spec: {
        containers: [
          { name: "a", image: "x", resources: { limits: { memory: "768Mi" } } },
          { name: "b", image: "x", resources: { limits: { memory: "512Mi" } } },
        ],
      },
    },
    want: 'pods "p" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 1280Mi',
  },
];

for (const c of violations) {
  test(`LimitRanger.validate: ${c.name}`, async () => {
    const plugin = newLimitRanger({ reader: readerOf([c.range]), clock: new FakeClock() });
    const decision = await plugin.validate?.(podAttributes(c.pod));
    assert.equal(decision?.allowed, false, "refused");
    const error = (decision as { error: ApiError }).error;
    assert.equal(error.code, 403);
    assert.equal(error.message, c.want);
  });
}

test("LimitRanger: a pod inside every bound is admitted; updates are not its business", async () => {
  const plugin = newLimitRanger({ reader: readerOf([defaults]), clock: new FakeClock() });
  const pod = basicPod();
  await plugin.mutate?.(podAttributes(pod));
  assert.deepEqual(await plugin.validate?.(podAttributes(pod)), { allowed: true });
  assert.equal(plugin.handles({ ...podAttributes(pod), operation: "UPDATE" }), false, "updates");
  assert.equal(plugin.handles({ ...podAttributes(pod), subresource: "status" }), false, "status");
});

test("LimitRanger: an empty cache is looked up live at most every 30 s per namespace", async () => {
  const counter = { fresh: 0 };
  const clock = new FakeClock();
  const plugin = newLimitRanger({ reader: readerOf([], counter), clock });
  await plugin.mutate?.(podAttributes(basicPod()));
  await plugin.validate?.(podAttributes(basicPod()));
  assert.equal(counter.fresh, 1);
  await clock.advance(30_001);
  await plugin.mutate?.(podAttributes(basicPod()));
  assert.equal(counter.fresh, 2);
});

test("aggregateMessages: one message alone, several in brackets, duplicates once", () => {
  assert.equal(aggregateMessages(["a"]), "a");
  assert.equal(aggregateMessages(["a", "b", "a"]), "[a, b]");
  assert.equal(aggregateMessages(["a", "a"]), "a");
});
