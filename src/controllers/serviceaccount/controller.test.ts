import assert from "node:assert/strict";
import { test } from "node:test";
import type { ConfigMap, Namespace, ServiceAccount } from "../../api/index.ts";
import {
  configMapsResource,
  namespacesResource,
  newInformerFactory,
  serviceAccountsResource,
} from "../../client/index.ts";
import { eventually, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock, systemRandom } from "../../util/index.ts";
import { newControllerManager } from "../index.ts";
import { missingServiceAccounts } from "./controller.ts";

ensureNoLeaksInEachTest();

const namespace = (phase: "Active" | "Terminating" | undefined): Namespace => ({
  metadata: { name: "team" },
  ...(phase === undefined ? {} : { status: { phase } }),
});

const cases = [
  {
    name: "an active namespace without default gets it",
    phase: "Active",
    has: [],
    want: ["default"],
  },
  {
    name: "an active namespace with default needs nothing",
    phase: "Active",
    has: ["default"],
    want: [],
  },
  { name: "a terminating namespace gets nothing", phase: "Terminating", has: [], want: [] },
  { name: "a namespace without a phase yet gets nothing", phase: undefined, has: [], want: [] },
] as const;

for (const c of cases) {
  test(`missingServiceAccounts: ${c.name}`, () => {
    const has: readonly string[] = c.has;
    assert.deepEqual(
      missingServiceAccounts(namespace(c.phase), (name) => has.includes(name)),
      c.want,
    );
  });
}

test("serviceaccount and root-ca-cert-publisher: every namespace gets default and kube-root-ca.crt, kept there", async () => {
  await using harness = await startClusterHarness();
  const client = harness.client;
  const stop = new AbortController();
  const informers = newInformerFactory(client, { clock: systemClock });
  const manager = newControllerManager(
    { client, informers, clock: systemClock, random: systemRandom, logger: discardLogger },
    {
      controllers: ["serviceaccount", "root-ca-cert-publisher"],
      rootCa: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    },
  );
  const running = Promise.all([informers.start(stop.signal), manager.start(stop.signal)]);
  try {
    await client.create(namespacesResource, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "team" },
    });
    const account = await eventually(() =>
      client.get<ServiceAccount>(serviceAccountsResource, "team", "default"),
    );
    const configMap = await eventually(() =>
      client.get<ConfigMap>(configMapsResource, "team", "kube-root-ca.crt"),
    );
    assert.deepEqual(configMap.data, {
      "ca.crt": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    });
    assert.match(
      configMap.metadata.annotations?.["kubernetes.io/description"] ?? "",
      /^Contains a CA bundle/,
    );

    // Deleted: recreated (with a new uid). Edited: put back.
    await client.delete(serviceAccountsResource, "team", "default");
    await eventually(async () => {
      const again = await client.get<ServiceAccount>(serviceAccountsResource, "team", "default");
      assert.notEqual(again.metadata.uid, account.metadata.uid, "a new default ServiceAccount");
    });
    await client.update<ConfigMap>(configMapsResource, {
      ...configMap,
      data: { "ca.crt": "tampered" },
    });
    await eventually(async () => {
      const restored = await client.get<ConfigMap>(configMapsResource, "team", "kube-root-ca.crt");
      assert.equal(
        restored.data?.["ca.crt"]?.startsWith("-----BEGIN CERTIFICATE-----"),
        true,
        "ca.crt restored",
      );
    });
    await client.delete(configMapsResource, "team", "kube-root-ca.crt");
    await eventually(() => client.get<ConfigMap>(configMapsResource, "team", "kube-root-ca.crt"));
  } finally {
    stop.abort();
    await running;
  }
});
