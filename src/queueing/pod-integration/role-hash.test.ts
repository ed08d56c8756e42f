import assert from "node:assert/strict";
import { test } from "node:test";
import type { PodSpec } from "../../api/index.ts";
import { roleHash, roleHashDocument } from "./role-hash.ts";

/** What the API server's Priority and DefaultTolerationSeconds admission add before Kueue's webhook. */
const admissionDefaults: Partial<PodSpec> = {
  priority: 0,
  tolerations: [
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
};

function spec(requests: Record<string, string> | undefined, defaults: boolean): PodSpec {
  return {
    containers: [
      { name: "c", image: "pause", ...(requests === undefined ? {} : { resources: { requests } }) },
    ],
    ...(defaults ? admissionDefaults : {}),
  } as PodSpec;
}

// The vectors of Kueue's webhook unit tests (raw specs) and integration tests (after the API
// server's defaults), per docs of KEP-976's role hash.
const cases = [
  { name: "no requests, raw", spec: spec(undefined, false), want: "7aa6c7b8" },
  { name: "an empty requests map, raw", spec: spec({}, false), want: "a9f06f3a" },
  { name: "no requests, defaulted", spec: spec(undefined, true), want: "bf90803c" },
  { name: "cpu 1, raw", spec: spec({ cpu: "1" }, false), want: "dc85db45" },
  { name: "cpu 1, defaulted", spec: spec({ cpu: "1" }, true), want: "4b0469f7" },
  {
    name: "cpu 1 and memory 1Gi, raw",
    spec: spec({ cpu: "1", memory: "1Gi" }, false),
    want: "4ebdd4a6",
  },
  {
    name: "cpu 1 and memory 1Gi, defaulted",
    spec: spec({ cpu: "1", memory: "1Gi" }, true),
    want: "f001d561",
  },
  { name: "cpu 2, raw", spec: spec({ cpu: "2" }, false), want: "21a4619c" },
  { name: "cpu 2, defaulted", spec: spec({ cpu: "2" }, true), want: "c3465716" },
  {
    name: "cpu 1.5 prints canonically as 1500m, raw",
    spec: spec({ cpu: "1.5" }, false),
    want: "025f4178",
  },
  { name: "cpu 1500m, defaulted", spec: spec({ cpu: "1500m" }, true), want: "29209a81" },
  { name: "cpu 500m, raw", spec: spec({ cpu: "500m" }, false), want: "3e7adba3" },
  { name: "cpu 0.5, defaulted", spec: spec({ cpu: "0.5" }, true), want: "d1d3a926" },
] as const;

for (const c of cases) {
  test(`roleHash: ${c.name}`, () => {
    assert.equal(roleHash(c.spec), c.want);
  });
}

test("roleHashDocument: the canonical document of a defaulted cpu: 1 pod", () => {
  assert.equal(
    roleHashDocument(spec({ cpu: "1" }, true)),
    '{"spec":{"affinity":null,"containers":[{"ports":null,"resources":{"requests":{"cpu":"1"}}}],"initContainers":null,"nodeSelector":null,"overhead":null,"priority":0,"resourceClaims":null,"runtimeClassName":null,"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],"topologySpreadConstraints":null}}',
  );
});

test("roleHash: image, command, labels and volumes do not change the role; requests and node selectors do", () => {
  const base = spec({ cpu: "1" }, true);
  const other = {
    ...base,
    containers: [{ name: "x", image: "other", command: ["sleep"] }],
    volumes: [],
  } as PodSpec;
  other.containers[0] = {
    ...other.containers[0],
    resources: { requests: { cpu: "1000m" } },
  } as PodSpec["containers"][number];
  assert.equal(
    roleHash(other),
    roleHash(base),
    "image, command and cpu spelling are not in the hash",
  );
  assert.notEqual(
    roleHash({ ...base, nodeSelector: { zone: "a" } }),
    roleHash(base),
    "nodeSelector is in the hash",
  );
  assert.notEqual(
    roleHash({
      ...base,
      containers: [{ name: "c", image: "i", ports: [{ containerPort: 80, protocol: "TCP" }] }],
    } as PodSpec),
    roleHash({ ...base, containers: [{ name: "c", image: "i" }] } as PodSpec),
    "container ports are in the hash",
  );
});
