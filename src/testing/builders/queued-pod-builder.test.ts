import assert from "node:assert/strict";
import { test } from "node:test";
import { makeQueuedPod } from "./queued-pod-builder.ts";

const cases = [
  {
    name: "defaults: queue user-queue in default, restartPolicy Never, one CPU of busybox",
    got: makeQueuedPod("p"),
    want: {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: "p",
        namespace: "default",
        labels: { "kueue.x-k8s.io/queue-name": "user-queue" },
      },
      spec: {
        restartPolicy: "Never",
        containers: [{ name: "c", image: "busybox", resources: { requests: { cpu: "1" } } }],
      },
    },
  },
  {
    name: "a group member with priority, run time, exit code and extra metadata",
    got: makeQueuedPod("m", {
      namespace: "team-a",
      queue: "lq",
      priorityClass: "low",
      group: "g",
      total: 2,
      runFor: "1s",
      exitCode: 1,
      requests: { cpu: "2", memory: "1Gi" },
      image: "pause",
      labels: { "kueue.x-k8s.io/pod-group-role": "workers" },
      annotations: { "kueue.x-k8s.io/retriable-in-group": "false" },
    }),
    want: {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: "m",
        namespace: "team-a",
        labels: {
          "kueue.x-k8s.io/queue-name": "lq",
          "kueue.x-k8s.io/priority-class": "low",
          "kueue.x-k8s.io/pod-group-name": "g",
          "kueue.x-k8s.io/pod-group-role": "workers",
        },
        annotations: {
          "kueue.x-k8s.io/pod-group-total-count": "2",
          "gantry.dev/run-for": "1s",
          "gantry.dev/exit-code": "1",
          "kueue.x-k8s.io/retriable-in-group": "false",
        },
      },
      spec: {
        restartPolicy: "Never",
        containers: [
          { name: "c", image: "pause", resources: { requests: { cpu: "2", memory: "1Gi" } } },
        ],
      },
    },
  },
  {
    name: "gated: the managed label, finalizer and admission gate of Kueue's pod webhook",
    got: makeQueuedPod("g", { gated: true }),
    want: {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: "g",
        namespace: "default",
        labels: { "kueue.x-k8s.io/queue-name": "user-queue", "kueue.x-k8s.io/managed": "true" },
        finalizers: ["kueue.x-k8s.io/managed"],
      },
      spec: {
        restartPolicy: "Never",
        schedulingGates: [{ name: "kueue.x-k8s.io/admission" }],
        containers: [{ name: "c", image: "busybox", resources: { requests: { cpu: "1" } } }],
      },
    },
  },
  {
    name: "extra labels override the ones the options set",
    got: makeQueuedPod("u", { labels: { "kueue.x-k8s.io/queue-name": "other" } }).metadata.labels,
    want: { "kueue.x-k8s.io/queue-name": "other" },
  },
] as const;

for (const c of cases) {
  test(`makeQueuedPod: ${c.name}`, () => {
    assert.deepEqual(c.got, c.want);
  });
}

test("makeQueuedPod: the requests given are copied, not shared", () => {
  const requests = { cpu: "1" };
  const pod = makeQueuedPod("p", { requests });
  requests.cpu = "2";
  assert.deepEqual(pod.spec.containers[0]?.resources?.requests, { cpu: "1" });
});
