import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "yaml";
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

const yaml = (objects: readonly object[]): string => objects.map((o) => stringify(o)).join("---\n");

async function cluster(extraArgs: readonly string[]) {
  const gantry = await startGantry({ storage: "memory", extraArgs });
  const run = (args: string[], input?: string): Promise<KubectlResult> =>
    kubectl(gantry, "", args, input === undefined ? {} : { input });
  const get = async (args: string[]): Promise<string> =>
    ok(await run(["get", ...args]), `get ${args.join(" ")}`);
  await eventually(async () => get(["clusterqueues"]), 20_000);
  ok(
    await run(
      ["apply", "-f", "-"],
      yaml(singleClusterQueueSetup(3, { "kubernetes.io/os": "linux" })),
    ),
    "apply setup",
  );
  const workload = (name: string, path: string): Promise<string> =>
    get(["workloads.kueue.x-k8s.io", name, "-o", `jsonpath=${path}`]);
  const condition = (type: string, field = "reason"): string =>
    `{.status.conditions[?(@.type=='${type}')].${field}}`;
  const podPhases = async (group: string): Promise<string> =>
    (
      await get([
        "pods",
        "-l",
        `kueue.x-k8s.io/pod-group-name=${group}`,
        "-o",
        "jsonpath={range .items[*]}{.metadata.name}={.status.phase}:{.metadata.finalizers} {end}",
      ])
    ).trim();
  return { gantry, run, get, workload, condition, podPhases };
}

test("queueing groups: a group created beforehand is built once complete, admitted as one Workload, replaces a failed pod within its quota, deletes excess pods and finishes", async () => {
  const c = await cluster(["--nodes", "1"]);
  await using _gantry = c.gantry;

  // One pod of two: no Workload yet, and Kueue says why on the pod.
  ok(
    await c.run(
      ["create", "-f", "-"],
      yaml([makeQueuedPod("a", { group: "g1", total: 2, runFor: "1s", exitCode: 1 })]),
    ),
    "create a",
  );
  await eventually(async () => {
    const events = await c.get([
      "events",
      "--field-selector",
      "involvedObject.name=a",
      "-o",
      "jsonpath={.items[*].message}",
    ]);
    assert.match(events, /'g1' group has fewer runnable pods than expected/);
  }, 20_000);
  ok(
    await c.run(
      ["create", "-f", "-"],
      yaml([makeQueuedPod("b", { group: "g1", total: 2, runFor: "6s" })]),
    ),
    "create b",
  );
  const role = await c.get([
    "pod",
    "a",
    "-o",
    "jsonpath={.metadata.annotations.kueue\\.x-k8s\\.io/role-hash}",
  ]);
  await eventually(async () => {
    const out = await c.workload(
      "g1",
      `{.metadata.annotations.kueue\\.x-k8s\\.io/is-group-workload} {.spec.podSets[*].name}={.spec.podSets[*].count} ${c.condition("Admitted", "status")}`,
    );
    assert.equal(out, `true ${role}=2 True`);
  }, 20_000);
  // Admitted: both ungated with the role as their podset.
  await eventually(async () => {
    const out = await c.get([
      "pods",
      "a",
      "b",
      "-o",
      "jsonpath={range .items[*]}{.metadata.labels.kueue\\.x-k8s\\.io/podset}:{.spec.schedulingGates} {end}",
    ]);
    assert.equal(out.trim(), `${role}: ${role}:`);
  }, 20_000);

  // a fails: the group waits for a replacement, which reuses the admitted quota at once.
  await eventually(async () => {
    assert.equal(await c.workload("g1", c.condition("WaitingForReplacementPods")), "PodsFailed");
  }, 20_000);
  ok(
    await c.run(
      ["create", "-f", "-"],
      yaml([makeQueuedPod("a2", { group: "g1", total: 2, runFor: "1s" })]),
    ),
    "create a2",
  );
  await eventually(async () => {
    assert.equal(await c.get(["pod", "a2", "-o", "jsonpath={.spec.schedulingGates}"]), "");
    assert.equal(
      await c.get(["pod", "a", "-o", "jsonpath={.metadata.finalizers}"]),
      "",
      "the replaced pod is finalized",
    );
  }, 20_000);
  // An excess pod after admission: deleted, with an event.
  ok(
    await c.run(
      ["create", "-f", "-"],
      yaml([makeQueuedPod("extra", { group: "g1", total: 2, runFor: "1s" })]),
    ),
    "create extra",
  );
  await eventually(async () => {
    const out = await c.run(["get", "pod", "extra"]);
    assert.match(out.stderr, /NotFound/);
  }, 20_000);
  const excess = await c.get([
    "events",
    "--field-selector",
    "reason=ExcessPodDeleted",
    "-o",
    "jsonpath={.items[*].involvedObject.name}",
  ]);
  assert.equal(excess, "extra");
  // The replacement ran on the group's one Workload: no other was created for it.
  assert.equal(
    await c.get(["workloads.kueue.x-k8s.io", "-o", "jsonpath={.items[*].metadata.name}"]),
    "g1",
  );

  // Both running pods succeed: Finished, finalizers off, quota back.
  await eventually(async () => {
    assert.equal(
      await c.workload("g1", `${c.condition("Finished")}/${c.condition("Finished", "message")}`),
      "Succeeded/Pods succeeded: 2/2.",
    );
    assert.equal(await c.podPhases("g1"), "a=Failed: a2=Succeeded: b=Succeeded:");
  }, 30_000);

  // Excess before the Workload exists: three pods for two, the youngest goes.
  ok(
    await c.run(
      ["create", "-f", "-"],
      yaml(
        ["x-1", "x-2", "x-3"].map((n) => makeQueuedPod(n, { group: "g2", total: 2, runFor: "1s" })),
      ),
    ),
    "create g2",
  );
  await eventually(async () => {
    assert.match(await c.podPhases("g2"), /^x-1=\w+:\S* x-2=\w+:\S*$/);
  }, 20_000);

  // retriable-in-group "false": the group ends once nothing runs, even though a pod failed.
  ok(
    await c.run(
      ["create", "-f", "-"],
      yaml([
        makeQueuedPod("u-1", {
          group: "g3",
          total: 2,
          runFor: "1s",
          exitCode: 1,
          annotations: { "kueue.x-k8s.io/retriable-in-group": "false" },
        }),
        makeQueuedPod("u-2", { group: "g3", total: 2, runFor: "2s" }),
      ]),
    ),
    "create g3",
  );
  await eventually(async () => {
    assert.equal(
      await c.workload("g3", `${c.condition("Finished")}/${c.condition("Finished", "message")}`),
      "Succeeded/Pods succeeded: 1/2.",
    );
    assert.equal(await c.podPhases("g3"), "u-1=Failed: u-2=Succeeded:");
  }, 30_000);
});

