import assert from "node:assert/strict";
import { test } from "node:test";
import type { KueueWorkload, Pod } from "../../api/index.ts";
import { makeGroupPod, makeKueueWorkload } from "../../testing/index.ts";
import {
  constructGroupPodSets,
  equivalentToWorkload,
  groupFinished,
  matchGroup,
  reclaimablePodsOf,
  sortActivePods,
  sortInactivePods,
} from "./group-pods.ts";

const now = new Date("2026-01-01T01:00:00Z");
const names = (pods: readonly { metadata: { name?: string } }[]): string[] =>
  pods.map((p) => p.metadata.name ?? "");

function failedAt(pod: Pod, time: string): Pod {
  pod.status = {
    ...pod.status,
    phase: "Failed",
    conditions: [
      { type: "ContainersReady", status: "False", reason: "PodFailed", lastTransitionTime: time },
    ],
  };
  return pod;
}

function workload(podSets: [string, number][], finished = false): KueueWorkload {
  const builder = makeKueueWorkload("g");
  for (const [name, count] of podSets) builder.podSet(name, count, { cpu: "1" });
  const wl = builder.obj();
  if (finished) {
    wl.status = {
      conditions: [
        {
          type: "Finished",
          status: "True",
          reason: "Succeeded",
          message: "",
          lastTransitionTime: "2026-01-01T00:00:00Z",
        },
      ],
    };
  }
  return wl;
}

test("sortActivePods: pods with the finalizer, then ungated, then older ones are kept first", () => {
  const pods = [
    makeGroupPod("young", "g", { created: "2026-01-01T00:00:03Z", gated: false }),
    makeGroupPod("gated-old", "g", { created: "2026-01-01T00:00:01Z" }),
    makeGroupPod("old", "g", { created: "2026-01-01T00:00:02Z", gated: false }),
    makeGroupPod("finalized", "g", {
      created: "2026-01-01T00:00:00Z",
      gated: false,
      finalizer: false,
    }),
  ];
  assert.deepEqual(names(sortActivePods(pods)), ["old", "young", "gated-old", "finalized"]);
});

test("sortInactivePods: the pods that failed first come last, so replacements cover them first", () => {
  const pods = [
    failedAt(makeGroupPod("first", "g"), "2026-01-01T00:10:00Z"),
    failedAt(makeGroupPod("second", "g"), "2026-01-01T00:20:00Z"),
    failedAt(makeGroupPod("done", "g", { finalizer: false }), "2026-01-01T00:30:00Z"),
  ];
  assert.deepEqual(names(sortInactivePods(pods, now)), ["second", "first", "done"]);
});

test("constructGroupPodSets: one PodSet per role among runnable pods, sorted by name, counted", () => {
  const pods = [
    makeGroupPod("w1", "g", { role: "bbbb" }),
    makeGroupPod("d", "g", { role: "aaaa" }),
    makeGroupPod("w2", "g", { role: "bbbb" }),
    failedAt(makeGroupPod("w0", "g", { role: "bbbb" }), "2026-01-01T00:00:00Z"),
  ];
  assert.deepEqual(
    constructGroupPodSets(pods).map((p) => [p.name, p.count]),
    [
      ["aaaa", 1],
      ["bbbb", 2],
    ],
  );
  assert.deepEqual(
    constructGroupPodSets(pods, 5).map((p) => [p.name, p.count]),
    [["bbbb", 5]],
    "fast admission: the first runnable pod's role for the whole group",
  );
});

const equivalence = [
  {
    name: "same roles and counts",
    wl: workload([
      ["a", 1],
      ["b", 2],
    ]),
    sets: [
      ["a", 1],
      ["b", 2],
    ],
    want: true,
  },
  {
    name: "fewer pods than declared",
    wl: workload([
      ["a", 1],
      ["b", 2],
    ]),
    sets: [["b", 1]],
    want: true,
  },
  { name: "a role the Workload lacks", wl: workload([["a", 1]]), sets: [["c", 1]], want: false },
  { name: "more pods than declared", wl: workload([["a", 1]]), sets: [["a", 2]], want: false },
  { name: "more pods once Finished", wl: workload([["a", 1]], true), sets: [["a", 2]], want: true },
] as const;

for (const c of equivalence) {
  test(`equivalentToWorkload: ${c.name}`, () => {
    const podSets = c.sets.map(([name, count]) => ({
      name,
      count,
      template: { spec: { containers: [] } },
    }));
    assert.equal(equivalentToWorkload(c.wl, podSets), c.want);
  });
}

