import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ApiError,
  type ConfigMap,
  type KubeObject,
  type Namespace,
  type Pod,
} from "../../api/index.ts";
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
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, errorMessage, systemClock, systemRandom } from "../../util/index.ts";
import { newControllerManager } from "../index.ts";

ensureNoLeaksInEachTest();

async function startEnv(wrap: (client: Client) => Client = (client) => client) {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const manager = newControllerManager(
    {
      client: wrap(harness.client),
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

/** One write the controller sent: verb, resource (with subresource) and namespace. */
type Call = readonly [verb: string, resource: string, namespace: string];

/**
 * The client the controller gets, recording its deletes and namespace writes; resources named
 * in `noDeleteCollection` answer deletecollection with 405, as one that does not serve it.
 */
function recording(calls: Call[], noDeleteCollection: readonly string[] = []) {
  return (inner: Client): Client => ({
    ...inner,
    async deleteCollection(resource, namespace, options) {
      calls.push(["deletecollection", resource.resource, namespace ?? ""]);
      if (noDeleteCollection.includes(resource.resource)) {
        throw new ApiError(
          405,
          "MethodNotAllowed",
          "the server does not allow this method on the requested resource",
        );
      }
      return inner.deleteCollection(resource, namespace, options);
    },
    delete(resource, namespace, name, options) {
      calls.push(["delete", resource.resource, namespace ?? ""]);
      return inner.delete(resource, namespace, name, options);
    },
    update(resource, object, options) {
      calls.push(["update", resource.resource, object.metadata.namespace ?? ""]);
      return inner.update(resource, object, options);
    },
    updateSubresource(resource, namespace, name, subresource, object, options) {
      calls.push(["update", `${resource.resource}/${subresource}`, namespace ?? ""]);
      return inner.updateSubresource(resource, namespace, name, subresource, object, options);
    },
  });
}

const contentResources = ["configmaps", "secrets", "pods", "replicasets"];

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

test("Namespace controller: deleting a namespace deletes its contents with one deletecollection per resource, then finalizes it through /finalize", async () => {
  const calls: Call[] = [];
  await using env = await startEnv(recording(calls));
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
  const seen = (verb: string, resource: string, namespace: string) =>
    calls.some((c) => c[0] === verb && c[1] === resource && c[2] === namespace);
  assert.deepEqual(
    {
      collections: contentResources.filter((r) => seen("deletecollection", r, "team")),
      oneByOne: contentResources.filter((r) => seen("delete", r, "team")),
      finalize: seen("update", "namespaces/finalize", ""),
      plainUpdate: seen("update", "namespaces", ""),
    },
    { collections: contentResources, oneByOne: [], finalize: true, plainUpdate: false },
  );
});

test("Namespace controller: a resource without deletecollection has its objects deleted one by one", async () => {
  const calls: Call[] = [];
  await using env = await startEnv(recording(calls, ["configmaps"]));
  await env.client.create<Namespace>(namespacesResource, { metadata: { name: "team" } });
  await env.client.create<ConfigMap>(configMapsResource, inTeam({ metadata: { name: "a" } }));
  await env.client.create<ConfigMap>(configMapsResource, inTeam({ metadata: { name: "b" } }));
  await env.client.delete(namespacesResource, undefined, "team");
  await eventually(async () => assert.equal(await gone(env.client, "team"), true));
  const of = (verb: string) =>
    calls.filter((c) => c[0] === verb && c[1] === "configmaps" && c[2] === "team").length;
  assert.deepEqual(
    {
      left: (await env.client.list(configMapsResource, "team")).items.length,
      collectionAttempts: of("deletecollection"),
      deletes: of("delete"),
    },
    { left: 0, collectionAttempts: 1, deletes: 2 },
  );
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
      (error: unknown) => errorMessage(error),
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
