import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ControllerRevision, Pod } from "../../api/index.ts";
import { eventually, type GantryProcess, startGantry } from "../../testing/index.ts";
import {
  cliFor,
  current,
  type List,
  livePods,
  oldest,
  pollMs,
} from "../../testing/kubectl-scenarios.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// StatefulSet and DaemonSet history through ControllerRevisions, driven with kubectl's own
// `rollout history` and `rollout undo` against the real `gantry up` (three default nodes).

function workload(kind: "StatefulSet" | "DaemonSet", namespace: string): object {
  return {
    apiVersion: "apps/v1",
    kind,
    metadata: { name: "web", namespace },
    spec: {
      ...(kind === "StatefulSet" ? { replicas: 2, serviceName: "web" } : {}),
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "c", image: "nginx:1" }] },
      },
    },
  };
}

/** The images of the live pods, sorted, once they are all Running. */
async function runningImages(
  cli: ReturnType<typeof cliFor>,
  namespace: string,
  count: number,
): Promise<string[]> {
  return eventually(
    async () => {
      const pods = await livePods(cli, namespace, "app=web");
      const running = pods.filter((p: Pod) => p.status?.phase === "Running");
      assert.equal(running.length, count, `${count} Running pods of web`);
      return running.map((p) => p.spec.containers[0]?.image ?? "").sort();
    },
    45_000,
    pollMs,
  );
}

/** `REVISION` numbers of `kubectl rollout history`. */
function historyRevisions(output: string): number[] {
  return output
    .split("\n")
    .filter((line) => /^\d+\s/.test(line))
    .map((line) => Number(line.split(/\s+/)[0]));
}

describe("rollout history and undo through ControllerRevisions", { concurrency: 1 }, () => {
  let gantry: GantryProcess;
  const cli = cliFor(() => gantry, current);
  const oldCli = cliFor(() => gantry, oldest);

  before(async () => {
    gantry = await startGantry();
  });
  after(async () => {
    await gantry?.[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  for (const [kind, resource, pods] of [
    ["StatefulSet", "statefulset", 2],
    ["DaemonSet", "daemonset", 3],
  ] as const) {
    test(`${kind}.history: kubectl rollout history lists replicaSetRevisions, undo restores the previous template`, {
      timeout: 180_000,
    }, async () => {
      const ns = `${resource}-history`;
      await cli.ok(["create", "namespace", ns]);
      await cli.apply([workload(kind, ns)]);
      assert.deepEqual(await runningImages(cli, ns, pods), Array(pods).fill("nginx:1"));
      await cli.ok(["rollout", "status", `${resource}/web`, "-n", ns, "--timeout=60s"]);

      await cli.ok(["set", "image", `${resource}/web`, "c=nginx:2", "-n", ns]);
      await cli.ok(["rollout", "status", `${resource}/web`, "-n", ns, "--timeout=90s"]);
      assert.deepEqual(await runningImages(cli, ns, pods), Array(pods).fill("nginx:2"));

      const history = await cli.ok(["rollout", "history", `${resource}/web`, "-n", ns]);
      assert.deepEqual(historyRevisions(history), [1, 2], `rollout history:\n${history}`);
      const table = await cli.ok(["get", "controllerrevisions", "-n", ns]);
      assert.match(table, /^NAME\s+CONTROLLER\s+REVISION\s+AGE/m);
      assert.match(table, new RegExp(`${resource}\\.apps/web\\s+2\\s`), table);
      const second = await cli.ok([
        "rollout",
        "history",
        `${resource}/web`,
        "-n",
        ns,
        "--revision=2",
      ]);
      assert.match(second, /Image:\s+nginx:2/, second);

      const undo = await oldCli.ok(["rollout", "undo", `${resource}/web`, "-n", ns]);
      assert.match(undo, new RegExp(`${resource}\\.apps/web rolled back`), undo);
      await cli.ok(["rollout", "status", `${resource}/web`, "-n", ns, "--timeout=90s"]);
      assert.deepEqual(await runningImages(cli, ns, pods), Array(pods).fill("nginx:1"));
      const replicaSetRevisions = await eventually(
        async () => {
          const list = await cli.get<List<ControllerRevision>>(["controllerrevisions", "-n", ns]);
          const numbers = list.items.map((r) => r.revision).sort();
          assert.deepEqual(numbers, [2, 3], "revision 1 came back as 3");
          return list;
        },
        15_000,
        pollMs,
      );
      assert.equal(
        replicaSetRevisions.items.length,
        2,
        "no duplicate revision for the restored template",
      );

      const again = await cli.ok([
        "rollout",
        "undo",
        `${resource}/web`,
        "-n",
        ns,
        "--to-revision=3",
      ]);
      assert.match(
        again,
        /skipped rollback \(current template already matches revision 3\)/,
        again,
      );
      await cli.ok(["delete", "namespace", ns, "--wait=false"]);
    });
  }
});
