import assert from "node:assert/strict";
import { test } from "node:test";
import type { DaemonSet, Node, Pod } from "../../api/index.ts";
import { makeDaemonSet, makeNode, type PodFixtureState, setPodState } from "../../testing/index.ts";
import { newControllerRef, podFromTemplate } from "../framework/index.ts";
import { pinToNode } from "./placement.ts";
import { type NodeActions, planManage, planRollingUpdate, scaledValue } from "./plan.ts";
import { daemonPodTemplate } from "./revision.ts";

const now = new Date("2024-06-01T12:00:00Z");
const NEW = "newhash";
const OLD = "oldhash";

type State = Exclude<PodFixtureState, "running">;

/** A daemon pod of `ds` meant for `node`: name `<node>-<hash>-<n>`, created `n` minutes ago. */
function pod(ds: DaemonSet, node: string, hash: string, state: State, minutesAgo = 10): Pod {
  const p = podFromTemplate(
    daemonPodTemplate(ds, hash),
    "default",
    ds.metadata.name ?? "",
    newControllerRef(ds, { apiVersion: "apps/v1", kind: "DaemonSet" }),
  );
  p.metadata.name = `${node}-${hash}-${minutesAgo}`;
  p.metadata.creationTimestamp = new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  p.spec.affinity = pinToNode(p.spec.affinity, node);
  return setPodState(p, state);
}

function byNode(
  pods: Pod[],
  target: (p: Pod) => string = (p) => p.metadata.name?.split("-")[0] ?? "",
) {
  const map = new Map<string, Pod[]>();
  for (const p of pods) map.set(target(p), [...(map.get(target(p)) ?? []), p]);
  return map;
}

function describe(actions: NodeActions) {
  return {
    create: [...actions.createOn],
    delete: actions.deletePods.map((p) => p.metadata.name),
    events: actions.events.map((e) => e.reason),
    ...(actions.retryAfterMs === undefined ? {} : { retryAfterMs: actions.retryAfterMs }),
  };
}

const ds = makeDaemonSet("agent").obj();
const surgeDs = makeDaemonSet("agent").rollingUpdate(0, 1).obj();
const nodes = (...names: string[]): Node[] => names.map((n) => makeNode(n).obj());

const manageCases: readonly {
  name: string;
  ds: DaemonSet;
  nodes: Node[];
  pods: Pod[];
  backoffMs?: number;
  want: ReturnType<typeof describe>;
}[] = [
  {
    name: "creates a pod on every eligible node without one",
    ds,
    nodes: nodes("n1", "n2", "n3"),
    pods: [pod(ds, "n2", NEW, "ready")],
    want: { create: ["n1", "n3"], delete: [], events: [] },
  },
  {
    name: "skips a node with an untolerated NoSchedule taint but keeps its pod",
    ds,
    nodes: [
      makeNode("n1").taint("dedicated", "x", "NoSchedule").obj(),
      makeNode("n2").taint("dedicated", "x", "NoSchedule").obj(),
    ],
    pods: [pod(ds, "n2", NEW, "ready")],
    want: { create: [], delete: [], events: [] },
  },
  {
    name: "deletes the pod of a node with an untolerated NoExecute taint",
    ds,
    nodes: [makeNode("n1").taint("dedicated", "x", "NoExecute").obj()],
    pods: [pod(ds, "n1", NEW, "ready")],
    want: { create: [], delete: ["n1-newhash-10"], events: [] },
  },
  {
    name: "keeps the oldest of two running pods on a node",
    ds,
    nodes: nodes("n1"),
    pods: [pod(ds, "n1", NEW, "ready", 5), pod(ds, "n1", NEW, "ready", 20)],
    want: { create: [], delete: ["n1-newhash-5"], events: [] },
  },
  {
    name: "deletes a failed pod and reports it",
    ds,
    nodes: nodes("n1"),
    pods: [pod(ds, "n1", NEW, "failed")],
    want: { create: [], delete: ["n1-newhash-10"], events: ["FailedDaemonPod"] },
  },
  {
    name: "leaves a failed pod alone while its node is in backoff",
    ds,
    nodes: nodes("n1"),
    pods: [pod(ds, "n1", NEW, "failed")],
    backoffMs: 4000,
    want: { create: [], delete: [], events: [], retryAfterMs: 4000 },
  },
  {
    name: "deletes a succeeded pod",
    ds,
    nodes: nodes("n1"),
    pods: [pod(ds, "n1", NEW, "succeeded")],
    want: { create: [], delete: ["n1-newhash-10"], events: ["SucceededDaemonPod"] },
  },
  {
    name: "deletes an unscheduled pod meant for a node that is gone",
    ds,
    nodes: nodes("n1"),
    pods: [pod(ds, "n1", NEW, "ready"), pod(ds, "gone", NEW, "pending")],
    want: { create: [], delete: ["gone-newhash-10"], events: [] },
  },
  {
    name: "with surge, keeps the old pod while the new one is not available",
    ds: surgeDs,
    nodes: nodes("n1"),
    pods: [pod(surgeDs, "n1", OLD, "ready", 20), pod(surgeDs, "n1", NEW, "pending", 1)],
    want: { create: [], delete: [], events: [] },
  },
  {
    name: "with surge, deletes the old pod once the new one is available",
    ds: surgeDs,
    nodes: nodes("n1"),
    pods: [pod(surgeDs, "n1", OLD, "ready", 20), pod(surgeDs, "n1", NEW, "ready", 1)],
    want: { create: [], delete: ["n1-oldhash-20"], events: [] },
  },
];

