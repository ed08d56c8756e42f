import assert from "node:assert/strict";
import { test } from "node:test";
import type { ConfigMap, KubeObject, Namespace, Pod } from "../../api/index.ts";
import {
  type Client,
  configMapsResource,
  isNotFound,
  namespacesResource,
  newInformerFactory,
  podsResource,
  replicaSetsResource,
  secretsResource,
} from "../../client/index.ts";
import { eventually, makePod, makeReplicaSet, startClusterHarness } from "../../testing/index.ts";
import { discardLogger, systemClock, systemRandom } from "../../util/index.ts";
import { newControllerManager } from "../index.ts";

async function startEnv() {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const manager = newControllerManager(
    {
      client: harness.client,
      informers,
      clock: systemClock,
      random: systemRandom,
      logger: discardLogger,
    },
    { controllers: ["namespace"] },
  );
  const running = Promise.all([informers.start(stop.signal), manager.start(stop.signal)]);
  return {
    client: harness.client as Client,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await harness[Symbol.asyncDispose]();
    },
  };
}

async function gone(client: Client, name: string): Promise<boolean> {
  try {
    await client.get(namespacesResource, undefined, name);
    return false;
  } catch (error: unknown) {
    if (isNotFound(error)) return true;
    throw error;
  }
}

const inTeam = <T extends KubeObject>(object: T): T => {
  const copy = structuredClone(object);
  copy.metadata.namespace = "team";
  delete copy.metadata.uid;
  delete copy.metadata.creationTimestamp;
  delete copy.metadata.generation;
  return copy;
};

test("Namespace controller: deleting a namespace deletes its contents, then the namespace", async () => {
  await using env = await startEnv();
  await env.client.create<Namespace>(namespacesResource, { metadata: { name: "team" } });
  await env.client.create<ConfigMap>(configMapsResource, inTeam({ metadata: { name: "cm" } }));
  await env.client.create(secretsResource, inTeam({ metadata: { name: "s" }, type: "Opaque" }));
  await env.client.create<Pod>(podsResource, inTeam(makePod("p").obj()));
  await env.client.create(replicaSetsResource, inTeam(makeReplicaSet("rs").replicas(0).obj()));
  await env.client.delete(namespacesResource, undefined, "team");
  await eventually(async () => assert.equal(await gone(env.client, "team"), true));
  const left = await Promise.all(
    [configMapsResource, secretsResource, podsResource, replicaSetsResource].map(
      async (r) => (await env.client.list(r, "team")).items.length,
    ),
  );
  assert.deepEqual(left, [0, 0, 0, 0]);
});

test("Namespace controller: content held by a finalizer keeps the namespace Terminating with upstream's conditions", async () => {
  await using env = await startEnv();
  await env.client.create<Namespace>(namespacesResource, { metadata: { name: "team" } });
  // The conditions are written through namespaces/NAME/status, which the server must route as
  // the namespace's subresource (upstream's RequestInfo `namespaceSubresources`).
  const probe = await env.client
    .patch(namespacesResource, undefined, "team", "merge", {}, { subresource: "status" })
    .then(
      () => "routed",
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
  assert.equal(probe, "routed", "PATCH /api/v1/namespaces/team/status must reach the namespace");
  await env.client.create<ConfigMap>(
    configMapsResource,
    inTeam({ metadata: { name: "held", finalizers: ["example.com/hold"] } }),
  );
  await env.client.delete(namespacesResource, undefined, "team");
  const ns = await eventually(async () => {
    const got = await env.client.get<Namespace>(namespacesResource, undefined, "team");
    assert.equal(got.status?.conditions?.length, 5);
    return got;
  });
  assert.deepEqual(
    {
      phase: ns.status?.phase,
      finalizers: ns.spec?.finalizers,
      conditions: ns.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
    },
    {
      phase: "Terminating",
      finalizers: ["kubernetes"],
      conditions: [
        [
          "NamespaceDeletionDiscoveryFailure",
          "False",
          "ResourcesDiscovered",
          "All resources successfully discovered",
        ],
        [
          "NamespaceDeletionGroupVersionParsingFailure",
          "False",
          "ParsedGroupVersions",
          "All legacy kube types successfully parsed",
        ],
        [
          "NamespaceDeletionContentFailure",
          "False",
          "ContentDeleted",
          "All content successfully deleted, may be waiting on finalization",
        ],
        [
          "NamespaceContentRemaining",
          "True",
          "SomeResourcesRemain",
          "Some resources are remaining: configmaps. has 1 resource instances",
        ],
        [
          "NamespaceFinalizersRemaining",
          "True",
          "SomeFinalizersRemain",
          "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
        ],
      ],
    },
  );
});
