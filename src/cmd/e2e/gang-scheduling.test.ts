import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { stringify } from "yaml";
import type { Pod, PodGroup } from "../../api/index.ts";
import { eventually, type GantryProcess, kubectl, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// Gang scheduling driven the way a user drives it: the real `gantry up` (3 emulated nodes of 4
// CPUs, scheduler, kubelets) and kubectl 1.33. Every member asks for 2500m, so a node holds
// exactly one member. Scenarios run one after the other, each in its own namespace, and delete
// their pods at once (grace period 0) so the next one finds every node free. (Names such as "y"
// are avoided: kubectl's YAML reads them as booleans.)

const version = "1.33";
const pollMs = 250;
const cpu = "2500m";

let gantry: GantryProcess | undefined;

async function run(args: readonly string[], input?: string): Promise<string> {
  const g = gantry;
  if (g === undefined) throw new TypeError("Cannot run kubectl: gantry is not running");
  const result = await kubectl(g, version, args, input === undefined ? {} : { input });
  assert.equal(result.code, 0, `kubectl ${args.join(" ")} failed:\n${result.stderr}`);
  return result.stdout;
}

function apply(objects: readonly object[]): Promise<string> {
  return run(["apply", "-f", "-"], objects.map((o) => `---\n${stringify(o)}`).join(""));
}

function workload(ns: string, name: string, spec: object): object {
  return {
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "Workload",
    metadata: { name, namespace: ns },
    spec,
  };
}

function podGroup(ns: string, name: string, workloadName: string): object {
  return {
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "PodGroup",
    metadata: { name, namespace: ns },
    spec: { workloadRef: { name: workloadName }, podGroupTemplateName: "worker" },
  };
}

function member(ns: string, name: string, workloadRef: Record<string, string>): object {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: ns, labels: { gang: "e2e" } },
    spec: {
      terminationGracePeriodSeconds: 0,
      workloadRef,
      containers: [{ name: "c", image: "pause", resources: { requests: { cpu } } }],
    },
  };
}

/** A Workload `name` with template "worker" (gang of `minCount`) and its PodGroup `name`. */
function gang(ns: string, name: string, minCount: number): object[] {
  return [
    workload(ns, name, { podGroupTemplates: [{ name: "worker", policy: { gang: { minCount } } }] }),
    podGroup(ns, name, name),
  ];
}

function members(ns: string, group: string, names: readonly string[]): object[] {
  return names.map((n) => member(ns, n, { name: group, podGroupName: group }));
}

async function pods(ns: string): Promise<Pod[]> {
  return (JSON.parse(await run(["get", "pods", "-n", ns, "-o", "json"])) as { items: Pod[] }).items;
}

function describePods(list: readonly Pod[]): string {
  return list
    .map((p) => `${p.metadata.name}:${p.status?.phase}@${p.spec.nodeName ?? "-"}`)
    .join(" ");
}

async function groupCondition(ns: string, name: string) {
  const pg = JSON.parse(await run(["get", "podgroup", name, "-n", ns, "-o", "json"])) as PodGroup;
  return pg.status?.conditions?.find((c) => c.type === "PodGroupScheduled");
}

async function waitRunning(ns: string, names: readonly string[]): Promise<void> {
  await eventually(
    async () => {
      const list = await pods(ns);
      const running = list.filter(
        (p) => names.includes(p.metadata.name ?? "") && p.status?.phase === "Running",
      );
      assert.equal(running.length, names.length, `Running: ${describePods(list)}`);
    },
    20_000,
    pollMs,
  );
}

async function cleanUp(ns: string): Promise<void> {
  await run(["delete", "pods", "--all", "-n", ns, "--grace-period=0", "--force", "--wait"]);
}

/** Runs a scenario in namespace `ns` and deletes its pods however it ends. */
async function inNamespace(ns: string, scenario: () => Promise<void>): Promise<void> {
  await run(["create", "namespace", ns]);
  try {
    await scenario();
  } finally {
    await cleanUp(ns);
  }
}