test("matchGroup: excess active pods per role are the youngest, failed pods covered by replacements are replaced", () => {
  const pods = [
    makeGroupPod("a", "g", {
      role: "r",
      created: "2026-01-01T00:00:00Z",
      gated: false,
      phase: "Running",
    }),
    failedAt(
      makeGroupPod("b", "g", { role: "r", created: "2026-01-01T00:00:01Z" }),
      "2026-01-01T00:05:00Z",
    ),
    makeGroupPod("b2", "g", { role: "r", created: "2026-01-01T00:06:00Z" }),
    makeGroupPod("b3", "g", { role: "r", created: "2026-01-01T00:07:00Z" }),
  ];
  const match = matchGroup(workload([["r", 2]]), pods, now, false);
  assert.equal(match.equivalent, true);
  assert.deepEqual(names(match.excess), ["b3"]);
  assert.deepEqual(names(match.replaced), ["b"]);
  assert.deepEqual(names(match.kept), ["a", "b2"]);
  assert.equal(match.absent, 0);
});

test("matchGroup: a failed pod without replacement is kept and counts as absent", () => {
  const pods = [
    makeGroupPod("a", "g", { role: "r", phase: "Running", gated: false }),
    failedAt(makeGroupPod("b", "g", { role: "r" }), "2026-01-01T00:05:00Z"),
  ];
  const match = matchGroup(workload([["r", 2]]), pods, now, false);
  assert.deepEqual(names(match.replaced), []);
  assert.equal(match.absent, 1);
});

test("matchGroup: a driver group rejects pods of undeclared roles and reports no absent workers", () => {
  const pods = [
    makeGroupPod("driver", "g", { role: "driver" }),
    makeGroupPod("stray", "g", { role: "other" }),
  ];
  const match = matchGroup(
    workload([
      ["driver", 1],
      ["workers", 3],
    ]),
    pods,
    now,
    true,
  );
  assert.deepEqual(names(match.unknownRole), ["stray"]);
  assert.equal(match.absent, 0);
  assert.equal(match.equivalent, true);
});

const finishing = [
  {
    name: "every declared pod succeeded",
    phases: ["Succeeded", "Succeeded"],
    unretriable: false,
    want: { finished: true, success: true, message: "Pods succeeded: 2/2." },
  },
  {
    name: "a failed pod awaits its replacement",
    phases: ["Succeeded", "Failed"],
    unretriable: false,
    want: { finished: false, success: true, message: "" },
  },
  {
    name: "an unretriable group ends once nothing runs, reported as Succeeded as Kueue does",
    phases: ["Succeeded", "Failed"],
    unretriable: true,
    want: { finished: true, success: true, message: "Pods succeeded: 1/2." },
  },
  {
    name: "an unretriable group still running is not finished",
    phases: ["Running", "Failed"],
    unretriable: true,
    want: { finished: false, success: true, message: "" },
  },
] as const;

for (const c of finishing) {
  test(`groupFinished: ${c.name}`, () => {
    const pods = c.phases.map((phase, i) =>
      makeGroupPod(`p${i}`, "g", {
        phase,
        ...(c.unretriable && i === 1
          ? { annotations: { "kueue.x-k8s.io/retriable-in-group": "false" } }
          : {}),
      }),
    );
    assert.deepEqual(groupFinished(pods, 2, undefined), c.want);
  });
}

test("groupFinished: a driver group ends with its driver once every worker stopped, failing with it", () => {
  const driver = makeGroupPod("d", "g", { role: "driver", phase: "Failed" });
  const worker = makeGroupPod("w", "g", { role: "workers", phase: "Succeeded" });
  assert.deepEqual(groupFinished([driver, worker], 3, driver), {
    finished: true,
    success: false,
    message: "Pods succeeded: 1/3.",
  });
  const running = makeGroupPod("w2", "g", { role: "workers", phase: "Running" });
  assert.equal(groupFinished([driver, running], 3, driver).finished, false);
});

test("groupFinished: a serving group never finishes", () => {
  const pods = ["a", "b"].map((n) =>
    makeGroupPod(n, "g", {
      phase: "Succeeded",
      annotations: { "kueue.x-k8s.io/pod-group-serving": "true" },
    }),
  );
  assert.equal(groupFinished(pods, 2, undefined).finished, false);
  assert.deepEqual(reclaimablePodsOf(pods), []);
});

test("reclaimablePodsOf: succeeded pods per role", () => {
  const pods = [
    makeGroupPod("a", "g", { role: "x", phase: "Succeeded" }),
    makeGroupPod("b", "g", { role: "y", phase: "Running" }),
    makeGroupPod("c", "g", { role: "x", phase: "Succeeded" }),
    makeGroupPod("d", "g", { role: "y", phase: "Succeeded" }),
  ];
  assert.deepEqual(reclaimablePodsOf(pods), [
    { name: "x", count: 2 },
    { name: "y", count: 1 },
  ]);
});
