import assert from "node:assert/strict";
import { test } from "node:test";
import type { Deployment, Pod, ReplicaSet } from "../../api/index.ts";
import {
  type Client,
  deploymentsResource,
  isNotFound,
  newInformerFactory,
  podsResource,
  replicaSetsResource,
} from "../../client/index.ts";
import {
  componentLifetime,
  eventually,
  kubectl,
  makeDeployment,
  startClusterHarness,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock, systemRandom } from "../../util/index.ts";
import { newControllerManager } from "../index.ts";

ensureNoLeaksInEachTest();

/**
 * The control plane, the deployment, replicaset and garbage collector controllers, and a
 * stand-in kubelet that marks every new pod Running and Ready (there is no node in these tests).
 */
async function startEnv(options: { kubelet?: boolean } = {}) {
  const harness = await startClusterHarness();
  const client = harness.client as Client;
  const stop = componentLifetime();
  const informers = newInformerFactory(client, { clock: systemClock });
  const manager = newControllerManager(
    { client, informers, clock: systemClock, random: systemRandom, logger: discardLogger },
    { controllers: ["deployment", "replicaset", "garbagecollector"] },
  );
  const running = Promise.all([informers.start(stop.signal), manager.start(stop.signal)]);
  const listeners: ((event: { type: string; pod: Pod }) => void)[] = [];
  const kubelet = (async () => {
    for await (const event of client.watch<Pod>(podsResource, "default", {}, stop.signal)) {
      if (event.type === "BOOKMARK" || event.type === "ERROR") continue;
      for (const listener of listeners) listener({ type: event.type, pod: event.object });
      const pod = event.object;
      if (options.kubelet === false || event.type !== "ADDED") continue;
      if (pod.metadata.deletionTimestamp !== undefined) continue;
      await markReady(client, pod).catch((error: unknown) => {
        // The pod may be gone already (a fast scale-down); anything else is a failure.
        if (!isNotFound(error)) throw error;
      });
    }
  })();
  return {
    client,
    harness,
    manager,
    onPod: (listener: (event: { type: string; pod: Pod }) => void) => listeners.push(listener),
    async [Symbol.asyncDispose]() {
      stop.abort();
      await Promise.all([running, kubelet]);
      await harness[Symbol.asyncDispose]();
    },
  };
}

async function markReady(client: Client, pod: Pod): Promise<void> {
  await client.patch(
    podsResource,
    pod.metadata.namespace,
    pod.metadata.name ?? "",
    "merge",
    {
      status: {
        phase: "Running",
        conditions: [
          {
            type: "Ready",
            status: "True",
            lastTransitionTime: `${new Date().toISOString().slice(0, 19)}Z`,
          },
        ],
      },
    },
    { subresource: "status" },
  );
}

function fresh(d: Deployment): Deployment {
  const copy = structuredClone(d);
  delete copy.metadata.uid;
  delete copy.metadata.generation;
  return copy;
}

async function replicaSetsOf(client: Client, d: Deployment): Promise<ReplicaSet[]> {
  const list = await client.list<ReplicaSet>(replicaSetsResource, "default");
  return list.items
    .filter((rs) => rs.metadata.ownerReferences?.some((r) => r.uid === d.metadata.uid))
    .sort((a, b) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""));
}

/** Waits until the Deployment's rollout is complete, as `kubectl rollout status` judges it. */
async function rolledOut(client: Client, name: string): Promise<Deployment> {
  return eventually(async () => {
    const d = await client.get<Deployment>(deploymentsResource, "default", name);
    const replicas = d.spec.replicas ?? 1;
    const s = d.status ?? {};
    assert.ok((s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0), "generation observed");
    assert.equal(s.updatedReplicas ?? 0, replicas, "updated");
    assert.equal(s.replicas ?? 0, replicas, "no old replicas");
    assert.equal(s.availableReplicas ?? 0, replicas, "available");
    const progressing = s.conditions?.find((c) => c.type === "Progressing");
    assert.equal(progressing?.reason, "NewReplicaSetAvailable");
    return d;
  });
}

const conditionsOf = (d: Deployment) =>
  (d.status?.conditions ?? []).map((c) => [c.type, c.status, c.reason, c.message]);

