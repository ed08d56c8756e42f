import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod, PodPhase } from "../../api/index.ts";
import { activePods, allocatableResources, listPodResources } from "./pod-resources.ts";

function pod(
  name: string,
  spec: Partial<Pod["spec"]>,
  phase: PodPhase = "Running",
  namespace = "default",
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace, uid: `uid-${name}` },
    spec: { containers: [{ name: "app", image: "nginx" }], ...spec },
    status: { phase },
  };
}

const assigned: Readonly<Record<string, readonly number[]>> = {
  "uid-db/app": [2, 3, 34, 35],
  "uid-mesh/proxy": [4, 36],
};
const cpusOf = (uid: string, container: string): readonly number[] =>
  assigned[`${uid}/${container}`] ?? [];

const cases: readonly { name: string; pods: Pod[]; want: unknown }[] = [
  { name: "no pods is an empty response, as omitempty leaves it", pods: [], want: {} },
  {
    name: "pinned containers carry their exclusive cpu_ids; shared ones none",
    pods: [
      pod("db", {}),
      pod("web", {
        containers: [
          { name: "app", image: "nginx" },
          { name: "log", image: "x" },
        ],
      }),
    ],
    want: {
      pod_resources: [
        {
          name: "db",
          namespace: "default",
          containers: [{ name: "app", cpu_ids: [2, 3, 34, 35] }],
        },
        { name: "web", namespace: "default", containers: [{ name: "app" }, { name: "log" }] },
      ],
    },
  },
  {
    name: "sidecars are listed before app containers; plain init containers are not",
    pods: [
      pod("mesh", {
        initContainers: [
          { name: "setup", image: "x" },
          { name: "proxy", image: "envoy", restartPolicy: "Always" },
        ],
      }),
    ],
    want: {
      pod_resources: [
        {
          name: "mesh",
          namespace: "default",
          containers: [{ name: "proxy", cpu_ids: [4, 36] }, { name: "app" }],
        },
      ],
    },
  },
];

for (const c of cases) {
  test(`listPodResources: ${c.name}`, () => {
    assert.deepEqual(listPodResources(c.pods, cpusOf), c.want);
  });
}

test("allocatableResources: the CPU manager's allocatable CPUs, or nothing", () => {
  assert.deepEqual(
    [allocatableResources([1, 2, 3]), allocatableResources([])],
    [{ cpu_ids: [1, 2, 3] }, {}],
  );
});

test("activePods: terminal pods (refused ones included) are left out, the rest sorted", () => {
  const pods = [
    pod("b", {}),
    pod("done", {}, "Succeeded"),
    pod("refused", {}, "Failed"),
    pod("a", {}, "Pending", "other"),
    pod("a", {}),
  ];
  assert.deepEqual(
    activePods(pods).map((p) => `${p.metadata.namespace}/${p.metadata.name}`),
    ["default/a", "default/b", "other/a"],
  );
});
