import assert from "node:assert/strict";
import { test } from "node:test";
import { makePod, makePodGroup, makeWorkload } from "../../testing/index.ts";
import { gangSections } from "./gangs.ts";

test("gangSections: PodGroups under their Workload with minCount, scheduled and pending members and messages", () => {
  const workload = makeWorkload("train").template("workers", 2).group("legacy", 3).obj();
  const group = makePodGroup("train-0", "train", "workers").obj();
  group.status = {
    conditions: [
      {
        type: "PodGroupScheduled",
        status: "False",
        reason: "Unschedulable",
        message: "0/2 nodes are available",
        lastTransitionTime: "2026-01-01T00:00:00Z",
      },
    ],
  };
  const pods = [
    makePod("a").podGroup("train", "train-0").nodeName("n1").obj(),
    makePod("b")
      .podGroup("train", "train-0")
      .condition({ type: "PodScheduled", status: "False", message: "waiting for the gang" })
      .obj(),
    makePod("l-0").workloadGroup("train", "legacy", "r1").obj(),
  ];
  const orphan = makePodGroup("lost", "ghost", "workers").obj();
  const sections = gangSections([workload], [group, orphan], pods);
  assert.deepEqual(
    sections.map((s) => [s.name, s.exists, s.groups.map((g) => g.key)]),
    [
      ["ghost", false, ["podgroup/lost"]],
      ["train", true, ["legacy/r1", "podgroup/train-0"]],
    ],
  );
  const row = sections[1]?.groups[1];
  assert.deepEqual(
    [row?.minCount, row?.scheduled.map((m) => m.node), row?.pending.map((m) => m.name)],
    [2, ["n1"], ["b"]],
  );
  assert.deepEqual(row?.condition, {
    status: "False",
    reason: "Unschedulable",
    message: "0/2 nodes are available",
  });
  assert.deepEqual(row?.podMessages, ["waiting for the gang"]);
  assert.deepEqual(
    [sections[1]?.groups[0]?.label, sections[1]?.groups[0]?.minCount],
    ["legacy #r1", 3],
  );
  assert.equal(sections[0]?.groups[0]?.minCount, undefined);
});
