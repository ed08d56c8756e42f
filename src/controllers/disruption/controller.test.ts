import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type {
  Event,
  KubeObject,
  OwnerReference,
  Pod,
  PodDisruptionBudget,
} from "../../api/index.ts";
import {
  type Client,
  customResourceDefinitionsResource,
  eventsResource,
  jobsResource,
  namespacesResource,
  newInformerFactory,
  podDisruptionBudgetsResource,
  podGroupsResource,
  podsResource,
  type ResourceRef,
  replicaSetsResource,
  workloadsResource,
} from "../../client/index.ts";
import {
  type ClusterHarness,
  componentLifetime,
  eventually,
  makePdb,
  makePod,
  type PdbBuilder,
  startClusterHarness,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newDisruptionController } from "./controller.ts";

let harness: ClusterHarness;
let client: Client;
let counter = 0;
const stop = componentLifetime();
let running: Promise<unknown>;
const events = () =>
  newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "controllermanager" },
  );
let recorder: ReturnType<typeof events>;

const widgets: ResourceRef = {
  group: "example.com",
  version: "v1",
  resource: "scalers",
  kind: "Scaler",
  namespaced: true,
};

before(async () => {
  harness = await startClusterHarness();
  client = harness.client;
  await client.create(customResourceDefinitionsResource, {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "scalers.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "scalers", singular: "scaler", kind: "Scaler", listKind: "ScalerList" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          },
          subresources: {
            status: {},
            scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
          },
        },
      ],
    },
  });
  recorder = events();
  const informers = newInformerFactory(client, { clock: systemClock });
  const controller = newDisruptionController({
    client,
    informers,
    clock: systemClock,
    logger: discardLogger,
    events: recorder,
  });
  running = Promise.all([informers.start(stop.signal), controller.start(stop.signal)]);
});

after(async () => {
  stop.abort();
  await running;
  await recorder.flush();
  await harness[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

async function namespace(): Promise<string> {
  const name = `dc-${++counter}`;
  await client.create(namespacesResource, {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name },
  });
  return name;
}

function ownerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? "",
    kind: owner.kind ?? "",
    name: owner.metadata.name ?? "",
    uid: owner.metadata.uid ?? "",
    controller: true,
  };
}

async function createPods(
  ns: string,
  count: number,
  options: { owner?: KubeObject; ready?: boolean; edit?: (pod: Pod, i: number) => void } = {},
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const builder = makePod(`p${i}`).namespace(ns).label("app", "web").nodeName("n1");
    if (options.owner !== undefined) builder.ownerReference(ownerRef(options.owner));
    const pod = builder.obj();
    delete pod.metadata.uid;
    options.edit?.(pod, i);
    await client.create<Pod>(podsResource, pod);
    if (options.ready !== false) {
      await client.patch(
        podsResource,
        ns,
        `p${i}`,
        "merge",
        { status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] } },
        { subresource: "status" },
      );
    }
  }
}

async function createPdb(ns: string, builder: PdbBuilder): Promise<void> {
  await client.create(podDisruptionBudgetsResource, builder.namespace(ns).forCreate());
}

type Counters = [
  expected: number,
  desired: number,
  healthy: number,
  allowed: number,
  reason: string,
];

/** Waits until the budget's status reads `want` (expected, desired, healthy, allowed, reason). */
async function statusReads(ns: string, want: Counters): Promise<PodDisruptionBudget> {
  return eventually(async () => {
    const pdb = await client.get<PodDisruptionBudget>(podDisruptionBudgetsResource, ns, "web-pdb");
    const s = pdb.status;
    const reason = s?.conditions?.find((c) => c.type === "DisruptionAllowed")?.reason ?? "";
    assert.deepEqual(
      [s?.expectedPods, s?.desiredHealthy, s?.currentHealthy, s?.disruptionsAllowed, reason],
      want,
    );
    return pdb;
  });
}

async function eventReasons(ns: string): Promise<string[]> {
  await recorder.flush();
  const list = await client.list<Event>(eventsResource, ns);
  return list.items.map((e) => `${e.involvedObject.kind ?? ""}/${e.reason ?? ""}`).sort();
}

const web = makePdb("web-pdb").matchLabels({ app: "web" });

test("DisruptionController.reconcile: ReplicaSet scale drives expectedPods for maxUnavailable", async () => {
  const ns = await namespace();
  const rs = await client.create(replicaSetsResource, {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name: "web", namespace: ns },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "c", image: "pause" }] },
      },
    },
  });
  await createPods(ns, 3, { owner: rs });
  await createPdb(ns, web.clone().maxUnavailable(1));
  const pdb = await statusReads(ns, [3, 2, 3, 1, "SufficientPods"]);
  assert.equal(pdb.status?.observedGeneration, 1);
});

