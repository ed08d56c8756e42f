import assert from "node:assert/strict";
import { test } from "node:test";
import type { ReplicaSet } from "../../api/index.ts";
import { makeDeployment, makeReplicaSet } from "../../testing/index.ts";
import {
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  maxRevision,
  setNewReplicaSetAnnotations,
} from "./replica-sets.ts";

const web = makeDeployment("web").labels({ app: "web" });

test("equalIgnoreHash: templates differing only in pod-template-hash are equal", () => {
  const a = web.obj().spec.template;
  const b = structuredClone(a);
  b.metadata = { labels: { ...b.metadata?.labels, "pod-template-hash": "abc" } };
  assert.equal(equalIgnoreHash(a, b), true);
  assert.equal(equalIgnoreHash(a, web.clone().image("nginx:2").obj().spec.template), false);
});

const rsOf = (name: string, image: string, created: string, revision: number): ReplicaSet =>
  makeReplicaSet(name)
    .labels({ app: "web" })
    .image(image)
    .creationTimestamp(created)
    .revision(revision)
    .obj();

test("findNewReplicaSet: the oldest ReplicaSet with the Deployment's template", () => {
  const older = rsOf("b", "nginx:1", "2024-01-01T00:00:00Z", 1);
  const newer = rsOf("a", "nginx:1", "2024-01-02T00:00:00Z", 2);
  const other = rsOf("c", "nginx:2", "2023-01-01T00:00:00Z", 3);
  assert.equal(findNewReplicaSet(web.obj(), [newer, other, older])?.metadata.name, "b");
  assert.equal(findNewReplicaSet(web.clone().image("nginx:3").obj(), [older]), undefined);
});

test("findOldReplicaSets: every other ReplicaSet, and those that still want pods", () => {
  const current = rsOf("cur", "nginx:1", "2024-01-01T00:00:00Z", 3);
  const scaledDown = makeReplicaSet("gone").image("nginx:0").replicas(0).obj();
  const running = makeReplicaSet("run").image("nginx:2").replicas(2).obj();
  const { withReplicas, all } = findOldReplicaSets(web.obj(), [current, scaledDown, running]);
  assert.deepEqual(
    {
      withReplicas: withReplicas.map((r) => r.metadata.name),
      all: all.map((r) => r.metadata.name),
    },
    { withReplicas: ["run"], all: ["gone", "run"] },
  );
});

test("maxRevision: skips unparsable revisions", () => {
  const bad = makeReplicaSet("x").annotation("deployment.kubernetes.io/revision", "x").obj();
  assert.equal(maxRevision([rsOf("a", "i", "2024-01-01T00:00:00Z", 4), bad]), 4);
  assert.equal(maxRevision([]), 0);
});

const annotationCases = [
  {
    name: "a new ReplicaSet gets the revision, replica annotations and the Deployment's annotations",
    rs: makeReplicaSet("new").obj(),
    exists: false,
    revision: 3,
    wantChanged: true,
    want: {
      team: "a",
      "deployment.kubernetes.io/revision": "3",
      "deployment.kubernetes.io/desired-replicas": "4",
      "deployment.kubernetes.io/max-replicas": "5",
    },
  },
  {
    name: "an existing ReplicaSet rolled back to keeps its old revision in revision-history",
    rs: makeReplicaSet("old").revision(1).annotation("team", "a").obj(),
    exists: true,
    revision: 3,
    wantChanged: true,
    want: {
      team: "a",
      "deployment.kubernetes.io/revision": "3",
      "deployment.kubernetes.io/revision-history": "1",
    },
  },
  {
    name: "revision-history grows with each rollback",
    rs: makeReplicaSet("old")
      .revision(3)
      .annotation("team", "a")
      .annotation("deployment.kubernetes.io/revision-history", "1")
      .obj(),
    exists: true,
    revision: 5,
    wantChanged: true,
    want: {
      team: "a",
      "deployment.kubernetes.io/revision": "5",
      "deployment.kubernetes.io/revision-history": "1,3",
    },
  },
  {
    name: "a higher revision is never lowered",
    rs: makeReplicaSet("cur").revision(7).annotation("team", "a").obj(),
    exists: true,
    revision: 3,
    wantChanged: false,
    want: { team: "a", "deployment.kubernetes.io/revision": "7" },
  },
] as const;

for (const c of annotationCases) {
  test(`setNewReplicaSetAnnotations: ${c.name}`, () => {
    const deployment = web
      .clone()
      .replicas(4)
      .annotation("team", "a")
      .annotation("deployment.kubernetes.io/revision", "9")
      .annotation("kubectl.kubernetes.io/last-applied-configuration", "{}")
      .obj();
    const rs = structuredClone(c.rs);
    const changed = setNewReplicaSetAnnotations(deployment, rs, c.revision, c.exists, 1);
    assert.deepEqual(
      { changed, annotations: rs.metadata.annotations },
      {
        changed: c.wantChanged,
        annotations: c.want,
      },
    );
  });
}
