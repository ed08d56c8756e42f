import assert from "node:assert/strict";
import { test } from "node:test";
import { stringify } from "yaml";
import type { Pod, PodGroup } from "../../api/index.ts";
import { eventually, kubectl, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

// The LeaderWorkerSet scenario through the gang scheduler: the real `gantry up` on 4
// nodes and kubectl 1.33. Each pod asks for 900m of a node's 4 CPUs, so a group of 4 fits on
// one node and the 4 groups fill the cluster exactly as gangs.

const version = "1.33";
const pollMs = 250;

interface List<T> {
  readonly items: readonly T[];
}

test("LeaderWorkerSet: 4 replicas × 4 pods on 4 nodes run as 4 gangs whose PodGroups report PodGroupScheduled=True; deleting the set cleans up", {
  timeout: 120_000,
}, async () => {
  await using gantry = await startGantry({ storage: "memory", extraArgs: ["--nodes", "4"] });
  const run = async (args: readonly string[], input?: string): Promise<string> => {
    const result = await kubectl(gantry, version, args, input === undefined ? {} : { input });
    assert.equal(result.code, 0, `kubectl ${args.join(" ")} failed:\n${result.stderr}`);
    return result.stdout;
  };
  const get = async <T>(args: readonly string[]): Promise<T> =>
    JSON.parse(await run(["get", ...args, "-o", "json"])) as T;
  const container = {
    name: "c",
    image: "nginx:1.25",
    resources: { requests: { cpu: "900m" } },
  };
  await run(
    ["apply", "-f", "-"],
    stringify({
      apiVersion: "leaderworkerset.x-k8s.io/v1",
      kind: "LeaderWorkerSet",
      metadata: { name: "train", namespace: "default" },
      spec: {
        replicas: 4,
        leaderWorkerTemplate: {
          size: 4,
          workerTemplate: { spec: { containers: [container] } },
        },
      },
    }),
  );

  const pods = await eventually(
    async () => {
      const list = await get<List<Pod>>(["pods", "-n", "default"]);
      const running = list.items.filter((p) => p.status?.phase === "Running");
      assert.equal(running.length, 16, "16 pods Running");
      return running;
    },
    60_000,
    pollMs,
  );
  // Status writes are batched: wait for every PodGroup to count its 4 bound members.
  const groups = await eventually(
    async () => {
      const list = await get<List<PodGroup>>(["podgroups", "-n", "default"]);
      const scheduled = list.items.filter(
        (pg) =>
          pg.status?.conditions?.some(
            (c) => c.type === "PodGroupScheduled" && c.status === "True",
          ) === true && pg.status?.scheduledPods === 4,
      );
      assert.equal(
        scheduled.length,
        4,
        `4 PodGroups scheduled with 4 pods: ${JSON.stringify(list.items.map((pg) => [pg.metadata.name, pg.status]))}`,
      );
      return scheduled;
    },
    30_000,
    pollMs,
  );
  const nodesByGroup = new Map<string, Set<string>>();
  for (const pod of pods) {
    const group = pod.spec.workloadRef?.podGroupName ?? "?";
    const nodes = nodesByGroup.get(group) ?? new Set<string>();
    nodes.add(pod.spec.nodeName ?? "");
    nodesByGroup.set(group, nodes);
  }
  assert.deepEqual(
    {
      groups: groups.map((pg) => pg.metadata.name).sort(),
      scheduledPods: groups.map((pg) => pg.status?.scheduledPods),
      members: [...nodesByGroup.keys()].sort(),
    },
    {
      groups: ["train-0", "train-1", "train-2", "train-3"],
      scheduledPods: [4, 4, 4, 4],
      members: ["train-0", "train-1", "train-2", "train-3"],
    },
  );

  await run(["delete", "lws", "train", "-n", "default", "--wait=false"]);
  await eventually(
    async () => {
      const left = await get<List<unknown>>(["pods,podgroups,workloads", "-n", "default"]);
      assert.equal(
        left.items.length,
        0,
        `everything the set owned is gone: ${left.items.length} left`,
      );
    },
    60_000,
    pollMs,
  );
});
