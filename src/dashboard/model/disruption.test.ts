import assert from "node:assert/strict";
import { test } from "node:test";
import { makePdb, makePod, makePodGroup, makeWorkload } from "../../testing/index.ts";
import { budgetRows } from "./disruption.ts";

const ready = (name: string, group: string, isReady = true) =>
  makePod(name)
    .label("app", "train")
    .podGroup("train", group)
    .phase("Running")
    .condition({ type: "Ready", status: isReady ? "True" : "False" })
    .obj();

test("budgetRows: a group budget shows its mode, status and the groups below minCount", () => {
  const rows = budgetRows(
    [
      makePdb("groups")
        .matchLabels({ app: "train" })
        .minAvailable(1)
        .usePodGroups()
        .status({ currentHealthy: 1, desiredHealthy: 1, expectedPods: 2, disruptionsAllowed: 0 })
        .obj(),
      makePdb("pods").matchLabels({ app: "web" }).maxUnavailable("25%").obj(),
    ],
    [ready("a-0", "a"), ready("a-1", "a"), ready("b-0", "b"), ready("b-1", "b", false)],
    [makeWorkload("train").template("pairs", 2).obj()],
    [makePodGroup("a", "train", "pairs").obj(), makePodGroup("b", "train", "pairs").obj()],
  );
  assert.deepEqual(
    rows.map((r) => [r.name, r.mode, r.budget, r.currentHealthy, r.expected, r.allowed]),
    [
      ["groups", "groups", "minAvailable: 1", 1, 2, 0],
      ["pods", "pods", "maxUnavailable: 25%", 0, 0, 0],
    ],
  );
  assert.deepEqual(rows[0]?.brokenGroups, [{ key: "podgroup/b", healthy: 1, minCount: 2 }]);
  assert.deepEqual(rows[1]?.brokenGroups, []);
});
