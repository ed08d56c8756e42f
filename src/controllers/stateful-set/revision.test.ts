import assert from "node:assert/strict";
import { test } from "node:test";
import type { ControllerRevision, StatefulSet } from "../../api/index.ts";
import { type Client, controllerRevisionsResource } from "../../client/index.ts";
import { makeStatefulSet, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { controllerRevisionHashLabel, templateOfRevision } from "../framework/index.ts";
import { newStatefulSetRevision, statefulSetRevisions, truncateHistory } from "./revision.ts";

ensureNoLeaksInEachTest();

const v1 = makeStatefulSet("web").image("nginx:1");
const v2 = makeStatefulSet("web").image("nginx:2");

function withUid(set: StatefulSet, status?: StatefulSet["status"]): DeepReadonly<StatefulSet> {
  const copy = structuredClone(set);
  copy.metadata.uid = "uid-web";
  copy.metadata.namespace = "default";
  if (status !== undefined) copy.status = status;
  return copy;
}

/** The template as revisions hold it: Go writes `resources: {}` for every container. */
function asStored(set: StatefulSet): StatefulSet["spec"]["template"] {
  const template = structuredClone(set.spec.template);
  for (const container of template.spec?.containers ?? []) container.resources ??= {};
  return template;
}

async function stored(client: Client): Promise<ControllerRevision[]> {
  const list = await client.list<ControllerRevision>(controllerRevisionsResource, "default");
  return list.items.sort((a, b) => a.revision - b.revision);
}

test("newStatefulSetRevision: the template as a $patch replace, labels, hash and owner", () => {
  const set = withUid(v1.clone().annotation("note", "x").obj());
  const revision = newStatefulSetRevision(set, 3, 0);
  const hash = revision.metadata.labels?.[controllerRevisionHashLabel] ?? "";
  assert.deepEqual(
    {
      name: revision.metadata.name,
      revision: revision.revision,
      patchKeys: Object.keys((revision.data as { spec: { template: object } }).spec.template)[0],
      restored: templateOfRevision(revision),
      owner: revision.metadata.ownerReferences?.[0]?.kind,
      annotations: revision.metadata.annotations,
      appLabel: revision.metadata.labels?.["app"],
    },
    {
      name: `web-${hash}`,
      revision: 3,
      patchKeys: "$patch",
      restored: asStored(set as StatefulSet),
      owner: "StatefulSet",
      annotations: { note: "x" },
      appLabel: "web",
    },
  );
});

test("newStatefulSetRevision: a collision count names another revision of the same data", () => {
  const set = withUid(v1.obj());
  assert.notEqual(
    newStatefulSetRevision(set, 1, 0).metadata.name,
    newStatefulSetRevision(set, 1, 1).metadata.name,
  );
});

test("statefulSetRevisions: creates the first revision, then reuses it; a template change adds one; going back renumbers the old one", async () => {
  await using harness = await startClusterHarness();
  const client = harness.client;
  const first = await statefulSetRevisions(client, withUid(v1.obj()), []);
  const again = await statefulSetRevisions(client, withUid(v1.obj()), await stored(client));
  const changed = await statefulSetRevisions(
    client,
    withUid(v2.obj(), { replicas: 0, currentRevision: first.update.name }),
    await stored(client),
  );
  const back = await statefulSetRevisions(client, withUid(v1.obj()), await stored(client));
  const revisions = await stored(client);
  assert.deepEqual(
    {
      sameName: again.update.name === first.update.name,
      changedCurrent: changed.current.name,
      changedUpdateIsNew: changed.update.name !== first.update.name,
      currentTemplate: changed.current.template,
      backName: back.update.name,
      numbers: revisions.map((r) => [r.metadata.name, r.revision]),
    },
    {
      sameName: true,
      changedCurrent: first.update.name,
      changedUpdateIsNew: true,
      currentTemplate: asStored(v1.obj()),
      backName: first.update.name,
      numbers: [
        [changed.update.name, 2],
        [first.update.name, 3],
      ],
    },
  );
});

test("truncateHistory: keeps revisionHistoryLimit unused revisions besides the live ones", async () => {
  await using harness = await startClusterHarness();
  const client = harness.client;
  let last = await statefulSetRevisions(client, withUid(v1.obj()), []);
  for (const image of ["nginx:2", "nginx:3", "nginx:4"]) {
    last = await statefulSetRevisions(
      client,
      withUid(makeStatefulSet("web").image(image).obj()),
      await stored(client),
    );
  }
  const set = withUid(makeStatefulSet("web").image("nginx:4").revisionHistoryLimit(1).obj());
  await truncateHistory(client, set, [], last);
  const left = (await stored(client)).map((r) => r.revision);
  assert.deepEqual(left, [3, 4]);
});
