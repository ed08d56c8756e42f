import assert from "node:assert/strict";
import { test } from "node:test";
import type { Container } from "../core/v1/pod-template.ts";
import type { Pod } from "../core/v1/pod-types.ts";
import type { ResourceQuota } from "../core/v1/resource-quota.ts";
import type { Service } from "../core/v1/service.ts";
import {
  newPodEvaluator,
  newServiceEvaluator,
  objectCountName,
  parseObjectCountName,
  podUsage,
  quotaEvaluatorFor,
  quotaEvaluatorsFor,
  quotaMatches,
  usageStats,
} from "./quota-evaluators.ts";
import { printUsage } from "./quota-usage.ts";

const now = new Date("2025-01-01T00:00:00Z");

const pod = (containers: Partial<Container>[], extra: Partial<Pod["spec"]> = {}): Pod => ({
  metadata: { name: "p", namespace: "ns" },
  spec: {
    containers: containers.map((c, i) => ({ name: `c${i}`, image: "nginx", ...c })),
    ...extra,
  },
});

const usageCases: { name: string; pod: Pod; want: string }[] = [
  {
    name: "a best-effort pod counts as one pod",
    pod: pod([{}]),
    want: "count/pods=1,pods=1",
  },
  {
    name: "requests and limits add up over containers",
    pod: pod([
      { resources: { requests: { cpu: "250m", memory: "64Mi" }, limits: { cpu: "500m" } } },
      { resources: { requests: { cpu: "750m", memory: "64Mi" }, limits: { cpu: "1" } } },
    ]),
    want: "count/pods=1,cpu=1,limits.cpu=1500m,memory=128Mi,pods=1,requests.cpu=1,requests.memory=128Mi",
  },
  {
    name: "an init container peaks, a sidecar adds",
    pod: pod([{ resources: { requests: { cpu: "100m" } } }], {
      initContainers: [
        { name: "setup", image: "x", resources: { requests: { cpu: "2" } } },
        {
          name: "proxy",
          image: "x",
          restartPolicy: "Always",
          resources: { requests: { cpu: "50m" } },
        },
      ],
    }),
    want: "count/pods=1,cpu=2,pods=1,requests.cpu=2",
  },
  {
    name: "extended resources and hugepages are quota-ed as requests",
    pod: pod([
      {
        resources: {
          requests: { "nvidia.com/gpu": "2", "hugepages-2Mi": "4Mi", memory: "1Gi" },
          limits: { "nvidia.com/gpu": "2", "hugepages-2Mi": "4Mi", memory: "1Gi" },
        },
      },
    ]),
    want: "count/pods=1,hugepages-2Mi=4Mi,limits.memory=1Gi,memory=1Gi,pods=1,requests.hugepages-2Mi=4Mi,requests.memory=1Gi,requests.nvidia.com/gpu=2",
  },
  {
    name: "pod-level resources stand for the containers' cpu and memory",
    pod: pod([{ resources: { requests: { cpu: "100m" } } }], {
      resources: { requests: { cpu: "1" }, limits: { cpu: "2" } },
    }),
    want: "count/pods=1,cpu=1,limits.cpu=2,pods=1,requests.cpu=1",
  },
];

for (const c of usageCases) {
  test(`podUsage: ${c.name}`, () => {
    assert.equal(printUsage(podUsage(c.pod, now)), c.want);
  });
}

test("podUsage: terminal pods and pods past their deletion grace count only as objects", () => {
  const running = pod([{ resources: { requests: { cpu: "1" } } }]);
  const succeeded: Pod = { ...running, status: { phase: "Succeeded" } };
  assert.equal(printUsage(podUsage(succeeded, now)), "count/pods=1");
  const deleting: Pod = {
    ...running,
    metadata: {
      ...running.metadata,
      deletionTimestamp: "2024-12-31T23:59:30Z",
      deletionGracePeriodSeconds: 30,
    },
  };
  // Still within deletionTimestamp + grace: charged.
  assert.match(printUsage(podUsage(deleting, now)), /pods=1,requests.cpu=1/);
  const later = new Date("2025-01-01T00:00:01Z");
  assert.equal(printUsage(podUsage(deleting, later)), "count/pods=1");
});

const scoped = (scopes: string[], selector?: ResourceQuota["spec"]): ResourceQuota => ({
  metadata: { name: "q", namespace: "ns" },
  spec: { hard: { pods: "1" }, scopes, ...selector },
  status: { hard: { pods: "1" }, used: { pods: "0" } },
});

