import assert from "node:assert/strict";
import { test } from "node:test";
import {
  FakeClock,
  makeNode,
  makePod,
  minimalPlugins,
  newTestFramework,
  settle,
} from "../../testing/index.ts";
import {
  type AnyPlugin,
  asStatus,
  type PluginFactory,
  preFilterSuccess,
  type Status,
  skip,
  statusMessage,
  success,
  unresolvable,
  unschedulable,
  waitStatus,
} from "../framework/index.ts";
import { inTreeRegistry } from "../plugins/registry.ts";

function registryWith(...plugins: AnyPlugin[]): Map<string, PluginFactory> {
  const registry = inTreeRegistry();
  for (const plugin of plugins) registry.set(plugin.name, () => plugin);
  return registry;
}

function frameworkWith(plugins: AnyPlugin[], extra: { clock?: FakeClock } = {}) {
  return newTestFramework({
    registry: registryWith(...plugins),
    plugins: minimalPlugins(...plugins.map((p) => p.name)),
    nodes: [makeNode("n1").obj(), makeNode("n2").obj(), makeNode("n3").obj()],
    ...(extra.clock === undefined ? {} : { clock: extra.clock }),
  });
}

const describe = (s: Status): string => `${s.code}|${s.plugin}|${statusMessage(s)}`;

test("Framework.runPreFilterPlugins: Skip turns the plugin's Filter off for the cycle", () => {
  let filtered = 0;
  const tf = frameworkWith([
    {
      name: "Skipper",
      preFilter: () => ({ status: skip }),
      filter: () => {
        filtered++;
        return unresolvable("never");
      },
    },
  ]);
  assert.deepEqual(tf.filter(makePod("p").obj()), { n1: "Success", n2: "Success", n3: "Success" });
  assert.equal(filtered, 0);
});

test("Framework.runPreFilterPlugins: node sets intersect; an empty intersection names the plugins", () => {
  const tf = frameworkWith([
    { name: "A", preFilter: () => ({ status: success, nodeNames: new Set(["n1", "n2"]) }) },
    { name: "B", preFilter: () => ({ status: success, nodeNames: new Set(["n3"]) }) },
  ]);
  const out = tf.framework.runPreFilterPlugins(
    tf.newState(),
    makePod("p").obj(),
    tf.snapshot.list(),
  );
  assert.deepEqual(
    [out.status.code, statusMessage(out.status)],
    ["UnschedulableAndUnresolvable", "node(s) didn't satisfy plugin(s) [A B] simultaneously"],
  );
});

test("Framework.runPreFilterPlugins: an Unschedulable plugin does not stop the others", () => {
  const seen: string[] = [];
  const tf = frameworkWith([
    {
      name: "First",
      preFilter: () => {
        seen.push("First");
        return { status: unschedulable("full") };
      },
    },
    {
      name: "Second",
      preFilter: () => {
        seen.push("Second");
        return preFilterSuccess;
      },
    },
  ]);
  const out = tf.framework.runPreFilterPlugins(tf.newState(), makePod("p").obj(), []);
  assert.deepEqual([describe(out.status), seen], ["Unschedulable|First|full", ["First", "Second"]]);
});

test("Framework.runFilterPlugins: the first rejection wins and names its plugin", () => {
  const tf = frameworkWith([
    { name: "Reject", filter: () => unschedulable("too small") },
    { name: "Never", filter: () => unresolvable("not reached") },
  ]);
  const status = tf.framework.runFilterPlugins(
    tf.newState(),
    makePod("p").obj(),
    tf.snapshot.list()[0] as never,
  );
  assert.equal(describe(status), "Unschedulable|Reject|too small");
});

test("Framework.runFilterPlugins: an error or a throw becomes an Error status with the plugin's name", () => {
  const tf = frameworkWith([{ name: "Broken", filter: () => asStatus(new Error("boom")) }]);
  const node = tf.snapshot.list()[0];
  assert.ok(node !== undefined, "node !== undefined");
  const status = tf.framework.runFilterPlugins(tf.newState(), makePod("p").obj(), node);
  assert.equal(describe(status), 'Error|Broken|running "Broken" filter plugin: boom');
  const thrower = frameworkWith([
    {
      name: "Thrower",
      filter: () => {
        throw new RangeError("bad");
      },
    },
  ]);
  const thrown = thrower.framework.runFilterPlugins(thrower.newState(), makePod("p").obj(), node);
  assert.equal(describe(thrown), 'Error|Thrower|running "Thrower" filter plugin: bad');
});

