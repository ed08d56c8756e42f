import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "yaml";
import { type KubectlResult, kubectl, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

function ok(result: KubectlResult, what: string): string {
  assert.equal(
    result.code,
    0,
    `${what} failed (exit ${result.code}):\n${result.stderr}${result.stdout}`,
  );
  return result.stdout;
}

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
});
