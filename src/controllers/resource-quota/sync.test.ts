import assert from "node:assert/strict";
import { test } from "node:test";
import type { KubeObject, Pod, ResourceQuota } from "../../api/index.ts";
import { computeQuotaStatus, type ObjectSource } from "./sync.ts";

const now = new Date("2025-01-01T00:00:00Z");

const pod = (name: string, cpu?: string, phase?: "Running" | "Succeeded"): Pod => ({
  metadata: { name, namespace: "ns" },
  spec: {
    containers: [
      {
        name: "c",
        image: "nginx",
        ...(cpu === undefined ? {} : { resources: { requests: { cpu }, limits: { cpu } } }),
      },
    ],
  },
  ...(phase === undefined ? {} : { status: { phase } }),
});

function source(
  objects: Record<string, readonly KubeObject[] | "unknown" | "pending">,
): ObjectSource {
  return (evaluator, namespace) => {
    assert.equal(namespace, "ns");
    return objects[`${evaluator.resource}.${evaluator.group}`] ?? [];
  };
}

const quota = (
  hard: Record<string, string>,
  status?: ResourceQuota["status"],
  scopes?: string[],
): ResourceQuota => ({
  metadata: { name: "q", namespace: "ns" },
  spec: { hard, ...(scopes === undefined ? {} : { scopes }) },
  ...(status === undefined ? {} : { status }),
});

const cases: {
  name: string;
  quota: ResourceQuota;
  objects: Record<string, readonly KubeObject[] | "unknown" | "pending">;
  want: ReturnType<typeof computeQuotaStatus>;
}[] = [
  {
    name: "a new quota: hard copied, every tracked resource counted (finished pods release compute)",
    quota: quota({
      pods: "5",
      "requests.cpu": "2",
      "limits.cpu": "4",
      "count/pods": "10",
      configmaps: "3",
    }),
    objects: {
      "pods.": [
        pod("a", "500m"),
        pod("b", "250m"),
        pod("done", "1", "Succeeded"),
      ] as unknown as KubeObject[],
      "configmaps.": [{ metadata: { name: "cm", namespace: "ns" } }],
    },
    want: {
      kind: "status",
      dirty: true,
      status: {
        hard: {
          pods: "5",
          "requests.cpu": "2",
          "limits.cpu": "4",
          "count/pods": "10",
          configmaps: "3",
        },
        used: {
          pods: "2",
          "requests.cpu": "750m",
          "limits.cpu": "750m",
          "count/pods": "3",
          configmaps: "1",
        },
      },
    },
  },
  {
    name: "an unchanged count is not dirty",
    quota: quota({ pods: "5" }, { hard: { pods: "5" }, used: { pods: "1" } }),
    objects: { "pods.": [pod("a")] as unknown as KubeObject[] },
    want: { kind: "status", dirty: false, status: { hard: { pods: "5" }, used: { pods: "1" } } },
  },
  {
    name: "a changed hard limit is dirty; a dropped resource leaves used",
    quota: quota(
      { pods: "3" },
      { hard: { pods: "5", secrets: "1" }, used: { pods: "1", secrets: "0" } },
    ),
    objects: { "pods.": [pod("a")] as unknown as KubeObject[] },
    want: { kind: "status", dirty: true, status: { hard: { pods: "3" }, used: { pods: "1" } } },
  },
  {
    name: "scopes filter what is counted",
    quota: quota({ pods: "5" }, undefined, ["BestEffort"]),
    objects: { "pods.": [pod("a"), pod("b", "1")] as unknown as KubeObject[] },
    want: { kind: "status", dirty: true, status: { hard: { pods: "5" }, used: { pods: "1" } } },
  },
  {
    name: "a resource that is not served gets no usage",
    quota: quota({ "count/widgets.example.com": "2", pods: "1" }),
    objects: { "widgets.example.com": "unknown" },
    want: {
      kind: "status",
      dirty: true,
      status: { hard: { "count/widgets.example.com": "2", pods: "1" }, used: { pods: "0" } },
    },
  },
  {
    name: "a cache still filling means try again",
    quota: quota({ "count/deployments.apps": "2" }),
    objects: { "deployments.apps": "pending" },
    want: { kind: "pending" },
  },
];

for (const c of cases) {
  test(`computeQuotaStatus: ${c.name}`, () => {
    assert.deepEqual(computeQuotaStatus(c.quota, source(c.objects), now), c.want);
  });
}
