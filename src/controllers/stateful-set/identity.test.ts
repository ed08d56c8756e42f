import assert from "node:assert/strict";
import { test } from "node:test";
import { makeStatefulSet } from "../../testing/index.ts";
import { newControllerRef } from "../framework/index.ts";
import {
  identityMatches,
  newStatefulSetPod,
  parentAndOrdinal,
  storageMatches,
  updateIdentity,
} from "./identity.ts";

const parseCases = [
  { name: "a set name and ordinal", pod: "web-3", want: { parent: "web", ordinal: 3 } },
  { name: "the last dash splits", pod: "my-db-12", want: { parent: "my-db", ordinal: 12 } },
  { name: "no ordinal", pod: "web", want: { parent: "", ordinal: -1 } },
  { name: "a generated suffix is no ordinal", pod: "web-x7k2p", want: { parent: "", ordinal: -1 } },
  {
    name: "an ordinal beyond int32 is none",
    pod: "web-99999999999",
    want: { parent: "web", ordinal: -1 },
  },
] as const;

for (const c of parseCases) {
  test(`parentAndOrdinal: ${c.name}`, () => {
    assert.deepEqual(parentAndOrdinal(c.pod), c.want);
  });
}

const set = makeStatefulSet("web").serviceName("web-svc").volumeClaim("data").obj();
const ref = newControllerRef(set, { apiVersion: "apps/v1", kind: "StatefulSet" });

test("newStatefulSetPod: names, labels, hostname, subdomain, claim volume and owner of one ordinal", () => {
  const pod = newStatefulSetPod(set, set.spec.template, 2, "web-abc", ref);
  assert.deepEqual(
    {
      name: pod.metadata.name,
      generateName: pod.metadata.generateName,
      labels: pod.metadata.labels,
      hostname: pod.spec.hostname,
      subdomain: pod.spec.subdomain,
      volumes: pod.spec.volumes,
      owners: pod.metadata.ownerReferences,
    },
    {
      name: "web-2",
      generateName: "web-",
      labels: {
        app: "web",
        "statefulset.kubernetes.io/pod-name": "web-2",
        "apps.kubernetes.io/pod-index": "2",
        "controller-revision-hash": "web-abc",
      },
      hostname: "web-2",
      subdomain: "web-svc",
      volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data-web-2" } }],
      owners: [ref],
    },
  );
});

test("identityMatches: false without the pod-name label, true once updateIdentity restored it", () => {
  const pod = newStatefulSetPod(set, set.spec.template, 1, "web-abc", ref);
  delete pod.metadata.labels?.["statefulset.kubernetes.io/pod-name"];
  const before = identityMatches(set, pod);
  updateIdentity(set, pod);
  assert.deepEqual(
    { before, after: identityMatches(set, pod), storage: storageMatches(set, pod) },
    { before: false, after: true, storage: true },
  );
});

test("storageMatches: false when the claim volume points at another ordinal's claim", () => {
  const pod = newStatefulSetPod(set, set.spec.template, 1, "web-abc", ref);
  pod.spec.volumes = [{ name: "data", persistentVolumeClaim: { claimName: "data-web-0" } }];
  assert.equal(storageMatches(set, pod), false);
});
