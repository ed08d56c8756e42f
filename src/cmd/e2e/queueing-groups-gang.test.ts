import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { stringify } from "yaml";
import type { Pod } from "../../api/index.ts";
import {
  eventually,
  type KubectlResult,
  kubectl,
  makeQueuedPod,
  kubectlOk as ok,
  singleClusterQueueSetup,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

const config = `apiVersion: gantry.dev/v1alpha1
kind: ClusterConfig
nodePools:
  - name: workers
    count: 2
queueing:
  gangScheduleAdmittedGroups: true
`;

/** A pod of the two-pod group `gang`. */
const member = (name: string): Pod =>
  makeQueuedPod(name, { group: "gang", total: 2, runFor: "2s" });

test("queueing groups: with gangScheduleAdmittedGroups an admitted group gets a scheduling Workload and PodGroup before its pods are ungated, and loses them when it finishes", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gantry-gang-groups-"));
  try {
    const file = join(dir, "cluster.yaml");
    writeFileSync(file, config);
    await using gantry = await startGantry({ storage: "memory", extraArgs: ["--config", file] });
    const run = (args: string[], input?: string): Promise<KubectlResult> =>
      kubectl(gantry, "", args, input === undefined ? {} : { input });
    const get = async (args: string[]): Promise<string> =>
      ok(await run(["get", ...args]), `get ${args.join(" ")}`);
    await eventually(async () => get(["clusterqueues"]), 20_000);
    const setup = singleClusterQueueSetup(2).map((o) => stringify(o));
    ok(await run(["apply", "-f", "-"], setup.join("---\n")), "apply setup");
    ok(
      await run(
        ["create", "-f", "-"],
        `${stringify(member("m-1"))}---\n${stringify(member("m-2"))}`,
      ),
      "create group",
    );
    assert.equal(
      await get([
        "pod",
        "m-1",
        "-o",
        "jsonpath={.spec.workloadRef.name}/{.spec.workloadRef.podGroupName}",
      ]),
      "gang/gang",
    );
    await eventually(async () => {
      const gang = await get([
        "workloads.scheduling.k8s.io",
        "gang",
        "-o",
        "jsonpath={.spec.podGroupTemplates[0].policy.gang.minCount} {.metadata.ownerReferences[0].kind}",
      ]);
      assert.equal(gang, "2 Workload");
      assert.equal(
        await get(["podgroups", "gang", "-o", "jsonpath={.spec.podGroupTemplateName}"]),
        "kueue-pod-group",
      );
      const pods = await get([
        "pods",
        "-o",
        "jsonpath={range .items[*]}{.metadata.name}={.spec.schedulingGates}:{.spec.nodeName} {end}",
      ]);
      assert.match(pods, /^m-1=:workers-\d m-2=:workers-\d $/);
    }, 20_000);
    await eventually(async () => {
      assert.equal(
        await get([
          "workloads.kueue.x-k8s.io",
          "gang",
          "-o",
          "jsonpath={.status.conditions[?(@.type=='Finished')].reason}",
        ]),
        "Succeeded",
      );
      assert.match((await run(["get", "podgroups", "gang"])).stderr, /NotFound/);
    }, 30_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
