import assert from "node:assert/strict";
import test from "node:test";
import type { Lease, Node } from "../../api/index.ts";
import {
  type Client,
  leasesResource,
  nodesResource,
  type ResourceRef,
} from "../../client/index.ts";
import { FakeClock, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { type DeepReadonly, discardLogger, type Random } from "../../util/index.ts";
import { parseClusterConfig } from "../config/parse.ts";
import { cadvisorTopologyInterpreter } from "../machine/topology.ts";
import { nodeFromPool } from "../node/emulated-node.ts";
import { NodeCidrAllocator } from "../node/ip-allocators.ts";
import { registrationNode } from "../node/node-object.ts";
import type { FleetContext } from "./context.ts";
import { NodeAgent } from "./node-agent.ts";
import { renewLease, syncNode, updateNodeStatus } from "./node-sync.ts";

ensureNoLeaksInEachTest();

const config = parseClusterConfig(`apiVersion: gantry.dev/v1alpha1
kind: ClusterConfig
nodePools:
- name: n
  count: 1
`);
const pool = config.nodePools[0];
assert.ok(pool !== undefined, "the config has a pool");

/** Always the middle of the range: jitter is 2 % of a period, a spread start half a period. */
const half: Random = { float: () => 0.5, int: (n) => Math.floor(n / 2), uuid: () => "u" };

/** The writes a client made, as `VERB resource[/subresource]`. */
function recording(client: Client, writes: string[]): Client {
  const verbs: Record<string, string> = {
    create: "POST",
    update: "PUT",
    updateStatus: "PUT",
    patch: "PATCH",
  };
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      const verb = verbs[String(property)];
      if (verb === undefined || typeof value !== "function") return value;
      return (resource: ResourceRef, ...rest: unknown[]) => {
        const options = rest.at(-1) as { subresource?: string } | undefined;
        const sub =
          property === "updateStatus"
            ? "/status"
            : options?.subresource
              ? `/${options.subresource}`
              : "";
        writes.push(`${verb} ${resource.resource}${sub}`);
        return (value as (...args: unknown[]) => unknown).call(target, resource, ...rest);
      };
    },
  });
}

interface Fixture {
  readonly ctx: FleetContext;
  readonly agent: NodeAgent;
  readonly clock: FakeClock;
  readonly writes: string[];
  readonly scheduled: Map<string, number>;
  /** Reads the Node into the fake informer cache, as a watch event would. */
  refresh(): Promise<DeepReadonly<Node>>;
}

function fixture(client: Client): Fixture {
  const clock = new FakeClock(new Date("2026-01-01T00:00:00Z"));
  const writes: string[] = [];
  const scheduled = new Map<string, number>();
  const agent = new NodeAgent(
    nodeFromPool(pool as NonNullable<typeof pool>, 0, cadvisorTopologyInterpreter),
    [],
  );
  let cached: DeepReadonly<Node> | undefined;
  const ctx: FleetContext = {
    client: recording(client, writes),
    clock,
    random: half,
    logger: discardLogger,
    fleetName: "gantry",
    kubeletPort: 10250,
    agents: new Map([[agent.node.name, agent]]),
    podHomes: new Map(),
    cachedNode: () => cached,
    cachedPod: () => undefined,
    cachedPodsOn: () => [],
    schedule: (key, at) => scheduled.set(key, at),
    cancel: (key) => scheduled.delete(key),
    enqueue: () => undefined,
    events: () => ({ event: () => undefined }),
  };
  return {
    ctx,
    agent,
    clock,
    writes,
    scheduled,
    refresh: async () => {
      cached = Object.freeze(await client.get<Node>(nodesResource, undefined, agent.node.name));
      return cached;
    },
  };
}

test("syncNode: a registered node checks its status at once and renews its Lease within the first period", async () => {
  await using harness = await startClusterHarness();
  const f = fixture(harness.client);
  const start = f.clock.now().getTime();
  await syncNode(f.ctx, "n-0", {
    cidrs: new NodeCidrAllocator("10.244.0.0/16", 24),
    adopt: () => undefined,
    drop: () => undefined,
    registered: () => undefined,
  });
  assert.deepEqual(
    [f.writes, f.scheduled.get("lease/n-0"), f.scheduled.get("status/n-0")],
    [["POST nodes"], start + 5000, start],
  );
});

