import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "yaml";
import type { Schema } from "../../api/index.ts";
import { type KubectlResult, kubectl, kubectlOk as ok, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { undescribedFields } from "./describe.ts";
import { leaderWorkerSetCrd } from "./leader-worker-set.ts";

ensureNoLeaksInEachTest();

const lws = {
  apiVersion: "leaderworkerset.x-k8s.io/v1",
  kind: "LeaderWorkerSet",
  metadata: { name: "demo", namespace: "default" },
  spec: {
    replicas: 2,
    leaderWorkerTemplate: {
      size: 2,
      workerTemplate: { spec: { containers: [{ name: "c", image: "nginx:1.25" }] } },
    },
  },
};

function lwsSchema(): Schema {
  const schema = leaderWorkerSetCrd().spec.versions[0]?.schema?.openAPIV3Schema;
  assert.ok(schema !== undefined, "the LeaderWorkerSet CRD has a schema");
  return schema;
}

/** The schema of the field at a dotted path, lists transparent (as `kubectl explain` walks). */
function field(path: string): Schema {
  let node = lwsSchema();
  for (const name of path.split(".")) {
    const next = (node.items ?? node).properties?.[name];
    assert.ok(next !== undefined, `LeaderWorkerSet declares ${path}`);
    node = next;
  }
  return node;
}

test("leaderWorkerSetCrd: the kind and its fields carry upstream's descriptions", () => {
  assert.equal(
    lwsSchema().description,
    "LeaderWorkerSet is the Schema for the leaderworkersets API",
  );
  assert.equal(field("spec").description, "spec defines the desired behavior of LeaderWorkerSet.");
  assert.equal(
    field("spec.leaderWorkerTemplate.size").description,
    [
      "size is the number of pods to create. It is the total number of pods in each group.",
      "The minimum is 1 which represent the leader. When set to 1, the leader",
      "pod is created for each group as well as a 0-replica StatefulSet for the workers.",
      "Default to 1.",
    ].join("\n"),
  );
  assert.match(
    field("spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge").description ?? "",
    /^maxSurge is the maximum number of replicas that can be scheduled above the original number of\nreplicas\./,
  );
  assert.equal(
    field("spec.leaderWorkerTemplate.workerTemplate").description,
    "workerTemplate defines the pod template for worker pods.",
  );
  assert.equal(
    field("status.conditions").description,
    "conditions track the condition of the leaderworkerset.",
  );
  assert.equal(
    field("status.conditions.type").description,
    "type of condition in CamelCase or in foo.example.com/CamelCase.",
  );
});

test("leaderWorkerSetCrd: every declared field has a description", () => {
  // Root metadata is ObjectMeta, described by the server, as in upstream's CRD.
  assert.deepEqual(undescribedFields(lwsSchema()), ["metadata"]);
});

test("leaderWorkerSetCrd: gantry up serves it, kubectl get lws prints upstream's columns, kubectl scale lws works", async () => {
  await using gantry = await startGantry({ storage: "memory", extraArgs: ["--nodes", "0"] });
  const run = (args: string[], input?: string): Promise<KubectlResult> =>
    kubectl(gantry, "", args, input === undefined ? {} : { input });
  ok(await run(["create", "-f", "-"], stringify(lws)), "create lws");
  const table = ok(await run(["get", "lws"]), "get lws");
  ok(await run(["scale", "lws/demo", "--replicas=3"]), "scale lws");
  const replicas = ok(
    await run(["get", "leaderworkerset", "demo", "-o", "jsonpath={.spec.replicas}"]),
    "get replicas",
  );
  const defaults = ok(
    await run([
      "get",
      "lws",
      "demo",
      "-o",
      "jsonpath={.spec.leaderWorkerTemplate.restartPolicy} {.spec.startupPolicy} {.spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable}",
    ]),
    "get defaults",
  );
  const [header = "", row = ""] = table.trimEnd().split("\n");
  // Cut the row at the header's column starts: unset counters print as blanks.
  const starts = [...header.matchAll(/\S+/g)].map((m) => m.index);
  const cells = starts.map((start, i) => row.slice(start, starts[i + 1]).trim());
  assert.match(header, /^NAME\s+READY\s+DESIRED\s+UP-TO-DATE\s+AGE$/);
  assert.deepEqual([cells[0], cells[2]], ["demo", "2"]);
  // READY and UP-TO-DATE are counts once the controller writes status, blank before; AGE in s.
  assert.match(`${cells[1]}|${cells[3]}|${cells[4]}`, /^\d*\|\d*\|\d+s$/);
  assert.deepEqual([replicas, defaults], ["3", "RecreateGroupOnPodRestart LeaderCreated 1"]);
  const explained = ok(await run(["explain", "lws.spec.startupPolicy"]), "explain lws");
  assert.match(
    explained,
    /startupPolicy determines the startup policy for the worker statefulset\./,
  );
});