test("Deployment controller: a new Deployment gets a hashed ReplicaSet, revision 1 and the rollout conditions", async () => {
  await using env = await startEnv();
  const created = await env.client.create<Deployment>(
    deploymentsResource,
    fresh(makeDeployment("web").replicas(3).obj()),
  );
  const d = await rolledOut(env.client, "web");
  const [rs] = await replicaSetsOf(env.client, created);
  assert.ok(rs !== undefined, "rs !== undefined");
  const hash = rs.metadata.labels?.["pod-template-hash"] ?? "";
  assert.deepEqual(
    {
      name: rs.metadata.name,
      rsAnnotations: rs.metadata.annotations,
      selector: rs.spec.selector,
      templateLabels: rs.spec.template?.metadata?.labels,
      owner: rs.metadata.ownerReferences?.[0]?.uid,
      revision: d.metadata.annotations?.["deployment.kubernetes.io/revision"],
      status: { ...d.status, conditions: undefined },
      conditions: conditionsOf(d),
    },
    {
      name: `web-${hash}`,
      rsAnnotations: {
        "deployment.kubernetes.io/desired-replicas": "3",
        "deployment.kubernetes.io/max-replicas": "4",
        "deployment.kubernetes.io/revision": "1",
      },
      selector: { matchLabels: { app: "web", "pod-template-hash": hash } },
      templateLabels: { app: "web", "pod-template-hash": hash },
      owner: created.metadata.uid,
      revision: "1",
      status: {
        observedGeneration: 1,
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        conditions: undefined,
      },
      conditions: [
        ["Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability."],
        [
          "Progressing",
          "True",
          "NewReplicaSetAvailable",
          `ReplicaSet "web-${hash}" has successfully progressed.`,
        ],
      ],
    },
  );
  assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  // Converged: nothing is written again until something changes.
  const versions = async () => [
    (await env.client.get<Deployment>(deploymentsResource, "default", "web")).metadata
      .resourceVersion,
    (await env.client.get<ReplicaSet>(replicaSetsResource, "default", rs.metadata.name ?? ""))
      .metadata.resourceVersion,
  ];
  const before = await versions();
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(await versions(), before);
});

test("Deployment controller: foreground deletion removes pods, then ReplicaSets, then the Deployment", async () => {
  await using env = await startEnv();
  const created = await env.client.create<Deployment>(
    deploymentsResource,
    fresh(makeDeployment("web").replicas(2).obj()),
  );
  await rolledOut(env.client, "web");
  await env.client.delete(deploymentsResource, "default", "web", {
    propagationPolicy: "Foreground",
  });
  await eventually(async () => {
    const left = await Promise.all([
      env.client.list(deploymentsResource, "default"),
      env.client.list(replicaSetsResource, "default"),
      env.client.list(podsResource, "default"),
    ]);
    assert.deepEqual(
      left.map((l) => l.items.length),
      [0, 0, 0],
    );
  });
  assert.ok(created.metadata.uid !== undefined, "created.metadata.uid !== undefined");
});

test("Deployment controller: a rolling update stays within maxSurge and maxUnavailable", async () => {
  await using env = await startEnv();
  const replicas = 4;
  const created = await env.client.create<Deployment>(
    deploymentsResource,
    fresh(makeDeployment("web").replicas(replicas).rollingUpdate(1, 0).obj()),
  );
  await rolledOut(env.client, "web");
  // From here on, count live and ready pods at every change.
  const pods = new Map<string, Pod>();
  for (const pod of (await env.client.list<Pod>(podsResource, "default")).items) {
    pods.set(pod.metadata.name ?? "", pod);
  }
  let mostAlive = 0;
  let fewestReady = Number.POSITIVE_INFINITY;
  env.onPod(({ type, pod }) => {
    const name = pod.metadata.name ?? "";
    if (type === "DELETED") pods.delete(name);
    else pods.set(name, pod);
    const alive = [...pods.values()].filter((p) => p.metadata.deletionTimestamp === undefined);
    const ready = alive.filter((p) =>
      p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"),
    );
    mostAlive = Math.max(mostAlive, alive.length);
    fewestReady = Math.min(fewestReady, ready.length);
  });
  await env.client.patch(deploymentsResource, "default", "web", "merge", {
    spec: { template: { spec: { containers: [{ name: "c", image: "nginx:2" }] } } },
  });
  const d = await rolledOut(env.client, "web");
  const sets = await replicaSetsOf(env.client, created);
  const byImage = Object.fromEntries(
    sets.map((rs) => [
      rs.spec.template?.spec?.containers[0]?.image,
      [rs.spec.replicas, rs.metadata.annotations?.["deployment.kubernetes.io/revision"]],
    ]),
  );
  assert.deepEqual(
    {
      mostAlive,
      fewestReady,
      byImage,
      revision: d.metadata.annotations?.["deployment.kubernetes.io/revision"],
    },
    {
      mostAlive: replicas + 1,
      fewestReady: replicas,
      byImage: { "nginx:1": [0, "1"], "nginx:2": [replicas, "2"] },
      revision: "2",
    },
  );
});

