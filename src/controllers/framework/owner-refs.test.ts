import assert from "node:assert/strict";
import { test } from "node:test";
import type { OwnerReference } from "../../api/index.ts";
import { makePod, makeReplicaSet } from "../../testing/index.ts";
import { type ClaimDecision, decideClaim, newControllerRef } from "./owner-refs.ts";

const rsBuilder = makeReplicaSet("web").uid("rs-uid");
const ref = (uid: string): OwnerReference => ({
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  name: "web",
  uid,
  controller: true,
});

const cases: readonly {
  name: string;
  controller: ReturnType<typeof rsBuilder.obj>;
  pod: ReturnType<ReturnType<typeof makePod>["obj"]>;
  matches: boolean;
  want: ClaimDecision;
}[] = [
  {
    name: "an owned matching pod is kept",
    controller: rsBuilder.obj(),
    pod: makePod("p").ownerReference(ref("rs-uid")).obj(),
    matches: true,
    want: "owned",
  },
  {
    name: "an owned pod is kept while the controller is being deleted",
    controller: rsBuilder.clone().terminating().obj(),
    pod: makePod("p").ownerReference(ref("rs-uid")).obj(),
    matches: true,
    want: "owned",
  },
  {
    name: "an owned pod that stopped matching is released",
    controller: rsBuilder.obj(),
    pod: makePod("p").ownerReference(ref("rs-uid")).obj(),
    matches: false,
    want: "release",
  },
  {
    name: "nothing is released while the controller is being deleted",
    controller: rsBuilder.clone().terminating().obj(),
    pod: makePod("p").ownerReference(ref("rs-uid")).obj(),
    matches: false,
    want: "ignore",
  },
  {
    name: "another controller's pod is ignored",
    controller: rsBuilder.obj(),
    pod: makePod("p").ownerReference(ref("other")).obj(),
    matches: true,
    want: "ignore",
  },
  {
    name: "a matching orphan is adopted",
    controller: rsBuilder.obj(),
    pod: makePod("p").obj(),
    matches: true,
    want: "adopt",
  },
  {
    name: "a non-matching orphan is ignored",
    controller: rsBuilder.obj(),
    pod: makePod("p").obj(),
    matches: false,
    want: "ignore",
  },
  {
    name: "a terminating orphan is ignored",
    controller: rsBuilder.obj(),
    pod: makePod("p").terminating().obj(),
    matches: true,
    want: "ignore",
  },
  {
    name: "an orphan in another namespace is ignored",
    controller: rsBuilder.obj(),
    pod: makePod("p").namespace("other").obj(),
    matches: true,
    want: "ignore",
  },
  {
    name: "a controller being deleted adopts nothing",
    controller: rsBuilder.clone().terminating().obj(),
    pod: makePod("p").obj(),
    matches: true,
    want: "ignore",
  },
  {
    name: "a non-controller owner reference does not make a pod owned",
    controller: rsBuilder.obj(),
    pod: makePod("p")
      .ownerReference({ ...ref("rs-uid"), controller: false })
      .obj(),
    matches: true,
    want: "adopt",
  },
];

for (const c of cases) {
  test(`decideClaim: ${c.name}`, () => {
    assert.equal(decideClaim(c.controller, c.pod, c.matches), c.want);
  });
}

test("newControllerRef: marks the controller and blocks owner deletion", () => {
  assert.deepEqual(
    newControllerRef(rsBuilder.obj(), { apiVersion: "apps/v1", kind: "ReplicaSet" }),
    {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      name: "web",
      uid: "rs-uid",
      controller: true,
      blockOwnerDeletion: true,
    },
  );
});