describe("gang scheduling end to end", () => {
  before(async () => {
    gantry = await startGantry();
  });
  after(async () => {
    await gantry?.[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("GangScheduling: pods created before their PodGroup stay Pending, then all start", {
    timeout: 40_000,
  }, async () => {
    const ns = "gang-order";
    await inNamespace(ns, async () => {
      await apply(members(ns, "train", ["a", "b", "c"]));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const waiting = await pods(ns);
      assert.deepEqual(
        waiting.map((p) => [p.status?.phase, p.spec.nodeName ?? ""]),
        [
          ["Pending", ""],
          ["Pending", ""],
          ["Pending", ""],
        ],
        `no PodGroup yet: ${describePods(waiting)}`,
      );
      await apply(gang(ns, "train", 3));
      await waitRunning(ns, ["a", "b", "c"]);
      const condition = await eventually(async () => {
        const c = await groupCondition(ns, "train");
        assert.equal(c?.status, "True", "PodGroupScheduled is True");
        return c;
      });
      assert.equal(condition?.reason, "Scheduled");
    });
  });

  test("GangScheduling: a gang larger than the cluster never partially runs", {
    timeout: 40_000,
  }, async () => {
    const ns = "gang-big";
    await inNamespace(ns, async () => {
      await apply([...gang(ns, "big", 4), ...members(ns, "big", ["a", "b", "c", "d"])]);
      const condition = await eventually(
        async () => {
          const c = await groupCondition(ns, "big");
          assert.equal(c?.status, "False", "PodGroupScheduled is False");
          return c;
        },
        20_000,
        pollMs,
      );
      assert.deepEqual(
        { reason: condition?.reason, message: condition?.message },
        {
          reason: "Unschedulable",
          message: "minCount (4) cannot be satisfied: 3 scheduled, 0 remaining",
        },
      );
      const list = await pods(ns);
      assert.deepEqual(
        list.filter((p) => (p.spec.nodeName ?? "") !== "").map((p) => p.metadata.name),
        [],
        `no member is bound: ${describePods(list)}`,
      );
      const described = await run(["describe", "pod", "a", "-n", ns]);
      assert.match(described, /FailedScheduling/, "the member has a FailedScheduling event");
    });
  });

  test("GangScheduling: of two competing gangs one runs whole, the other waits whole", {
    timeout: 40_000,
  }, async () => {
    const ns = "gang-race";
    await inNamespace(ns, async () => {
      await apply([
        ...gang(ns, "gx", 2),
        ...gang(ns, "gy", 2),
        ...members(ns, "gx", ["x1", "x2"]),
        ...members(ns, "gy", ["y1", "y2"]),
      ]);
      await eventually(
        async () => {
          const list = await pods(ns);
          const bound = (prefix: string) =>
            list.filter(
              (p) => p.metadata.name?.startsWith(prefix) && (p.spec.nodeName ?? "") !== "",
            ).length;
          assert.deepEqual(
            [bound("x"), bound("y")].sort(),
            [0, 2],
            `one gang whole, the other none: ${describePods(list)}`,
          );
          const losers = list.filter((p) => (p.spec.nodeName ?? "") === "");
          assert.ok(
            losers.every((p) =>
              p.status?.conditions?.some((c) => c.type === "PodScheduled" && c.status === "False"),
            ),
            `the waiting gang says why: ${describePods(losers)}`,
          );
        },
        20_000,
        pollMs,
      );
    });
  });

  test("GangScheduling: members beyond minCount wait while the gang runs", {
    timeout: 40_000,
  }, async () => {
    const ns = "gang-extra";
    await inNamespace(ns, async () => {
      await apply([...gang(ns, "g", 2), ...members(ns, "g", ["a", "b", "c", "d"])]);
      await eventually(
        async () => {
          const list = await pods(ns);
          const bound = list.filter((p) => (p.spec.nodeName ?? "") !== "");
          assert.equal(bound.length, 3, `three members on the three nodes: ${describePods(list)}`);
          const c = await groupCondition(ns, "g");
          assert.equal(c?.status, "True", "the gang is Scheduled");
        },
        20_000,
        pollMs,
      );
    });
  });

  test("GangScheduling: legacy 1.35 Workload groups with replica keys run beside PodGroups", {
    timeout: 40_000,
  }, async () => {
    const ns = "gang-mixed";
    await inNamespace(ns, async () => {
      await apply([
        workload(ns, "legacy", {
          podGroups: [{ name: "workers", policy: { gang: { minCount: 2 } } }],
        }),
        member(ns, "r0-a", { name: "legacy", podGroup: "workers", podGroupReplicaKey: "0" }),
        member(ns, "r0-b", { name: "legacy", podGroup: "workers", podGroupReplicaKey: "0" }),
        member(ns, "r1-a", { name: "legacy", podGroup: "workers", podGroupReplicaKey: "1" }),
        ...gang(ns, "solo", 1),
        ...members(ns, "solo", ["s"]),
      ]);
      await waitRunning(ns, ["r0-a", "r0-b", "s"]);
      const list = await pods(ns);
      const r1 = list.find((p) => p.metadata.name === "r1-a");
      assert.deepEqual(
        { phase: r1?.status?.phase, node: r1?.spec.nodeName ?? "" },
        { phase: "Pending", node: "" },
        "replica 1 has one member of minCount 2: it waits",
      );
    });
  });
});

test("gantry up --gang-admission=strict: a pod naming a missing PodGroup is refused at creation, then accepted once the PodGroup exists", {
  timeout: 60_000,
}, async () => {
  await using strict = await startGantry({
    storage: "memory",
    extraArgs: ["--nodes", "0", "--gang-admission", "strict"],
  });
  const kubectlStrict = (args: readonly string[], input?: string) =>
    kubectl(strict, version, args, input === undefined ? {} : { input });
  const manifest = (objects: readonly object[]) =>
    objects.map((o) => `---\n${stringify(o)}`).join("");
  const pod = member("default", "early", { name: "wl", podGroupName: "pg" });
  const refused = await kubectlStrict(["apply", "-f", "-"], manifest([pod]));
  assert.equal(refused.code, 1, `the pod is refused: ${refused.stdout}`);
  assert.match(refused.stderr, /forbidden: pod group "pg" does not exist in namespace "default"/);
  const created = await kubectlStrict(
    ["apply", "-f", "-"],
    manifest([
      workload("default", "wl", {
        podGroupTemplates: [{ name: "worker", policy: { gang: { minCount: 1 } } }],
      }),
      podGroup("default", "pg", "wl"),
      pod,
    ]),
  );
  assert.equal(created.code, 0, `accepted once the PodGroup exists:\n${created.stderr}`);
});