test("Deployment controller: kubectl rollout status succeeds and rollout undo restores the previous template", async () => {
  await using env = await startEnv();
  const cluster = { kubeconfig: env.harness.kubeconfigPath, dataDir: env.harness.dataDir };
  await env.client.create<Deployment>(
    deploymentsResource,
    fresh(makeDeployment("web").replicas(2).obj()),
  );
  const first = await kubectl(cluster, "", [
    "rollout",
    "status",
    "deployment/web",
    "--timeout=30s",
  ]);
  // Earlier lines may report progress ("Waiting for deployment ... to finish"); the last one
  // is the verdict.
  assert.deepEqual(
    { code: first.code, last: first.stdout.trimEnd().split("\n").at(-1) },
    { code: 0, last: 'deployment "web" successfully rolled out' },
  );
  const set = await kubectl(cluster, "", ["set", "image", "deployment/web", "c=nginx:2"]);
  assert.equal(set.code, 0, set.stderr);
  await rolledOut(env.client, "web");
  const undo = await kubectl(cluster, "", ["rollout", "undo", "deployment/web"]);
  assert.deepEqual(
    { code: undo.code, stdout: undo.stdout },
    { code: 0, stdout: "deployment.apps/web rolled back\n" },
  );
  const status = await kubectl(cluster, "", [
    "rollout",
    "status",
    "deployment/web",
    "--timeout=30s",
  ]);
  assert.equal(status.code, 0, status.stderr);
  const d = await rolledOut(env.client, "web");
  const sets = await replicaSetsOf(env.client, d);
  const image1 = sets.find((rs) => rs.spec.template?.spec?.containers[0]?.image === "nginx:1");
  assert.deepEqual(
    {
      image: d.spec.template.spec?.containers[0]?.image,
      revision: d.metadata.annotations?.["deployment.kubernetes.io/revision"],
      sets: sets.length,
      image1Revision: image1?.metadata.annotations?.["deployment.kubernetes.io/revision"],
      image1History: image1?.metadata.annotations?.["deployment.kubernetes.io/revision-history"],
      image1Replicas: image1?.spec.replicas,
    },
    {
      image: "nginx:1",
      revision: "3",
      sets: 2,
      image1Revision: "3",
      image1History: "1",
      image1Replicas: 2,
    },
  );
});

test("Deployment controller: Recreate removes every old pod before creating new ones", async () => {
  await using env = await startEnv();
  await env.client.create<Deployment>(
    deploymentsResource,
    fresh(makeDeployment("web").replicas(2).recreate().obj()),
  );
  await rolledOut(env.client, "web");
  const images: string[][] = [];
  const pods = new Map<string, string>();
  env.onPod(({ type, pod }) => {
    const name = pod.metadata.name ?? "";
    if (type === "DELETED" || pod.metadata.deletionTimestamp !== undefined) pods.delete(name);
    else pods.set(name, pod.spec.containers[0]?.image ?? "");
    images.push([...new Set(pods.values())].sort());
  });
  await env.client.patch(deploymentsResource, "default", "web", "merge", {
    spec: { template: { spec: { containers: [{ name: "c", image: "nginx:2" }] } } },
  });
  await rolledOut(env.client, "web");
  assert.equal(
    images.some((set) => set.length > 1),
    false,
    "old and new pods never ran together",
  );
  assert.deepEqual(images.at(-1), ["nginx:2"]);
});

