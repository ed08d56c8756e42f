import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultTolerations, isPodReady, podSelectableFields, qosClassOf } from "./pod-helpers.ts";
import type { Container, Toleration } from "./pod-template.ts";
import type { Pod } from "./pod-types.ts";

const podWith = (containers: Container[], extra: Partial<Pod["spec"]> = {}): Pod => ({
  metadata: { name: "p", namespace: "d" },
  spec: { containers, ...extra },
});

const qosCases: { name: string; containers: Container[]; want: string }[] = [
  { name: "no resources is BestEffort", containers: [{ name: "a" }], want: "BestEffort" },
  {
    name: "equal cpu and memory requests and limits is Guaranteed",
    containers: [
      {
        name: "a",
        resources: {
          requests: { cpu: "1", memory: "1Gi" },
          limits: { cpu: "1000m", memory: "1024Mi" },
        },
      },
    ],
    want: "Guaranteed",
  },
  {
    name: "limits only on cpu is Burstable",
    containers: [{ name: "a", resources: { requests: { cpu: "1" }, limits: { cpu: "1" } } }],
    want: "Burstable",
  },
  {
    name: "requests below limits is Burstable",
    containers: [
      {
        name: "a",
        resources: {
          requests: { cpu: "500m", memory: "1Gi" },
          limits: { cpu: "1", memory: "1Gi" },
        },
      },
    ],
    want: "Burstable",
  },
  {
    name: "zero requests are ignored",
    containers: [{ name: "a", resources: { requests: { cpu: "0" } } }],
    want: "BestEffort",
  },
];

for (const c of qosCases) {
  test(`qosClassOf: ${c.name}`, () => {
    assert.equal(qosClassOf(podWith(structuredClone(c.containers))), c.want);
  });
}

const tolerationCases: { name: string; tolerations: Toleration[]; want: Toleration[] }[] = [
  {
    name: "adds both 300s tolerations",
    tolerations: [],
    want: [
      {
        key: "node.kubernetes.io/not-ready",
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 300,
      },
      {
        key: "node.kubernetes.io/unreachable",
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 300,
      },
    ],
  },
  {
    name: "keeps an existing not-ready toleration",
    tolerations: [
      {
        key: "node.kubernetes.io/not-ready",
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 10,
      },
    ],
    want: [
      {
        key: "node.kubernetes.io/not-ready",
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 10,
      },
      {
        key: "node.kubernetes.io/unreachable",
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 300,
      },
    ],
  },
  {
    name: "a tolerate-everything toleration covers both",
    tolerations: [{ operator: "Exists" }],
    want: [{ operator: "Exists" }],
  },
];

for (const c of tolerationCases) {
  test(`defaultTolerations: ${c.name}`, () => {
    assert.deepEqual(
      defaultTolerations(podWith([{ name: "a" }], { tolerations: c.tolerations })),
      c.want,
    );
  });
}

test("isPodReady: reads the Ready condition", () => {
  const pod = podWith([{ name: "a" }]);
  assert.equal(isPodReady(pod), false);
  pod.status = { conditions: [{ type: "Ready", status: "True" }] };
  assert.equal(isPodReady(pod), true);
});

test("podSelectableFields: upstream's pod field labels", () => {
  const pod = podWith([{ name: "a" }], { nodeName: "n1", hostNetwork: true });
  pod.status = { phase: "Running", podIPs: [{ ip: "10.0.0.1" }] };
  assert.deepEqual(podSelectableFields(pod), {
    "spec.nodeName": "n1",
    "spec.restartPolicy": "",
    "spec.schedulerName": "",
    "spec.serviceAccountName": "",
    "spec.hostNetwork": "true",
    "status.phase": "Running",
    "status.podIP": "10.0.0.1",
    "status.nominatedNodeName": "",
  });
});