test("quotaMatches: pod scopes", () => {
  const e = newPodEvaluator();
  const bestEffort = pod([{}]);
  const burstable = pod([{ resources: { requests: { cpu: "1" } } }], {
    activeDeadlineSeconds: 60,
    priorityClassName: "high",
  });
  const matches = (q: ResourceQuota) => [
    quotaMatches(e, q, bestEffort),
    quotaMatches(e, q, burstable),
  ];
  assert.deepEqual(matches(scoped([])), [true, true], "no scope matches every pod");
  assert.deepEqual(matches(scoped(["BestEffort"])), [true, false], "BestEffort");
  assert.deepEqual(matches(scoped(["NotBestEffort"])), [false, true], "NotBestEffort");
  assert.deepEqual(matches(scoped(["Terminating"])), [false, true], "Terminating");
  assert.deepEqual(matches(scoped(["NotTerminating"])), [true, false], "NotTerminating");
  assert.deepEqual(matches(scoped(["PriorityClass"])), [false, true], "PriorityClass exists");
  const inHigh = scoped([], {
    scopeSelector: {
      matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }],
    },
  });
  assert.deepEqual(matches(inHigh), [false, true], "PriorityClass In");
  const notInHigh = scoped([], {
    scopeSelector: {
      matchExpressions: [{ scopeName: "PriorityClass", operator: "NotIn", values: ["high"] }],
    },
  });
  assert.deepEqual(matches(notInHigh), [true, false], "PriorityClass NotIn");
});

test("quotaMatches: a quota matches only through status.hard, and object counts never in a scope", () => {
  const q: ResourceQuota = { metadata: { name: "q" }, spec: { hard: { pods: "1" } } };
  assert.equal(quotaMatches(newPodEvaluator(), q, pod([{}])), false, "no status yet");
  const counts = quotaEvaluatorFor("", "configmaps");
  const cm = { metadata: { name: "cm", namespace: "ns" } };
  const byAlias: ResourceQuota = { ...q, status: { hard: { configmaps: "2" } } };
  assert.equal(quotaMatches(counts, byAlias, cm), true, "legacy name");
  const scopedCount: ResourceQuota = {
    ...q,
    spec: { hard: { configmaps: "2" }, scopes: ["BestEffort"] },
    status: { hard: { configmaps: "2" } },
  };
  assert.equal(quotaMatches(counts, scopedCount, cm), false, "scoped");
});

test("constraints: quotas on cpu or memory need every container to name them", () => {
  const e = newPodEvaluator();
  const p = pod([{ resources: { requests: { cpu: "1" } } }, {}], {
    initContainers: [{ name: "init", image: "x" }],
  });
  assert.equal(
    e.constraints(["pods", "requests.cpu", "limits.memory"], p),
    "must specify limits.memory for: c0,c1,init; requests.cpu for: c1,init",
  );
  assert.equal(e.constraints(["pods", "requests.nvidia.com/gpu"], p), undefined);
});

test("service usage: node ports and load balancers", () => {
  const e = newServiceEvaluator();
  const svc = (spec: NonNullable<Service["spec"]>): Service => ({ metadata: { name: "s" }, spec });
  const ports = [{ port: 80 }, { port: 443 }];
  assert.equal(
    printUsage(e.usage(svc({ type: "ClusterIP", ports }), now)),
    "count/services=1,services=1,services.loadbalancers=0,services.nodeports=0",
  );
  assert.equal(
    printUsage(e.usage(svc({ type: "NodePort", ports }), now)),
    "count/services=1,services=1,services.loadbalancers=0,services.nodeports=2",
  );
  assert.equal(
    printUsage(e.usage(svc({ type: "LoadBalancer", ports }), now)),
    "count/services=1,services=1,services.loadbalancers=1,services.nodeports=2",
  );
});

test("object count names", () => {
  assert.equal(objectCountName("apps", "deployments"), "count/deployments.apps");
  assert.equal(objectCountName("", "secrets"), "count/secrets");
  assert.deepEqual(parseObjectCountName("count/deployments.apps"), {
    group: "apps",
    resource: "deployments",
  });
  assert.deepEqual(parseObjectCountName("count/widgets.example.com"), {
    group: "example.com",
    resource: "widgets",
  });
  assert.equal(parseObjectCountName("pods"), undefined);
  const evaluators = quotaEvaluatorsFor(["count/deployments.apps", "count/pods", "cpu"]);
  assert.deepEqual(
    evaluators.map((e) => `${e.resource}.${e.group}`),
    [
      "pods.",
      "services.",
      "configmaps.",
      "resourcequotas.",
      "replicationcontrollers.",
      "secrets.",
      "deployments.apps",
    ],
  );
});

test("usageStats: tracked resources start at zero; only objects in every scope count", () => {
  const e = newPodEvaluator();
  const pods = [
    pod([{ resources: { requests: { cpu: "1" } } }]),
    pod([{}]),
    { ...pod([{ resources: { requests: { cpu: "2" } } }]), status: { phase: "Failed" as const } },
  ];
  const used = usageStats(
    e,
    pods,
    [{ scopeName: "NotBestEffort", operator: "Exists" }],
    ["pods", "requests.cpu", "requests.memory"],
    now,
  );
  assert.equal(printUsage(used), "count/pods=2,cpu=1,pods=1,requests.cpu=1,requests.memory=0");
});
