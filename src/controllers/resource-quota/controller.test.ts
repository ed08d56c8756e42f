import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ApiError, type Deployment, type Pod, type ResourceQuota } from "../../api/index.ts";
import {
  type Client,
  configMapsResource,
  deploymentsResource,
  namespacesResource,
  newInformerFactory,
  podsResource,
  resourceQuotasResource,
} from "../../client/index.ts";
import {
  type ClusterHarness,
  eventually,
  makeDeployment,
  makePod,
  startClusterHarness,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { discardLogger, systemClock, systemRandom } from "../../util/index.ts";
import { newControllerManager } from "../index.ts";

/** Against a real in-process API server (which runs ResourceQuota admission), this controller alone. */
describe("resource quota controller", () => {
  let harness: ClusterHarness;
  let client: Client;
  const stop = new AbortController();
  let running: Promise<unknown>;
  const ns = "quota-test";

  before(async () => {
    harness = await startClusterHarness();
    client = harness.client;
    const informers = newInformerFactory(client, { clock: systemClock });
    const manager = newControllerManager(
      { client, informers, clock: systemClock, random: systemRandom, logger: discardLogger },
      { controllers: ["resourcequota"], resourceQuotaSyncPeriodMs: 500 },
    );
    running = Promise.all([informers.start(stop.signal), manager.start(stop.signal)]);
    await client.create(namespacesResource, { metadata: { name: ns } });
  });
  after(async () => {
    stop.abort();
    await running;
    await harness[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  const getQuota = (name: string) => client.get<ResourceQuota>(resourceQuotasResource, ns, name);
  const waitUsed = (name: string, used: Record<string, string>) =>
    eventually(async () => {
      const q = await getQuota(name);
      assert.deepEqual(q.status?.hard, q.spec?.hard, "status.hard follows spec.hard");
      assert.deepEqual(q.status?.used, used, `${name} status.used`);
      return q;
    }, 10_000);
  const pod = (name: string, cpu: string): Pod =>
    makePod(name).namespace(ns).requests({ cpu }).limits({ cpu }).obj();
  const refusal = async (work: Promise<unknown>): Promise<string> => {
    try {
      await work;
    } catch (error: unknown) {
      assert.ok(error instanceof ApiError, `an ApiError: ${String(error)}`);
      return `${error.code} ${error.message}`;
    }
    assert.fail("the request was admitted");
  };

  test("a new quota gets status.hard and status.used, admission charges creations", async () => {
    await client.create(resourceQuotasResource, {
      metadata: { name: "compute", namespace: ns },
      spec: { hard: { pods: "2", "requests.cpu": "1", "limits.cpu": "2" } },
    });
    await waitUsed("compute", { pods: "0", "requests.cpu": "0", "limits.cpu": "0" });
    await client.create(podsResource, pod("a", "500m"));
    assert.deepEqual((await getQuota("compute")).status?.used, {
      pods: "1",
      "requests.cpu": "500m",
      "limits.cpu": "500m",
    });
    assert.equal(
      await refusal(client.create(podsResource, pod("b", "600m"))),
      '403 pods "b" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=500m, limited: requests.cpu=1',
    );
  });

  test("deleting a pod gives its quota back", async () => {
    await client.delete(podsResource, ns, "a");
    await waitUsed("compute", { pods: "0", "requests.cpu": "0", "limits.cpu": "0" });
  });

  test("a pod that finishes stops counting, though it still exists", async () => {
    const created = await client.create<Pod>(podsResource, pod("job", "200m"));
    assert.equal((await getQuota("compute")).status?.used?.["pods"], "1");
    await client.updateStatus<Pod>(podsResource, {
      ...created,
      status: { ...created.status, phase: "Succeeded" },
    });
    await waitUsed("compute", { pods: "0", "requests.cpu": "0", "limits.cpu": "0" });
    await client.delete(podsResource, ns, "job");
  });

  test("racing creates cannot both take the last unit", async () => {
    await client.create(podsResource, pod("r0", "100m"));
    const results = await Promise.allSettled(
      ["r1", "r2", "r3"].map((n) => client.create(podsResource, pod(n, "100m"))),
    );
    assert.equal(
      results.filter((r) => r.status === "fulfilled").length,
      1,
      "one of three admitted",
    );
    assert.deepEqual((await getQuota("compute")).status?.used?.["pods"], "2");
    const created = (await client.list<Pod>(podsResource, ns)).items.map(
      (p) => p.metadata.name ?? "",
    );
    assert.equal(created.length, 2, `two pods exist: ${created.join(", ")}`);
    for (const name of created) await client.delete(podsResource, ns, name);
    await waitUsed("compute", { pods: "0", "requests.cpu": "0", "limits.cpu": "0" });
  });

  test("new hard limits are copied and recounted; drift is corrected by the periodic recount", async () => {
    const current = await getQuota("compute");
    await client.update(resourceQuotasResource, {
      ...current,
      spec: { hard: { pods: "5", "requests.cpu": "1" } },
    });
    await waitUsed("compute", { pods: "0", "requests.cpu": "0" });
    const drifted = await getQuota("compute");
    await client.updateStatus(resourceQuotasResource, {
      ...drifted,
      status: { ...drifted.status, used: { pods: "4", "requests.cpu": "3" } },
    });
    await waitUsed("compute", { pods: "0", "requests.cpu": "0" });
  });

  test("object counts: count/<resource>.<group> and legacy names, released on delete", async () => {
    await client.create(resourceQuotasResource, {
      metadata: { name: "objects", namespace: ns },
      spec: { hard: { "count/deployments.apps": "1", configmaps: "1" } },
    });
    await waitUsed("objects", { "count/deployments.apps": "0", configmaps: "0" });
    const deployment = (name: string): Deployment => {
      const d = makeDeployment(name).obj();
      d.metadata = { name, namespace: ns };
      return d;
    };
    await client.create(deploymentsResource, deployment("web"));
    assert.equal(
      await refusal(client.create(deploymentsResource, deployment("api"))),
      '403 deployments.apps "api" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
    );
    await client.create(configMapsResource, { metadata: { name: "one", namespace: ns } });
    await waitUsed("objects", { "count/deployments.apps": "1", configmaps: "1" });
    await client.delete(deploymentsResource, ns, "web");
    await waitUsed("objects", { "count/deployments.apps": "0", configmaps: "1" });
  });
});