test("DisruptionController.reconcile: a custom resource's /scale drives expectedPods and follows scaling", async () => {
  const ns = await namespace();
  const scaler = await eventually(() =>
    client.create(widgets, {
      apiVersion: "example.com/v1",
      kind: "Scaler",
      metadata: { name: "s", namespace: ns },
      spec: { replicas: 4 },
    }),
  );
  await createPods(ns, 4, { owner: scaler });
  await createPdb(ns, web.clone().maxUnavailable("25%"));
  await statusReads(ns, [4, 3, 4, 1, "SufficientPods"]);
  await client.patch(widgets, ns, "s", "merge", { spec: { replicas: 8 } });
  // A pod event brings the budget back; the owner's scale is read again.
  await client.patch(podsResource, ns, "p0", "merge", { metadata: { labels: { touched: "1" } } });
  await statusReads(ns, [8, 6, 4, 0, "InsufficientPods"]);
});

test("DisruptionController.reconcile: an owner without /scale fails safe with SyncFailed", async () => {
  const ns = await namespace();
  const job = await client.create(jobsResource, {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "j", namespace: ns },
    spec: {
      template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "pause" }] } },
    },
  });
  await createPods(ns, 2, {
    owner: job,
    edit: (pod) => {
      pod.metadata.labels = {
        ...pod.metadata.labels,
        "batch.kubernetes.io/controller-uid": job.metadata.uid ?? "",
      };
    },
  });
  await createPdb(ns, web.clone().maxUnavailable(1));
  const pdb = await statusReads(ns, [0, 0, 0, 0, "SyncFailed"]);
  const condition = pdb.status?.conditions?.find((c) => c.type === "DisruptionAllowed");
  assert.equal(condition?.message, "jobs.batch does not implement the scale subresource");
  await eventually(async () =>
    assert.ok(
      (await eventReasons(ns)).includes("PodDisruptionBudget/CalculateExpectedPodCountFailed"),
      "the failure is reported as an event",
    ),
  );
});

test("DisruptionController.reconcile: naked pods with an integer minAvailable count every pod", async () => {
  const ns = await namespace();
  await createPods(ns, 3);
  await createPdb(ns, web.clone().minAvailable(2));
  await statusReads(ns, [3, 2, 3, 1, "SufficientPods"]);
});

test("DisruptionController.reconcile: no matching pods allows nothing and records NoPods", async () => {
  const ns = await namespace();
  await createPdb(ns, web.clone().maxUnavailable(1));
  await statusReads(ns, [0, 0, 0, 0, "InsufficientPods"]);
  await eventually(async () =>
    assert.ok((await eventReasons(ns)).includes("PodDisruptionBudget/NoPods"), "NoPods recorded"),
  );
});

test("DisruptionController.reconcile: usePodGroups counts PodGroup replicas of a Workload template", async () => {
  const ns = await namespace();
  await client.create(workloadsResource, {
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "Workload",
    metadata: { name: "train", namespace: ns },
    spec: { podGroupTemplates: [{ name: "workers", policy: { gang: { minCount: 3 } } }] },
  });
  for (const g of ["g0", "g1"]) {
    await client.create(podGroupsResource, {
      apiVersion: "scheduling.k8s.io/v1alpha1",
      kind: "PodGroup",
      metadata: { name: g, namespace: ns },
      spec: { workloadRef: { name: "train" }, podGroupTemplateName: "workers" },
    });
  }
  await createPods(ns, 6, {
    edit: (pod, i) => {
      pod.spec.workloadRef = { name: "train", podGroupName: i < 3 ? "g0" : "g1" };
    },
  });
  await createPdb(ns, web.clone().minAvailable(1).usePodGroups());
  await statusReads(ns, [2, 1, 2, 1, "SufficientPods"]);
  assert.ok(
    (await eventReasons(ns)).includes("PodDisruptionBudget/CountingPodGroups"),
    "the budget says it counts groups, for kubectl describe",
  );
  // One pod of g1 becomes unready: g1 drops below minCount 3.
  await client.patch(
    podsResource,
    ns,
    "p5",
    "merge",
    { status: { conditions: [{ type: "Ready", status: "False" }] } },
    { subresource: "status" },
  );
  await statusReads(ns, [2, 1, 1, 0, "InsufficientPods"]);
});