test("Deployment controller: revisionHistoryLimit keeps only that many old ReplicaSets", async () => {
  await using env = await startEnv();
  const created = await env.client.create<Deployment>(
    deploymentsResource,
    fresh(makeDeployment("web").replicas(1).revisionHistoryLimit(1).obj()),
  );
  for (const image of ["nginx:2", "nginx:3"]) {
    await rolledOut(env.client, "web");
    await env.client.patch(deploymentsResource, "default", "web", "merge", {
      spec: { template: { spec: { containers: [{ name: "c", image }] } } },
    });
  }
  await rolledOut(env.client, "web");
  const sets = await eventually(async () => {
    const found = await replicaSetsOf(env.client, created);
    assert.equal(found.length, 2);
    return found;
  });
  assert.deepEqual(sets.map((rs) => rs.spec.template?.spec?.containers[0]?.image).sort(), [
    "nginx:2",
    "nginx:3",
  ]);
});

test("Deployment controller: a paused Deployment reports DeploymentPaused and does not roll out", async () => {
  await using env = await startEnv();
  const created = await env.client.create<Deployment>(
    deploymentsResource,
    fresh(makeDeployment("web").replicas(1).obj()),
  );
  await rolledOut(env.client, "web");
  await env.client.patch(deploymentsResource, "default", "web", "merge", {
    spec: { paused: true, template: { spec: { containers: [{ name: "c", image: "nginx:2" }] } } },
  });
  const d = await eventually(async () => {
    const got = await env.client.get<Deployment>(deploymentsResource, "default", "web");
    assert.equal(got.status?.observedGeneration, got.metadata.generation);
    assert.equal(
      got.status?.conditions?.find((c) => c.type === "Progressing")?.reason,
      "DeploymentPaused",
    );
    return got;
  });
  const sets = await replicaSetsOf(env.client, created);
  assert.deepEqual(
    {
      progressing: conditionsOf(d).find(([type]) => type === "Progressing"),
      sets: sets.map((rs) => rs.spec.template?.spec?.containers[0]?.image),
    },
    {
      progressing: ["Progressing", "Unknown", "DeploymentPaused", "Deployment is paused"],
      sets: ["nginx:1"],
    },
  );
});

test("Deployment controller: scaling resizes the ReplicaSet and its replica annotations", async () => {
  await using env = await startEnv();
  const created = await env.client.create<Deployment>(
    deploymentsResource,
    fresh(makeDeployment("web").replicas(2).obj()),
  );
  await rolledOut(env.client, "web");
  await env.client.patch(deploymentsResource, "default", "web", "merge", { spec: { replicas: 4 } });
  await rolledOut(env.client, "web");
  const [rs, ...others] = await replicaSetsOf(env.client, created);
  assert.deepEqual(
    {
      others: others.length,
      replicas: rs?.spec.replicas,
      desired: rs?.metadata.annotations?.["deployment.kubernetes.io/desired-replicas"],
      max: rs?.metadata.annotations?.["deployment.kubernetes.io/max-replicas"],
      pods: (await env.client.list(podsResource, "default")).items.length,
    },
    { others: 0, replicas: 4, desired: "4", max: "5", pods: 4 },
  );
});

test("Deployment controller: no progress within progressDeadlineSeconds is ProgressDeadlineExceeded", async () => {
  await using env = await startEnv({ kubelet: false });
  await env.client.create<Deployment>(
    deploymentsResource,
    fresh(makeDeployment("web").replicas(1).progressDeadlineSeconds(1).obj()),
  );
  const d = await eventually(async () => {
    const got = await env.client.get<Deployment>(deploymentsResource, "default", "web");
    const progressing = got.status?.conditions?.find((c) => c.type === "Progressing");
    assert.equal(progressing?.reason, "ProgressDeadlineExceeded");
    return got;
  });
  const rsName = (await replicaSetsOf(env.client, d))[0]?.metadata.name ?? "";
  const cluster = { kubeconfig: env.harness.kubeconfigPath, dataDir: env.harness.dataDir };
  const status = await kubectl(cluster, "", [
    "rollout",
    "status",
    "deployment/web",
    "--timeout=10s",
  ]);
  assert.deepEqual(
    {
      progressing: conditionsOf(d).find(([type]) => type === "Progressing"),
      code: status.code,
      stderr: status.stderr,
    },
    {
      progressing: [
        "Progressing",
        "False",
        "ProgressDeadlineExceeded",
        `ReplicaSet "${rsName}" has timed out progressing.`,
      ],
      code: 1,
      stderr: 'error: deployment "web" exceeded its progress deadline\n',
    },
  );
});
