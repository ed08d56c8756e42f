import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultLeaderWorkerSet } from "../../api/index.ts";
import { makeLeaderWorkerSet, makePod } from "../../testing/index.ts";
import { podGroupTemplateName, podIdentity } from "./identity.ts";
import { groupPolicy } from "./scheduling.ts";

const policyCases = [
  {
    name: "a group of several pods is a gang of its size",
    size: 4,
    startup: "LeaderCreated",
    want: { gang: { minCount: 4 } },
  },
  { name: "a group of one pod is basic", size: 1, startup: "LeaderCreated", want: { basic: {} } },
  {
    name: "LeaderReady is basic: its workers only exist once the leader runs",
    size: 4,
    startup: "LeaderReady",
    want: { basic: {} },
  },
] as const;

for (const c of policyCases) {
  test(`groupPolicy: ${c.name}`, () => {
    const lws = defaultLeaderWorkerSet(
      makeLeaderWorkerSet("lws").size(c.size).startupPolicy(c.startup).obj(),
    );
    assert.deepEqual(groupPolicy(lws), c.want);
  });
}

test("podGroupTemplateName: <lws>-pg-template, the name cut so the whole fits a DNS label", () => {
  const long = "a".repeat(60);
  assert.deepEqual(
    [
      podGroupTemplateName("lws"),
      podGroupTemplateName(long).length,
      podGroupTemplateName(long).endsWith("-pg-template"),
    ],
    ["lws-pg-template", 63, true],
  );
});

const identityCases = [
  {
    name: "a worker by its labels and name",
    pod: "lws-1-2",
    labels: { group: "1", worker: "2" },
    want: { group: 1, worker: 2 },
  },
  {
    name: "a leader",
    pod: "lws-3",
    labels: { group: "3", worker: "0" },
    want: { group: 3, worker: 0 },
  },
  {
    name: "a name that does not match the labels is no member",
    pod: "lws-1-3",
    labels: { group: "1", worker: "2" },
    want: undefined,
  },
  {
    name: "an index with a leading zero is no index",
    pod: "lws-01",
    labels: { group: "01", worker: "0" },
    want: undefined,
  },
] as const;

for (const c of identityCases) {
  test(`podIdentity: ${c.name}`, () => {
    const pod = makePod(c.pod)
      .labels({
        "leaderworkerset.sigs.k8s.io/name": "lws",
        "leaderworkerset.sigs.k8s.io/group-index": c.labels.group,
        "leaderworkerset.sigs.k8s.io/worker-index": c.labels.worker,
      })
      .obj();
    assert.deepEqual(podIdentity("lws", pod), c.want);
  });
}
