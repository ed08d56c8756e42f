import assert from "node:assert/strict";
import { test } from "node:test";
import { makePod } from "../../testing/index.ts";
import type { Pod } from "../core/v1/pod-types.ts";
import {
  isExtendedResourceName,
  isScalarResourceName,
  type PodRequestsOptions,
  podRequests,
  quantityAmount,
} from "./pod-resources.ts";

const nonZero: PodRequestsOptions = {
  nonMissingContainerRequests: new Map([
    ["cpu", 100],
    ["memory", 200 * 1024 * 1024],
  ]),
};

const requestCases: readonly {
  name: string;
  pod: Pod;
  options?: PodRequestsOptions;
  want: Record<string, number>;
}[] = [
  {
    name: "a pod without requests requests nothing",
    pod: makePod("p").obj(),
    want: {},
  },
  {
    name: "regular containers add up",
    pod: makePod("p")
      .requests({ cpu: "500m", memory: "1Gi" })
      .container({ cpu: "1", memory: "512Mi" })
      .obj(),
    want: { cpu: 1500, memory: 1536 * 1024 * 1024 },
  },
  {
    name: "an init container larger than the containers sets the request",
    pod: makePod("p").requests({ cpu: "1" }).initContainer({ cpu: "2", memory: "1Gi" }).obj(),
    want: { cpu: 2000, memory: 1024 ** 3 },
  },
  {
    name: "init containers take the max, not the sum (upstream's example)",
    pod: makePod("p")
      .requests({ cpu: "2", memory: "1G" })
      .container({ cpu: "1", memory: "1G" })
      .initContainer({ cpu: "2", memory: "1G" })
      .initContainer({ cpu: "2", memory: "3G" })
      .obj(),
    want: { cpu: 3000, memory: 3e9 },
  },
  {
    name: "sidecars add to the containers and to every later init container",
    pod: makePod("p")
      .requests({ cpu: "1" })
      .initContainer({ cpu: "500m" }, { sidecar: true })
      .initContainer({ cpu: "2" })
      .obj(),
    want: { cpu: 2500 },
  },
  {
    name: "an init container before a sidecar does not see it",
    pod: makePod("p")
      .requests({ cpu: "100m" })
      .initContainer({ cpu: "1" })
      .initContainer({ cpu: "200m" }, { sidecar: true })
      .obj(),
    want: { cpu: 1000 },
  },
  {
    name: "overhead is added",
    pod: makePod("p").requests({ cpu: "1" }).overhead({ cpu: "250m", memory: "120Mi" }).obj(),
    want: { cpu: 1250, memory: 120 * 1024 * 1024 },
  },
  {
    name: "overhead is left out on request",
    pod: makePod("p").requests({ cpu: "1" }).overhead({ cpu: "250m" }).obj(),
    options: { excludeOverhead: true },
    want: { cpu: 1000 },
  },
  {
    name: "pod-level requests replace container cpu and memory but not extended resources",
    pod: makePod("p")
      .requests({ cpu: "1", memory: "1Gi", "nvidia.com/gpu": "2" })
      .podRequests({ cpu: "3" })
      .obj(),
    want: { cpu: 3000, memory: 1024 ** 3, "nvidia.com/gpu": 2 },
  },
  {
    name: "missing container requests get the non-missing defaults",
    pod: makePod("p").requests({ cpu: "1" }).container({}).obj(),
    options: nonZero,
    want: { cpu: 1100, memory: 400 * 1024 * 1024 },
  },
  {
    name: "an explicit zero request is not missing",
    pod: makePod("p").requests({ cpu: "0", memory: "0" }).obj(),
    options: nonZero,
    want: { cpu: 0, memory: 0 },
  },
  {
    name: "fractions round up to the next millicore and byte",
    pod: makePod("p").requests({ cpu: "0.0001", memory: "1.5" }).obj(),
    want: { cpu: 1, memory: 2 },
  },
];

for (const c of requestCases) {
  test(`podRequests: ${c.name}`, () => {
    assert.deepEqual(Object.fromEntries(podRequests(c.pod, c.options)), c.want);
  });
}

const amountCases = [
  { name: "cpu is in millicores", resource: "cpu", quantity: "1.5", want: 1500 },
  { name: "memory is in bytes", resource: "memory", quantity: "1Ki", want: 1024 },
  { name: "extended resources are counts", resource: "nvidia.com/gpu", quantity: "2", want: 2 },
  { name: "an unparsable quantity counts as zero", resource: "cpu", quantity: "lots", want: 0 },
] as const;

for (const c of amountCases) {
  test(`quantityAmount: ${c.name}`, () => {
    assert.equal(quantityAmount(c.resource, c.quantity), c.want);
  });
}

const nameCases = [
  { name: "nvidia.com/gpu", extended: true, scalar: true },
  { name: "cpu", extended: false, scalar: false },
  { name: "kubernetes.io/something", extended: false, scalar: true },
  { name: "hugepages-2Mi", extended: false, scalar: true },
  { name: "requests.example.com/foo", extended: false, scalar: false },
  { name: "example.com/a/b", extended: false, scalar: false },
] as const;

for (const c of nameCases) {
  test(`isExtendedResourceName: ${c.name} is ${c.extended ? "" : "not "}extended`, () => {
    assert.equal(isExtendedResourceName(c.name), c.extended);
    assert.equal(isScalarResourceName(c.name), c.scalar);
  });
}
