import assert from "node:assert/strict";
import { test } from "node:test";
import { makeClusterQueue } from "../testing/index.ts";
import { beyondStatus } from "./queueing.ts";

test("beyondStatus: only changes users make start another admission cycle", () => {
  const cq = makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "5" } })
    .obj();
  const cases: { name: string; edit: (o: typeof cq) => void; want: boolean }[] = [
    { name: "nothing", edit: () => undefined, want: false },
    {
      name: "status written by the cycle",
      edit: (o) => {
        o.status = { pendingWorkloads: 3 };
        o.metadata.resourceVersion = "9";
      },
      want: false,
    },
    {
      name: "spec",
      edit: (o) => {
        o.spec.cohort = "team";
      },
      want: true,
    },
    {
      name: "labels",
      edit: (o) => {
        o.metadata.labels = { a: "b" };
      },
      want: true,
    },
    {
      name: "deletion",
      edit: (o) => {
        o.metadata.deletionTimestamp = "2026-01-01T00:00:00Z";
      },
      want: true,
    },
  ];
  for (const c of cases) {
    const next = structuredClone(cq);
    c.edit(next);
    assert.equal(beyondStatus(cq, next), c.want, c.name);
  }
});