for (const c of manageCases) {
  test(`planManage: ${c.name}`, () => {
    const actions = planManage({
      ds: c.ds,
      nodes: c.nodes,
      podsByNode: byNode(c.pods),
      hash: NEW,
      generation: undefined,
      now,
      failedBackoffMs: () => c.backoffMs ?? 0,
    });
    assert.deepEqual(describe(actions), c.want);
  });
}

const rollingCases: readonly {
  name: string;
  ds: DaemonSet;
  pods: (ds: DaemonSet) => Pod[];
  want: ReturnType<typeof describe>;
}[] = [
  {
    name: "maxUnavailable 1 deletes one old available pod",
    ds,
    pods: (d) => [
      pod(d, "n1", OLD, "ready"),
      pod(d, "n2", OLD, "ready"),
      pod(d, "n3", OLD, "ready"),
    ],
    want: { create: [], delete: ["n1-oldhash-10"], events: [] },
  },
  {
    name: "an unavailable new pod uses up maxUnavailable",
    ds,
    pods: (d) => [
      pod(d, "n1", NEW, "pending"),
      pod(d, "n2", OLD, "ready"),
      pod(d, "n3", OLD, "ready"),
    ],
    want: { create: [], delete: [], events: [] },
  },
  {
    name: "a node without a pod counts as unavailable",
    ds,
    pods: (d) => [pod(d, "n2", OLD, "ready"), pod(d, "n3", OLD, "ready")],
    want: { create: [], delete: [], events: [] },
  },
  {
    name: "an unavailable old pod is always replaced",
    ds,
    pods: (d) => [
      pod(d, "n1", OLD, "ready"),
      pod(d, "n2", OLD, "pending"),
      pod(d, "n3", OLD, "ready"),
    ],
    want: { create: [], delete: ["n2-oldhash-10"], events: [] },
  },
  {
    name: "maxUnavailable 50% of three nodes rounds up to two",
    ds: makeDaemonSet("agent").rollingUpdate("50%").obj(),
    pods: (d) => [
      pod(d, "n1", OLD, "ready"),
      pod(d, "n2", OLD, "ready"),
      pod(d, "n3", OLD, "ready"),
    ],
    want: { create: [], delete: ["n1-oldhash-10", "n2-oldhash-10"], events: [] },
  },
  {
    name: "maxSurge 1 creates one new pod beside an old available one",
    ds: surgeDs,
    pods: (d) => [
      pod(d, "n1", OLD, "ready"),
      pod(d, "n2", OLD, "ready"),
      pod(d, "n3", OLD, "ready"),
    ],
    want: { create: ["n1"], delete: [], events: [] },
  },
  {
    name: "maxSurge 1 deletes an old pod whose replacement is available and surges on",
    ds: surgeDs,
    pods: (d) => [
      pod(d, "n1", OLD, "ready"),
      pod(d, "n1", NEW, "ready", 1),
      pod(d, "n2", OLD, "ready"),
      pod(d, "n3", OLD, "ready"),
    ],
    want: { create: ["n2"], delete: ["n1-oldhash-10"], events: [] },
  },
  {
    name: "maxSurge 1 waits while a new pod is not available",
    ds: surgeDs,
    pods: (d) => [
      pod(d, "n1", OLD, "ready"),
      pod(d, "n1", NEW, "pending", 1),
      pod(d, "n2", OLD, "ready"),
    ],
    want: { create: [], delete: [], events: [] },
  },
];

for (const c of rollingCases) {
  test(`planRollingUpdate: ${c.name}`, () => {
    const actions = planRollingUpdate({
      ds: c.ds,
      nodes: nodes("n1", "n2", "n3"),
      podsByNode: byNode(c.pods(c.ds)),
      hash: NEW,
      generation: undefined,
      now,
    });
    assert.deepEqual(describe(actions), c.want);
  });
}

test("scaledValue: integers pass, percentages scale and round, garbage is an error", () => {
  assert.deepEqual(
    [scaledValue(2, 10, true), scaledValue("25%", 10, true), scaledValue("25%", 10, false)],
    [2, 3, 2],
  );
  assert.throws(() => scaledValue("x", 10, true), /invalid value "x"/);
});
