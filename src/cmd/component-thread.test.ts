import assert from "node:assert/strict";
import { setMaxListeners } from "node:events";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Registry } from "prom-client";
import type { Node, Pod } from "../api/index.ts";
import {
  loadKubeconfig,
  namespacesResource,
  nodesResource,
  podsResource,
} from "../client/index.ts";
import { defaultClusterConfig } from "../kubelet/index.ts";
import { defaultQueueingConfig, newQueueingMetrics } from "../queueing/index.ts";
import { eventually, makePod, startClusterHarness } from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { newJsonLogger } from "../util/index.ts";
import { defaultThreadLayout } from "./component-thread.ts";
import { startComponents } from "./components.ts";

ensureNoLeaksInEachTest();

/** A JSON logger whose lines land in `lines`, parsed. */
function capturingLogger(verbosity = 0) {
  const lines: Record<string, unknown>[] = [];
  const logger = newJsonLogger((line) => lines.push(JSON.parse(line) as Record<string, unknown>), {
    verbosity,
  });
  return { lines, logger };
}

function newStop(): AbortController {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  return stop;
}

test("component threads: the kubelets, scheduler and controllers run in worker threads and a pod reaches Running", async () => {
  await using harness = await startClusterHarness();
  const token = loadKubeconfig(readFileSync(harness.kubeconfigPath, "utf8")).token ?? "";
  const { lines, logger } = capturingLogger();
  const registry = new Registry();
  // The queueing webhook's metrics live in the API server's thread, the controllers' in theirs.
  const mainQueueing = newQueueingMetrics(registry);
  mainQueueing.admittedWorkloads.inc({ cluster_queue: "main-only", priority_class: "" });
  const stop = newStop();
  const components = await startComponents(
    { server: harness.url, token },
    {
      cluster: defaultClusterConfig(2),
      scheduler: true,
      controllers: true,
      queueing: { config: defaultQueueingConfig, metrics: mainQueueing },
      metricsRegistry: registry,
      threads: true,
    },
    logger,
    stop.signal,
  );
  try {
    assert.equal(components.fleet, undefined, "the fleet lives in its thread, not here");
    assert.ok(components.threads !== undefined, "the threads are reported");
    // Resolved: every configured node is registered.
    const nodes = await harness.client.list<Node>(nodesResource, undefined);
    assert.deepEqual(nodes.items.map((n) => n.metadata.name).sort(), ["node-0", "node-1"]);

    await harness.client.create(namespacesResource, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "threads" },
    });
    await harness.client.create<Pod>(
      podsResource,
      makePod("p").namespace("threads").container({ cpu: "100m" }).obj(),
    );
    const running = await eventually(async () => {
      const pod = await harness.client.get<Pod>(podsResource, "threads", "p");
      assert.equal(pod.status?.phase, "Running");
      return pod;
    }, 30_000);
    assert.ok(
      running.spec.nodeName?.startsWith("node-"),
      `bound to a node: ${running.spec.nodeName}`,
    );

    // The scheduler's metrics reach the API server's registry; same-named ones are summed.
    const text = await registry.metrics();
    assert.match(
      text,
      /scheduler_schedule_attempts_total\{result="scheduled",profile="default-scheduler"\} 1\n/,
    );
    assert.match(
      text,
      /kueue_admitted_workloads_total\{cluster_queue="main-only",priority_class=""\} 1\n/,
    );
    assert.equal(
      text.match(/^# TYPE kueue_admitted_workloads_total /gm)?.length,
      1,
      "one entry for a metric both threads keep",
    );

    // Log lines of the threads go to this thread's logger, with their fields.
    assert.ok(
      lines.some((l) => l["msg"] === "Emulated nodes registered" && l["component"] === "kubelet"),
      `the kubelets' line arrived: ${JSON.stringify(lines.map((l) => l["msg"]))}`,
    );

    const memory = await components.threads.memory(false);
    assert.deepEqual(
      memory.map((m) => m.thread),
      ["kubelets", "scheduler,controllers,queueing"],
    );
    assert.ok(
      memory.every((m) => m.heapUsed > 0),
      `each thread reports its heap: ${JSON.stringify(memory)}`,
    );
  } finally {
    stop.abort();
    await components.done;
  }
  // Stopped threads answer no more and keep nothing running.
  const after = await components.threads.memory(false);
  assert.deepEqual(
    after.map((m) => m.heapUsed),
    [0, 0],
  );
});

test("component threads: components left out of the layout run in this thread", async () => {
  await using harness = await startClusterHarness();
  const token = loadKubeconfig(readFileSync(harness.kubeconfigPath, "utf8")).token ?? "";
  const { logger } = capturingLogger();
  const stop = newStop();
  const components = await startComponents(
    { server: harness.url, token },
    { cluster: defaultClusterConfig(1), scheduler: true, threads: [["scheduler"]] },
    logger,
    stop.signal,
  );
  try {
    assert.ok(components.fleet !== undefined, "the kubelets run here");
    assert.deepEqual(components.fleet.nodeNames(), ["node-0"]);
    const memory = await components.threads?.memory(false);
    assert.deepEqual(
      memory?.map((m) => m.thread),
      ["scheduler"],
    );
  } finally {
    stop.abort();
    await components.done;
  }
});

test("component threads: a thread that cannot start its components rejects the start, stopping the others", async () => {
  await using harness = await startClusterHarness();
  const token = loadKubeconfig(readFileSync(harness.kubeconfigPath, "utf8")).token ?? "";
  const { logger } = capturingLogger();
  const stop = newStop();
  // A pool with no kubelet settings: the fleet refuses it as the thread starts.
  const cluster = defaultClusterConfig(1);
  const broken = {
    ...cluster,
    nodePools: cluster.nodePools.map((pool) => ({ ...pool, kubelet: undefined })),
  } as unknown as typeof cluster;
  await assert.rejects(
    startComponents(
      { server: harness.url, token },
      { cluster: broken, scheduler: true, threads: defaultThreadLayout },
      logger,
      stop.signal,
    ),
    /Cannot start the component thread kubelets: /,
  );
  stop.abort();
});