test("Framework.runScorePlugins: normalizes, then adds up the weighted scores", () => {
  const raw: Record<string, number> = { n1: 1, n2: 2, n3: 4 };
  const tf = newTestFramework({
    registry: registryWith(
      {
        name: "Double",
        score: (_s, _p, node) => raw[node.name] ?? 0,
        normalizeScore: (_s, _p, scores) => {
          for (const s of scores) s.score *= 25;
          return success;
        },
      },
      { name: "Flat", score: () => 10 },
    ),
    plugins: minimalPlugins({ name: "Double", weight: 2 }, "Flat"),
    nodes: [makeNode("n1").obj(), makeNode("n2").obj(), makeNode("n3").obj()],
  });
  assert.deepEqual(tf.score(makePod("p").obj()), { n1: 60, n2: 110, n3: 210 });
});

test("Framework.runScorePlugins: a score outside [0, 100] is an error", () => {
  const tf = frameworkWith([{ name: "Wild", score: () => 101 }]);
  const { status } = tf.framework.runScorePlugins(
    tf.newState(),
    makePod("p").obj(),
    tf.snapshot.list(),
  );
  assert.equal(
    describe(status),
    'Error|Wild|plugin "Wild" returns an invalid score 101, it should in the range of [0, 100] after normalizing',
  );
});

test("Framework.runPostFilterPlugins: rejections join their reasons; success wins", async () => {
  const tf = frameworkWith([
    { name: "P1", postFilter: async () => ({ status: unschedulable("first") }) },
    { name: "P2", postFilter: async () => ({ status: unschedulable("second") }) },
  ]);
  const result = await tf.framework.runPostFilterPlugins(tf.newState(), makePod("p").obj(), {
    get: () => success,
    nodesForStatusCode: () => [],
  });
  assert.equal(describe(result.status), "Unschedulable|P1|first, second");
});

test("Framework.runPermitPlugins: a waiting pod proceeds once every waiting plugin allows it", async () => {
  const tf = frameworkWith([
    { name: "W1", permit: () => ({ status: waitStatus("hold"), timeoutMs: 60_000 }) },
    { name: "W2", permit: () => ({ status: waitStatus("hold"), timeoutMs: 60_000 }) },
  ]);
  const pod = makePod("p").obj();
  const permit = tf.framework.runPermitPlugins(tf.newState(), pod, "n1");
  assert.equal(permit.code, "Wait");
  const outcome = tf.framework.waitOnPermit(pod);
  const waiting = tf.framework.handle.getWaitingPod("uid-p");
  assert.deepEqual(waiting?.pendingPlugins().sort(), ["W1", "W2"]);
  waiting?.allow("W1");
  waiting?.allow("W2");
  assert.equal((await outcome).code, "Success");
  assert.equal(tf.framework.handle.getWaitingPod("uid-p"), undefined);
});

test("Framework.runPermitPlugins: a waiting pod is rejected when its timeout expires", async () => {
  const clock = new FakeClock();
  const tf = frameworkWith(
    [{ name: "Gang", permit: () => ({ status: waitStatus("hold"), timeoutMs: 5000 }) }],
    { clock },
  );
  const pod = makePod("p").obj();
  tf.framework.runPermitPlugins(tf.newState(), pod, "n1");
  const outcome = tf.framework.waitOnPermit(pod);
  await settle();
  await clock.advance(5000);
  assert.equal(
    describe(await outcome),
    "Unschedulable|Gang|rejected due to timeout after waiting 5s at plugin Gang",
  );
});

test("Framework.rejectWaitingPod: ends the wait with a rejection", async () => {
  const tf = frameworkWith([{ name: "Gang", permit: () => ({ status: waitStatus("hold") }) }]);
  const pod = makePod("p").obj();
  tf.framework.runPermitPlugins(tf.newState(), pod, "n1");
  const outcome = tf.framework.waitOnPermit(pod);
  assert.equal(tf.framework.rejectWaitingPod("uid-p"), true);
  assert.equal((await outcome).code, "Unschedulable");
});

test("Framework.runFilterPluginsWithNominatedPods: higher-priority nominated pods take their room", () => {
  const node = makeNode("n1").capacity({ cpu: "1" }).obj();
  const nominated = makePod("preemptor")
    .priority(100)
    .requests({ cpu: "800m" })
    .nominatedNodeName("n1")
    .obj();
  const tf = newTestFramework({
    plugins: minimalPlugins("NodeResourcesFit"),
    nodes: [node],
    nominated: { n1: [nominated] },
  });
  const low = makePod("low").priority(1).requests({ cpu: "500m" }).obj();
  const high = makePod("high").priority(200).requests({ cpu: "500m" }).obj();
  assert.deepEqual(tf.filter(low), { n1: "Unschedulable: Insufficient cpu" });
  assert.deepEqual(tf.filter(high), { n1: "Success" });
});
