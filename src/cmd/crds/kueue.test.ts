import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "yaml";
import type { CustomResourceDefinition, JSONSchemaProps, Schema } from "../../api/index.ts";
import {
  eventually,
  type KubectlResult,
  kubectl,
  kubectlOk as ok,
  singleClusterQueueSetup,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { undescribedFields } from "./describe.ts";
import { kueueCrds } from "./kueue.ts";

ensureNoLeaksInEachTest();

// Kueue's own single-ClusterQueue setup (site/static/examples/admin/single-clusterqueue-setup.yaml).
const setup = singleClusterQueueSetup(9);

function workload(podSets: number): object {
  return {
    apiVersion: "kueue.x-k8s.io/v1beta1",
    kind: "Workload",
    metadata: { name: `wl-${podSets}`, namespace: "default" },
    spec: {
      queueName: "user-queue",
      podSets: Array.from({ length: podSets }, (_, i) => ({
        name: `ps${i}`,
        count: 1,
        template: { spec: { containers: [{ name: "c", image: "busybox" }] } },
      })),
    },
  };
}

test("kueueCrds: every CRD is structural with one served v1beta1 version", () => {
  const crds = kueueCrds();
  assert.deepEqual(
    crds.map((c) => c.metadata.name),
    [
      "resourceflavors.kueue.x-k8s.io",
      "clusterqueues.kueue.x-k8s.io",
      "localqueues.kueue.x-k8s.io",
      "workloads.kueue.x-k8s.io",
      "workloadpriorityclasses.kueue.x-k8s.io",
    ],
  );
  for (const crd of crds) {
    assert.deepEqual(
      crd.spec.versions.map((v) => [v.name, v.served, v.storage]),
      [["v1beta1", true, true]],
      `${crd.metadata.name} versions`,
    );
  }
});

function rootSchema(crd: CustomResourceDefinition): JSONSchemaProps {
  const schema = crd.spec.versions[0]?.schema?.openAPIV3Schema;
  assert.ok(schema !== undefined, `${crd.metadata.name} has a schema`);
  return schema;
}

/** The schema of the field at a dotted path, lists transparent (as `kubectl explain` walks). */
function field(crd: CustomResourceDefinition, path: string): Schema {
  let node: Schema = rootSchema(crd);
  for (const name of path.split(".")) {
    const next = (node.items ?? node).properties?.[name];
    assert.ok(next !== undefined, `${crd.metadata.name} declares ${path}`);
    node = next;
  }
  return node;
}

function byKind(kind: string): CustomResourceDefinition {
  const crd = kueueCrds().find((c) => c.spec.names.kind === kind);
  assert.ok(crd !== undefined, `kueueCrds() has ${kind}`);
  return crd;
}

test("kueueCrds: kinds carry upstream's descriptions", () => {
  assert.deepEqual(
    kueueCrds().map((c) => [c.spec.names.kind, rootSchema(c).description]),
    [
      ["ResourceFlavor", "ResourceFlavor is the Schema for the resourceflavors API."],
      ["ClusterQueue", "ClusterQueue is the Schema for the clusterQueue API."],
      ["LocalQueue", "LocalQueue is the Schema for the localQueues API"],
      ["Workload", "Workload is the Schema for the workloads API"],
      [
        "WorkloadPriorityClass",
        "WorkloadPriorityClass is the Schema for the workloadPriorityClass API",
      ],
    ],
  );
});

test("kueueCrds: fields carry upstream's descriptions, line breaks included", () => {
  const cq = byKind("ClusterQueue");
  assert.equal(
    field(cq, "spec.cohort").description,
    [
      "cohort that this ClusterQueue belongs to. CQs that belong to the",
      "same cohort can borrow unused resources from each other.",
      "",
      "A CQ can be a member of a single borrowing cohort. A workload submitted",
      "to a queue referencing this CQ can borrow quota from any CQ in the cohort.",
      "Only quota for the [resource, flavor] pairs listed in the CQ can be",
      "borrowed.",
      "If empty, this ClusterQueue cannot borrow from any other ClusterQueue and",
      "vice versa.",
      "",
      "A cohort is a name that links CQs together, but it doesn't reference any",
      "object.",
    ].join("\n"),
  );
  assert.match(
    field(cq, "spec.resourceGroups.flavors.resources.nominalQuota").description ?? "",
    /^nominalQuota is the quantity of this resource that is available for\nWorkloads admitted/,
  );
  assert.equal(
    field(cq, "status.conditions.status").description,
    "status of the condition, one of True, False, Unknown.",
  );
  const wl = byKind("Workload");
  assert.equal(
    field(wl, "status.admission").description,
    "admission holds the parameters of the admission of the workload by a\nClusterQueue. admission can be set back to null, but its fields cannot be\nchanged once set.",
  );
  assert.equal(
    field(wl, "status.admission.clusterQueue").description,
    "clusterQueue is the name of the ClusterQueue that admitted this workload.",
  );
  assert.match(
    field(wl, "spec.podSets.template").description ?? "",
    /^template is the Pod template\./,
  );
  assert.equal(
    field(byKind("WorkloadPriorityClass"), "value").description?.split("\n")[0],
    "value represents the integer value of this workloadPriorityClass. This is the actual priority that workloads",
  );
  // The flavor-usage schema is shared; each kind keeps its own wording.
  assert.equal(
    field(byKind("LocalQueue"), "status.flavorUsage.resources.total").description,
    "total is the total quantity of used quota.",
  );
  assert.match(
    field(cq, "status.flavorsUsage.resources.total").description ?? "",
    /^total is the total quantity of used quota, including the amount borrowed\nfrom the cohort\.$/,
  );
});

test("kueueCrds: every declared field has a description", () => {
  for (const crd of kueueCrds()) {
    // Root metadata is ObjectMeta, described by the server, as in upstream's CRDs.
    assert.deepEqual(undescribedFields(rootSchema(crd)), ["metadata"], crd.metadata.name);
  }
});

test("kueueCrds: gantry serves Kueue's manifests, defaults, printer columns and schema limits", async () => {
  await using gantry = await startGantry({ storage: "memory", extraArgs: ["--nodes", "0"] });
  const run = (args: string[], input?: string): Promise<KubectlResult> =>
    kubectl(gantry, "", args, input === undefined ? {} : { input });
  await eventually(async () => ok(await run(["get", "clusterqueues"]), "get cq"), 20_000);
  ok(await run(["apply", "-f", "-"], setup.map((o) => stringify(o)).join("---\n")), "apply setup");
  const strategy = ok(
    await run([
      "get",
      "cq",
      "cluster-queue",
      "-o",
      "jsonpath={.spec.queueingStrategy} {.spec.preemption.withinClusterQueue} {.spec.stopPolicy}",
    ]),
    "get cq defaults",
  );
  assert.equal(strategy, "BestEffortFIFO Never None");
  const wide = ok(await run(["get", "cq", "-o", "wide"]), "get cq -o wide");
  assert.match(
    wide.split("\n")[0] ?? "",
    /^NAME\s+COHORT\s+STRATEGY\s+PENDING WORKLOADS\s+ADMITTED WORKLOADS$/,
  );
  const queues = ok(await run(["get", "queues"]), "get queues");
  assert.match(queues, /^NAME\s+CLUSTERQUEUE\s+PENDING WORKLOADS\s+ADMITTED WORKLOADS\n/);
  assert.match(queues, /\nuser-queue\s+cluster-queue\s/);
  ok(await run(["create", "-f", "-"], stringify(workload(1))), "create workload");
  const wl = ok(await run(["get", "wl"]), "get wl");
  assert.match(wl, /^NAME\s+QUEUE\s+RESERVED IN\s+ADMITTED\s+FINISHED\s+AGE\n/);
  const tooMany = await run(["create", "-f", "-"], stringify(workload(9)));
  assert.notEqual(tooMany.code, 0, "a Workload with 9 podSets must be rejected");
  assert.match(tooMany.stderr, /spec\.podSets: Too many: 9: must have at most 8 items/);
  const badStrategy = await run([
    "patch",
    "cq",
    "cluster-queue",
    "--type=merge",
    "-p",
    '{"spec":{"queueingStrategy":"LIFO"}}',
  ]);
  assert.match(badStrategy.stderr, /spec\.queueingStrategy: Unsupported value: "LIFO"/);
  const cohort = ok(await run(["explain", "clusterqueue.spec.cohort"]), "explain cq.spec.cohort");
  assert.match(cohort, /cohort that this ClusterQueue belongs to\. CQs that belong to the\n/);
  // "workload" alone names scheduling.k8s.io's Workload too.
  const status = ok(
    await run(["explain", "workload.status", "--api-version=kueue.x-k8s.io/v1beta1"]),
    "explain workload.status",
  );
  assert.match(status, /admission holds the parameters of the admission of the workload by a\n/);
});
