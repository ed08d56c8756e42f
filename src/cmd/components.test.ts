import assert from "node:assert/strict";
import { setMaxListeners } from "node:events";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import type { DaemonSet, Job, Pod, StatefulSet } from "../api/index.ts";
import {
  daemonSetsResource,
  type HttpClient,
  jobsResource,
  loadKubeconfig,
  namespacesResource,
  podsResource,
  statefulSetsResource,
} from "../client/index.ts";
import { controllerNames } from "../controllers/index.ts";
import { defaultClusterConfig, runForAnnotation } from "../kubelet/index.ts";
import {
  type ClusterHarness,
  eventually,
  makeDaemonSet,
  makeJob,
  makeStatefulSet,
  startClusterHarness,
} from "../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../testing/leak-check.ts";
import { discardLogger } from "../util/index.ts";
import { type Components, startComponents } from "./components.ts";

// One API server with what `gantry up` runs beside it (scheduler, every controller, three
// emulated nodes), shared by the tests below: each works in its own namespace.
let harness: ClusterHarness;
let components: Components;
const stop = new AbortController();
// Every informer, watch and worker listens on this one signal, as in `gantry up`.
setMaxListeners(0, stop.signal);

before(async () => {
  harness = await startClusterHarness();
  const config = loadKubeconfig(readFileSync(harness.kubeconfigPath, "utf8"));
  components = await startComponents(
    { server: harness.url, token: config.token ?? "" },
    { cluster: defaultClusterConfig(3), scheduler: true, controllers: true },
    discardLogger,
    stop.signal,
  );
});

after(async () => {
  stop.abort();
  await components.done;
  await harness[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

async function createNamespace(client: HttpClient, name: string): Promise<void> {
  await client.create(namespacesResource, {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name },
  });
}

async function podsIn(client: HttpClient, namespace: string): Promise<Pod[]> {
  return (await client.list<Pod>(podsResource, namespace)).items;
}

const isReady = (pod: Pod | undefined): boolean =>
  pod?.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;

test("startComponents: the controller manager runs every controller gantry up lists", () => {
  assert.deepEqual([...controllerNames].sort(), [
    "clusterrole-aggregation",
    "cronjob",
    "daemonset",
    "deployment",
    "disruption",
    "endpoint",
    "endpointslice",
    "garbagecollector",
    "job",
    "leaderworkerset",
    "namespace",
    "nodelifecycle",
    "persistentvolume-binder",
    "podgc",
    "pv-protection",
    "pvc-protection",
    "replicaset",
    "replicationcontroller",
    "resourcequota",
    "root-ca-cert-publisher",
    "serviceaccount",
    "statefulset",
    "taint-eviction-controller",
    "ttl-after-finished",
  ]);
});

test("startComponents: a StatefulSet's pods web-0..2 start one after another, each once the previous is Ready", async () => {
  const client = harness.client;
  await createNamespace(client, "sts");
  // Each pod's ADDED event must come after the event that made its predecessor Ready.
  const readyWhenAdded: Record<string, boolean> = {};
  const latest = new Map<string, Pod>();
  const watching = new AbortController();
  const watched = (async () => {
    for await (const event of client.watch<Pod>(podsResource, "sts", {}, watching.signal)) {
      if (event.type !== "ADDED" && event.type !== "MODIFIED") continue;
      const pod = event.object;
      const name = pod.metadata.name ?? "";
      if (event.type === "ADDED") {
        const ordinal = Number(name.slice("web-".length));
        readyWhenAdded[name] = ordinal === 0 || isReady(latest.get(`web-${ordinal - 1}`));
      }
      latest.set(name, pod);
    }
  })();
  try {
    await client.create<StatefulSet>(
      statefulSetsResource,
      makeStatefulSet("web").namespace("sts").replicas(3).forCreate(),
    );
    const pods = await eventually(async () => {
      const list = await podsIn(client, "sts");
      assert.deepEqual(list.map((p) => [p.metadata.name, p.status?.phase, isReady(p)]).sort(), [
        ["web-0", "Running", true],
        ["web-1", "Running", true],
        ["web-2", "Running", true],
      ]);
      return list;
    });
    assert.deepEqual(readyWhenAdded, { "web-0": true, "web-1": true, "web-2": true });
    await eventually(async () => {
      const set = await client.get<StatefulSet>(statefulSetsResource, "sts", "web");
      assert.deepEqual(
        {
          replicas: set.status?.replicas,
          ready: set.status?.readyReplicas,
          current: set.status?.currentReplicas,
        },
        { replicas: 3, ready: 3, current: 3 },
      );
    });
    assert.deepEqual(
      pods.map((p) => p.metadata.labels?.["statefulset.kubernetes.io/pod-name"]).sort(),
      ["web-0", "web-1", "web-2"],
    );
  } finally {
    watching.abort();
    await watched;
  }
});

test("startComponents: a DaemonSet runs one pod on each node", async () => {
  const client = harness.client;
  await createNamespace(client, "ds");
  await client.create<DaemonSet>(
    daemonSetsResource,
    makeDaemonSet("agent").namespace("ds").forCreate(),
  );
  await eventually(async () => {
    const pods = await podsIn(client, "ds");
    assert.deepEqual(pods.map((p) => [p.spec.nodeName, p.status?.phase]).sort(), [
      ["node-0", "Running"],
      ["node-1", "Running"],
      ["node-2", "Running"],
    ]);
  });
  await eventually(async () => {
    const ds = await client.get<DaemonSet>(daemonSetsResource, "ds", "agent");
    assert.deepEqual(
      {
        desired: ds.status?.desiredNumberScheduled,
        current: ds.status?.currentNumberScheduled,
        ready: ds.status?.numberReady,
      },
      { desired: 3, current: 3, ready: 3 },
    );
  });
});

test("startComponents: a Job of pods that run for 1s completes, and its TTL deletes it", async () => {
  const client = harness.client;
  await createNamespace(client, "jobs");
  await client.create<Job>(
    jobsResource,
    makeJob("pi")
      .namespace("jobs")
      .completions(2)
      .parallelism(2)
      .ttlSecondsAfterFinished(1)
      .podAnnotation(runForAnnotation, "1s")
      .forCreate(),
  );
  const finished = await eventually(async () => {
    const job = await client.get<Job>(jobsResource, "jobs", "pi");
    const complete = job.status?.conditions?.find((c) => c.type === "Complete");
    assert.equal(complete?.status, "True");
    return job;
  }, 30_000);
  assert.equal(finished.status?.succeeded, 2);
  await eventually(async () => {
    const jobs = await client.list<Job>(jobsResource, "jobs");
    assert.deepEqual(
      jobs.items.map((j) => j.metadata.name),
      [],
    );
  }, 30_000);
});
