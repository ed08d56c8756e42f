import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClusterQueue, KueueWorkload, Pod } from "../api/index.ts";
import {
  type Client,
  type EventRecorder,
  newInformerFactory,
  type PatchType,
  podsResource,
  type ResourceRef,
} from "../client/index.ts";
import {
  eventually,
  makeQueuedPod,
  singleClusterQueueSetup,
  startClusterHarness,
} from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { discardLogger, systemClock } from "../util/index.ts";
import { defaultQueueingConfig } from "./config.ts";
import { newQueueing } from "./queueing.ts";
import {
  clusterQueuesResource,
  kueueWorkloadsResource,
  localQueuesResource,
  resourceFlavorsResource,
} from "./resources.ts";

ensureNoLeaksInEachTest();

const noEvents = { event() {} } as unknown as EventRecorder;

/** A single pod as Kueue's webhook leaves it: queue `user-queue`, managed, gated. */
const gatedPod = (name: string): Pod => makeQueuedPod(name, { image: "pause", gated: true });

const isResource = (resource: ResourceRef, other: ResourceRef): boolean =>
  resource.group === other.group && resource.resource === other.resource;

test("an admitted Workload's pod is ungated before the Workload creations queued ahead of it", async () => {
  await using harness = await startClusterHarness();
  const [flavor, clusterQueue, localQueue] = singleClusterQueueSetup(0);
  await harness.client.create(resourceFlavorsResource, flavor as never);
  await harness.client.create(clusterQueuesResource, clusterQueue as never);
  await harness.client.create(localQueuesResource, localQueue as never);

  // The component's writes, in order; Workload creates for pods `slow-*` wait to be released.
  const writes: string[] = [];
  const held = new Map<string, () => void>();
  let holding = true;
  const inner = harness.client as Client;
  const client = new Proxy(inner, {
    get(target, prop) {
      if (prop === "create") {
        return async (resource: ResourceRef, object: KueueWorkload, options?: never) => {
          if (isResource(resource, kueueWorkloadsResource)) {
            const owner = object.metadata.ownerReferences?.[0]?.name ?? "";
            writes.push(`create Workload of ${owner}`);
            if (holding && owner.startsWith("slow-")) {
              await new Promise<void>((resolve) => held.set(owner, resolve));
            }
          }
          return target.create(resource, object as never, options);
        };
      }
      if (prop === "patch") {
        return async (
          resource: ResourceRef,
          ns: string,
          name: string,
          type: PatchType,
          body: unknown,
          options?: never,
        ) => {
          if (isResource(resource, podsResource)) writes.push(`ungate Pod ${name}`);
          return target.patch(resource, ns, name, type, body, options);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const workers = 3;
  const stop = new AbortController();
  const informers = newInformerFactory(client, { clock: systemClock });
  const queueing = newQueueing(
    {
      client,
      informers,
      clock: systemClock,
      logger: discardLogger,
      podEvents: noEvents,
      workloadEvents: noEvents,
    },
    // Three pod reconciler workers instead of Kueue's five: the test counts them.
    {
      ...defaultQueueingConfig,
      groupKindConcurrency: { ...defaultQueueingConfig.groupKindConcurrency, Pod: workers },
    },
  );
  const running = Promise.all([informers.start(stop.signal), queueing.start(stop.signal)]);
  const workloadOf = async (pod: string): Promise<KueueWorkload> => {
    const list = await harness.client.list<KueueWorkload>(kueueWorkloadsResource, "default");
    const found = list.items.find((w) => w.metadata.ownerReferences?.[0]?.name === pod);
    assert.ok(found !== undefined, `pod ${pod} has a Workload`);
    return found;
  };
  try {
    // No quota yet: `first` gets a Workload that stays pending.
    await harness.client.create(podsResource, gatedPod("first"));
    await eventually(async () => {
      const conditions = (await workloadOf("first")).status?.conditions ?? [];
      assert.ok(
        conditions.some((c) => c.type === "QuotaReserved" && c.status === "False"),
        "first's Workload is pending",
      );
    });
    // A pod created after first's last event: once its Workload exists, every key queued
    // before it (first's included) has been handed out.
    await harness.client.create(podsResource, gatedPod("marker"));
    await eventually(() => workloadOf("marker"));

    // New pods: their Workload creates hold every worker, two more pods wait in the queue.
    for (let i = 1; i <= workers + 2; i++) {
      await harness.client.create(podsResource, gatedPod(`slow-${i}`));
    }
    await eventually(() =>
      assert.equal(held.size, workers, "a Workload create is in flight on every worker"),
    );
    const firstWaiting = `slow-${workers + 1}`;
    const lastWaiting = `slow-${workers + 2}`;

    // Quota arrives: first's Workload is admitted while the last two creations still wait.
    const cq = await harness.client.get<ClusterQueue>(
      clusterQueuesResource,
      undefined,
      "cluster-queue",
    );
    const next = structuredClone(cq);
    const quota = next.spec.resourceGroups?.[0]?.flavors[0]?.resources[0];
    assert.ok(quota !== undefined, "the setup has a CPU quota");
    quota.nominalQuota = 100;
    await harness.client.update(clusterQueuesResource, next);
    await eventually(async () => {
      const conditions = (await workloadOf("first")).status?.conditions ?? [];
      assert.ok(
        conditions.some((c) => c.type === "Admitted" && c.status === "True"),
        "first's Workload is admitted",
      );
    });

    // One worker comes free: it takes the admitted pods before the creations queued earlier.
    held.get("slow-1")?.();
    await eventually(() => assert.ok(held.has(firstWaiting), "the next creation starts after"));
    holding = false;
    for (const [name, release] of held) if (name !== "slow-1") release();
    await eventually(async () => {
      const pod = await harness.client.get<Pod>(podsResource, "default", lastWaiting);
      assert.equal(
        pod.spec.schedulingGates,
        undefined,
        `every pod is ungated in the end: ${writes.join(", ")}`,
      );
    });
    const at = (write: string): number => writes.indexOf(write);
    assert.ok(at("ungate Pod first") >= 0, `first was ungated: ${writes.join(", ")}`);
    assert.ok(
      at("ungate Pod first") < at(`create Workload of ${firstWaiting}`) &&
        at("ungate Pod marker") < at(`create Workload of ${firstWaiting}`),
      `the admitted pods were ungated before ${firstWaiting}'s Workload was created: ${writes.join(", ")}`,
    );
  } finally {
    holding = false;
    for (const release of held.values()) release();
    stop.abort();
    await running;
  }
});
