import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Event, Pod } from "../../api/index.ts";
import { eventually, type GantryProcess } from "../../testing/index.ts";
import {
  cliFor,
  cpuRequest,
  current,
  describePods,
  type List,
  livePods,
  pod,
  podCondition,
  pollMs,
  startGantryWithConfig,
  waitForPodRunning,
  waitForUnschedulable,
} from "../../testing/kubectl-scenarios.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// Preemption driven with kubectl against the real `gantry up` on two small nodes.

describe("preemption on two small nodes (--config)", { concurrency: 1 }, () => {
  let gantry: GantryProcess;
  const cli = cliFor(() => gantry, current);

  before(async () => {
    gantry = await startGantryWithConfig({
      nodePools: [{ name: "small", count: 2, capacity: { cpu: "2", memory: "4Gi" } }],
    });
  });
  after(async () => {
    await gantry?.[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("DefaultPreemption.postFilter: a high-priority pod evicts one low-priority pod and runs in its place", {
    timeout: 120_000,
  }, async () => {
    const ns = "preempt";
    await cli.ok(["create", "namespace", ns]);
    await cli.apply([
      {
        apiVersion: "scheduling.k8s.io/v1",
        kind: "PriorityClass",
        metadata: { name: "high" },
        value: 1000,
      },
      {
        apiVersion: "scheduling.k8s.io/v1",
        kind: "PriorityClass",
        metadata: { name: "low" },
        value: 10,
      },
    ]);
    // Four 1-CPU low-priority pods fill both 2-CPU nodes. A victim takes 3 s to stop, the
    // window in which the preemptor is nominated but not yet bound.
    const lows = ["low-0", "low-1", "low-2", "low-3"];
    await cli.apply(
      lows.map((name) =>
        pod(
          name,
          ns,
          { priorityClassName: "low", containers: cpuRequest("1") },
          { "gantry.dev/stop-delay": "3s" },
        ),
      ),
    );
    for (const name of lows) await waitForPodRunning(cli, ns, name);
    const placed = await cli.get<List<Pod>>(["pods", "-n", ns]);
    assert.deepEqual(
      placed.items.map((p) => p.spec.nodeName).sort(),
      ["small-0", "small-0", "small-1", "small-1"],
      `two low pods per node: ${describePods(placed.items)}`,
    );

    // A pod of the same priority finds nothing it may evict.
    await cli.apply([pod("peer", ns, { priorityClassName: "low", containers: cpuRequest("1") })]);
    assert.equal(
      await waitForUnschedulable(cli, ns, "peer"),
      "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
    );
    await cli.ok(["delete", "pod", "peer", "-n", ns, "--timeout=30s"]);

    await cli.apply([pod("high", ns, { priorityClassName: "high", containers: cpuRequest("1") })]);
    const nominated = await eventually(
      async () => {
        const high = await cli.get<Pod>(["pod", "high", "-n", ns]);
        const node = high.status?.nominatedNodeName ?? "";
        assert.notEqual(node, "", `high is nominated: ${JSON.stringify(high.status)}`);
        assert.equal(high.spec.nodeName, undefined, "high waits for its victim to stop");
        return node;
      },
      20_000,
      50,
    );
    const victims = (await cli.get<List<Pod>>(["pods", "-n", ns, "-l", "scenario"])).items.filter(
      (p) => p.metadata.deletionTimestamp !== undefined,
    );
    assert.deepEqual(
      victims.map((p) => p.spec.nodeName),
      [nominated],
      `one victim, on the nominated node: ${describePods(victims)}`,
    );
    const victim = victims[0] as Pod;
    const disruption = podCondition(victim, "DisruptionTarget");
    assert.equal(disruption?.status, "True");
    assert.equal(disruption?.reason, "PreemptionByScheduler");

    const high = await waitForPodRunning(cli, ns, "high");
    assert.equal(high.spec.nodeName, nominated);
    await eventually(
      async () => {
        const gone = await cli.run(["get", "pod", victim.metadata.name ?? "", "-n", ns]);
        assert.equal(gone.code, 1, `the victim is deleted: ${gone.stdout}`);
        assert.match(gone.stderr, /NotFound/);
      },
      20_000,
      pollMs,
    );
    const survivors = await livePods(cli, ns, "scenario");
    assert.deepEqual(
      survivors.map((p) => p.metadata.name).sort(),
      ["high", ...lows.filter((name) => name !== victim.metadata.name)].sort(),
      `only the victim went: ${describePods(survivors)}`,
    );
    const preempted = await cli.get<List<Event>>([
      "events",
      "-n",
      ns,
      "--field-selector",
      `involvedObject.name=${victim.metadata.name ?? ""},reason=Preempted`,
    ]);
    assert.deepEqual(
      preempted.items.map((e) => e.message),
      [`Preempted by pod ${high.metadata.uid ?? ""} on node ${nominated}`],
    );
  });
});
