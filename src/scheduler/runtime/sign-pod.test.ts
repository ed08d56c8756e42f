import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import {
  makeNode,
  makePod,
  minimalPlugins,
  newTestFramework,
  type TestFrameworkOptions,
} from "../../testing/index.ts";
import {
  type AnyPlugin,
  PodInfo,
  type PodSignature,
  sameSignature,
  sameValue,
  success,
} from "../framework/index.ts";
import { inTreeRegistry } from "../plugins/registry.ts";

function sign(pod: Pod, options: TestFrameworkOptions = {}): PodSignature | undefined {
  const tf = newTestFramework({ nodes: [makeNode("n1").obj()], ...options });
  return tf.framework.signPod(new PodInfo(pod));
}

function same(a: Pod, b: Pod, options: TestFrameworkOptions = {}): boolean {
  const x = sign(a, options);
  const y = sign(b, options);
  assert.ok(x !== undefined && y !== undefined, "both pods can be signed");
  return sameSignature(x, y);
}

test("Framework.signPod: the default profile signs a plain pod with upstream's fragment keys", () => {
  const signature = sign(makePod("p").requests({ cpu: "1" }).obj());
  assert.deepEqual(signature?.map((f) => f.key).sort(), [
    "HostPorts",
    "Resources",
    "Spec.Affinity.NodeAffinity",
    "Spec.NodeName",
    "Spec.NodeSelector",
    "Spec.SchedulerName",
    "Spec.Tolerations",
  ]);
});

test("Framework.signPod: pods differing only in name, labels or annotations sign alike", () => {
  const a = makePod("a").requests({ cpu: "1" }).label("index", "0").obj();
  const b = makePod("b").requests({ cpu: "1" }).label("index", "1").annotation("x", "y").obj();
  assert.equal(same(a, b), true);
});

test("Framework.signPod: what Filter or Score reads tells pods apart", () => {
  const base = () => makePod("p").requests({ cpu: "1", memory: "1Gi" });
  const cases: readonly [string, Pod][] = [
    ["requests", makePod("p").requests({ cpu: "2", memory: "1Gi" }).obj()],
    ["an init container", base().initContainer({ cpu: "3" }).obj()],
    ["overhead", base().overhead({ cpu: "100m" }).obj()],
    [
      "a toleration",
      base().toleration({ key: "k", operator: "Exists", effect: "NoSchedule" }).obj(),
    ],
    ["a node selector", base().nodeSelector({ disk: "ssd" }).obj()],
    [
      "preferred node affinity",
      base()
        .preferredNodeAffinity(1, {
          matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }],
        })
        .obj(),
    ],
    ["a host port", base().hostPort(8080).obj()],
    ["another scheduler", base().schedulerName("other").obj()],
  ];
  for (const [what, pod] of cases) {
    assert.equal(same(base().obj(), pod), false, `${what} must change the signature`);
  }
});

test("Framework.signPod: object key order does not matter, array order does", () => {
  const t1 = { key: "a", operator: "Exists" as const, effect: "NoSchedule" as const };
  const t2 = { effect: "NoSchedule" as const, operator: "Exists" as const, key: "a" };
  const t3 = { key: "b", operator: "Exists" as const, effect: "NoSchedule" as const };
  const p = (...ts: (typeof t1)[]) =>
    ts.reduce((b, t) => b.toleration(t), makePod("p").requests({ cpu: "1" })).obj();
  assert.equal(same(p(t1, t3), p(t2, t3)), true);
  assert.equal(same(p(t1, t3), p(t3, t1)), false);
});

test("Framework.signPod: pods with pod affinity or topology spreading are not signed", () => {
  const affinity = makePod("p")
    .podAntiAffinity("zone", { matchLabels: { app: "x" } })
    .obj();
  const spread = makePod("p").spreadConstraint(1, "zone", "DoNotSchedule", { app: "x" }).obj();
  assert.equal(sign(affinity), undefined);
  assert.equal(sign(spread), undefined);
  const withDefaults = minimalPlugins("NodeResourcesFit", {
    name: "PodTopologySpread",
    args: {
      defaultConstraints: [
        { maxSkew: 1, topologyKey: "zone", whenUnsatisfiable: "ScheduleAnyway" },
      ],
    },
  });
  assert.equal(sign(makePod("p").obj(), { plugins: withDefaults }), undefined);
});

test("Framework.signPod: labels matter once running pods have pod affinity terms", () => {
  const a = makePod("a").label("app", "web").obj();
  const b = makePod("b").label("app", "db").obj();
  assert.equal(same(a, b), true, "no pod has terms: labels cannot change an answer");
  const running = makePod("r")
    .nodeName("n1")
    .preferredPodAffinity(10, "zone", { matchLabels: { app: "web" } })
    .obj();
  assert.equal(same(a, b, { pods: [running] }), false, "a running pod's term may match one");
  assert.equal(same(a, makePod("c").label("app", "web").obj(), { pods: [running] }), true);
});

test("Framework.signPod: a profile with a filtering plugin that does not sign signs nothing", () => {
  const unsigned: AnyPlugin = { name: "Unsigned", filter: () => success };
  const registry = inTreeRegistry();
  registry.set(unsigned.name, () => unsigned);
  const tf = newTestFramework({
    registry,
    plugins: minimalPlugins("NodeResourcesFit", "Unsigned"),
    nodes: [makeNode("n1").obj()],
  });
  assert.equal(tf.framework.canSignPods, false);
  assert.equal(tf.framework.signPod(new PodInfo(makePod("p").obj())), undefined);
});

test("sameValue: structural equality of JSON-like values", () => {
  assert.equal(sameValue({ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] }), true);
  assert.equal(sameValue({ a: 1, b: 2 }, { b: 2, a: 1 }), true);
  assert.equal(sameValue([1, 2], [2, 1]), false);
  assert.equal(sameValue({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(sameValue({ a: undefined }, {}), false);
  assert.equal(sameValue([], {}), false);
  assert.equal(sameValue(null, {}), false);
  assert.equal(sameValue("1", 1), false);
});