test("renewLease: creates the Lease, then renews it every quarter of its duration plus jitter", async () => {
  await using harness = await startClusterHarness();
  const f = fixture(harness.client);
  await harness.client.create(
    nodesResource,
    registrationNode(f.agent.node, "gantry", undefined, f.clock.now(), 10250),
  );
  f.agent.registered = true;
  const start = f.clock.now().getTime();
  await renewLease(f.ctx, "n-0");
  const first = f.scheduled.get("lease/n-0");
  await f.clock.advance(10_200);
  await renewLease(f.ctx, "n-0");
  const lease = await harness.client.get<Lease>(leasesResource, "kube-node-lease", "n-0");
  assert.deepEqual(
    [f.writes, first, f.scheduled.get("lease/n-0"), lease.spec?.renewTime],
    [
      ["POST leases", "PUT leases"],
      // 40 s / 4 = 10 s, stretched by half of upstream's 4 % jitter.
      start + 10_200,
      start + 20_400,
      "2026-01-01T00:00:10.200000Z",
    ],
  );
});

test("updateNodeStatus: patched after registration, then only on change or every report frequency", async () => {
  await using harness = await startClusterHarness();
  const f = fixture(harness.client);
  const created = await harness.client.create<Node>(
    nodesResource,
    registrationNode(f.agent.node, "gantry", undefined, f.clock.now(), 10250),
  );
  f.agent.registered = true;
  f.agent.nodeUid = created.metadata.uid;
  const readyOf = (node: DeepReadonly<Node>) =>
    node.status?.conditions?.find((c) => c.type === "Ready");
  const steps: unknown[] = [];
  const step = async (name: string, advanceMs: number): Promise<void> => {
    await f.clock.advance(advanceMs);
    f.writes.length = 0;
    await updateNodeStatus(f.ctx, "n-0");
    const node = await f.refresh();
    steps.push([
      name,
      [...f.writes],
      readyOf(node)?.status,
      readyOf(node)?.lastHeartbeatTime,
      (f.scheduled.get("status/n-0") ?? 0) - f.clock.now().getTime(),
    ]);
  };
  await f.refresh();
  await step("first check after registration", 1000);
  await step("10 s later, nothing changed", 10_200);
  await step("10 s later again", 10_200);
  // The first write counted as made half a report frequency (random 0.5 × 5 min) earlier.
  await step("the first report frequency passed", 129_600);
  await harness.client.patch(
    nodesResource,
    undefined,
    "n-0",
    "strategic",
    {
      status: { conditions: [{ type: "Ready", status: "Unknown", reason: "NodeStatusUnknown" }] },
    },
    { subresource: "status" },
  );
  await f.refresh();
  await step("the node lifecycle controller marked it Unknown", 10_200);
  await step("nothing changed since", 10_200);
  await step("the report frequency passed", 289_800);
  assert.deepEqual(steps, [
    [
      "first check after registration",
      ["PATCH nodes/status"],
      "True",
      "2026-01-01T00:00:01Z",
      10_200,
    ],
    ["10 s later, nothing changed", [], "True", "2026-01-01T00:00:01Z", 10_200],
    ["10 s later again", [], "True", "2026-01-01T00:00:01Z", 10_200],
    [
      "the first report frequency passed",
      ["PATCH nodes/status"],
      "True",
      "2026-01-01T00:02:31Z",
      10_200,
    ],
    [
      "the node lifecycle controller marked it Unknown",
      ["PATCH nodes/status"],
      "True",
      "2026-01-01T00:02:41Z",
      10_200,
    ],
    ["nothing changed since", [], "True", "2026-01-01T00:02:41Z", 10_200],
    ["the report frequency passed", ["PATCH nodes/status"], "True", "2026-01-01T00:07:41Z", 10_200],
  ]);
});