const sets = `[
  {name: driver, count: 1},
  {name: workers, count: 2, template: {spec: {containers: [{name: w, resources: {requests: {cpu: "1"}}}]}}},
]`;

test("queueing groups: a driver that creates its workers is admitted for the whole set, its workers join at once, extra workers are deleted, and the group finishes with its pods", async () => {
  const c = await cluster(["--nodes", "1"]);
  await using _gantry = c.gantry;

  const bad = await c.run(
    ["create", "-f", "-"],
    yaml([
      makeQueuedPod("bad", {
        group: "b",
        runFor: "1s",
        annotations: {
          "kueue.x-k8s.io/pod-group-sets": "[{name: a, count: 1}, {name: a, count: 0}]",
        },
      }),
    ]),
  );
  assert.match(
    bad.stderr,
    /admission webhook "vpod\.kb\.io" denied the request: \[metadata\.annotations\[kueue\.x-k8s\.io\/pod-group-sets\]\[1\]\.name: Invalid value: "a": duplicate pod set name, metadata\.annotations\[kueue\.x-k8s\.io\/pod-group-sets\]\[1\]\.count: Invalid value: 0: must be an integer greater than zero\]/,
  );

  ok(
    await c.run(
      ["create", "-f", "-"],
      yaml([
        makeQueuedPod("driver", {
          group: "spark",
          runFor: "8s",
          annotations: { "kueue.x-k8s.io/pod-group-sets": sets },
        }),
      ]),
    ),
    "create driver",
  );
  await eventually(async () => {
    const out = await c.workload(
      "spark",
      `{.spec.podSets[*].name}={.spec.podSets[*].count} ${c.condition("Admitted", "status")}`,
    );
    assert.equal(out, "driver workers=1 2 True");
    assert.equal(
      await c.get([
        "pod",
        "driver",
        "-o",
        "jsonpath={.metadata.labels.kueue\\.x-k8s\\.io/podset}:{.spec.schedulingGates}",
      ]),
      "driver:",
    );
  }, 20_000);
  // The whole set holds its quota while only the driver exists.
  const usage = await c.get([
    "cq",
    "cluster-queue",
    "-o",
    "jsonpath={.status.flavorsReservation[0].resources[?(@.name=='cpu')].total}",
  ]);
  assert.equal(usage, "3");

  const worker = (name: string) =>
    makeQueuedPod(name, {
      group: "spark",
      runFor: "1s",
      labels: { "kueue.x-k8s.io/pod-group-role": "workers" },
    });
  ok(await c.run(["create", "-f", "-"], yaml([worker("w-1"), worker("w-2")])), "create workers");
  await eventually(async () => {
    const out = await c.get([
      "pods",
      "w-1",
      "w-2",
      "-o",
      "jsonpath={range .items[*]}{.metadata.labels.kueue\\.x-k8s\\.io/podset}:{.spec.schedulingGates} {end}",
    ]);
    assert.equal(out.trim(), "workers: workers:");
  }, 20_000);
  ok(await c.run(["create", "-f", "-"], yaml([worker("w-3")])), "create a third worker");
  await eventually(async () => {
    assert.match((await c.run(["get", "pod", "w-3"])).stderr, /NotFound/);
  }, 20_000);

  await eventually(async () => {
    assert.equal(
      await c.workload("spark", `${c.condition("Finished")}/${c.condition("Finished", "message")}`),
      "Succeeded/Pods succeeded: 3/3.",
    );
    assert.equal(await c.podPhases("spark"), "driver=Succeeded: w-1=Succeeded: w-2=Succeeded:");
  }, 30_000);
});
