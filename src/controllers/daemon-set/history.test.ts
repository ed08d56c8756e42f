import assert from "node:assert/strict";
import { test } from "node:test";
import type { ControllerRevision, DaemonSet } from "../../api/index.ts";
import {
  type Client,
  controllerRevisionsResource,
  daemonSetsResource,
} from "../../client/index.ts";
import { makeDaemonSet, makePod, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { computeHash } from "../framework/index.ts";
import { cleanupHistory, constructHistory, hashOf, matchesDaemonSet } from "./history.ts";
import { revisionHashLabel } from "./revision.ts";
import { daemonSetIdentity } from "./sync.ts";

ensureNoLeaksInEachTest();

async function createDaemonSet(client: Client, image: string): Promise<DaemonSet> {
  return client.create<DaemonSet>(
    daemonSetsResource,
    makeDaemonSet("agent").image(image).forCreate(),
  );
}

async function stored(client: Client): Promise<ControllerRevision[]> {
  const list = await client.list<ControllerRevision>(controllerRevisionsResource, "default");
  return list.items.sort((a, b) => a.revision - b.revision);
}

async function withImage(client: Client, ds: DaemonSet, image: string): Promise<DaemonSet> {
  const copy = structuredClone(ds);
  const container = copy.spec.template.spec?.containers[0];
  if (container !== undefined) container.image = image;
  return client.update<DaemonSet>(daemonSetsResource, copy);
}

test("constructHistory: the first sync snapshots the template as revision 1, named and labelled by its hash", async () => {
  await using harness = await startClusterHarness();
  const client = harness.client;
  const ds = await createDaemonSet(client, "agent:1");
  const history = await constructHistory(client, ds, daemonSetIdentity, [], []);
  const hash = computeHash(ds.spec.template, undefined);
  assert.deepEqual(
    {
      name: history.current.metadata.name,
      revision: history.current.revision,
      hash: hashOf(history),
      matches: matchesDaemonSet(ds, history.current),
      old: history.old.length,
    },
    { name: `agent-${hash}`, revision: 1, hash, matches: true, old: 0 },
  );
});

test("constructHistory: a new template becomes revision 2; rolling back renumbers revision 1 to 3", async () => {
  await using harness = await startClusterHarness();
  const client = harness.client;
  const v1 = await createDaemonSet(client, "agent:1");
  const first = await constructHistory(client, v1, daemonSetIdentity, [], []);
  const v2 = await withImage(client, v1, "agent:2");
  const second = await constructHistory(client, v2, daemonSetIdentity, await stored(client), []);
  const back = await withImage(client, v2, "agent:1");
  const third = await constructHistory(client, back, daemonSetIdentity, await stored(client), []);
  assert.deepEqual(
    {
      second: [second.current.revision, second.old.map((r) => r.metadata.name)],
      third: [third.current.metadata.name, third.current.revision],
      all: (await stored(client)).map((r) => r.revision),
    },
    {
      second: [2, [first.current.metadata.name]],
      third: [first.current.metadata.name, 3],
      all: [2, 3],
    },
  );
});

test("constructHistory: a revision of the same name with other data raises the collision count", async () => {
  await using harness = await startClusterHarness();
  const client = harness.client;
  const ds = await createDaemonSet(client, "agent:1");
  const hash = computeHash(ds.spec.template, undefined);
  await client.create<ControllerRevision>(controllerRevisionsResource, {
    metadata: {
      name: `agent-${hash}`,
      namespace: "default",
      labels: { [revisionHashLabel]: hash },
    },
    data: { squatter: true },
    revision: 1,
  });
  await assert.rejects(constructHistory(client, ds, daemonSetIdentity, [], []), /already exists/);
  const bumped = await client.get<DaemonSet>(daemonSetsResource, "default", "agent");
  const retried = await constructHistory(client, bumped, daemonSetIdentity, [], []);
  assert.deepEqual(
    { collisionCount: bumped.status?.collisionCount, hash: hashOf(retried) },
    { collisionCount: 1, hash: computeHash(ds.spec.template, 1) },
  );
});

test("cleanupHistory: deletes the oldest unused revisions beyond the limit, never one a pod carries", async () => {
  await using harness = await startClusterHarness();
  const client = harness.client;
  let ds = await createDaemonSet(client, "agent:1");
  const hashes: string[] = [];
  let history = await constructHistory(client, ds, daemonSetIdentity, [], []);
  hashes.push(hashOf(history));
  for (const image of ["agent:2", "agent:3", "agent:4"]) {
    ds = await withImage(client, ds, image);
    history = await constructHistory(client, ds, daemonSetIdentity, await stored(client), []);
    hashes.push(hashOf(history));
  }
  const limited = structuredClone(ds);
  limited.spec.revisionHistoryLimit = 1;
  // Three old revisions, limit 1: two go. A pod still runs revision 1, so 2 and 3 go instead.
  const pod = makePod("agent-x")
    .label(revisionHashLabel, hashes[0] ?? "")
    .obj();
  await cleanupHistory(client, limited, history, [pod]);
  assert.deepEqual(
    (await stored(client)).map((r) => r.metadata.labels?.[revisionHashLabel]),
    [hashes[0], hashes[3]],
  );
});
