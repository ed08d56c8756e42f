import assert from "node:assert/strict";
import { test } from "node:test";
import { makeNode, makePod, minimalPlugins, newTestFramework } from "../testing/index.ts";
import { seededRandom } from "../util/index.ts";
import { findNodesThatFitPod, numFeasibleNodesToFind, prioritizeAndSelect } from "./find-nodes.ts";

const sizes = [
  { nodes: 50, percentage: 0, want: 50 },
  { nodes: 100, percentage: 0, want: 100 },
  { nodes: 1000, percentage: 0, want: 420 },
  { nodes: 5000, percentage: 0, want: 500 },
  { nodes: 10_000, percentage: 0, want: 500 },
  { nodes: 1000, percentage: 100, want: 1000 },
  { nodes: 1000, percentage: 5, want: 100 },
] as const;

for (const c of sizes) {
  test(`numFeasibleNodesToFind: ${c.nodes} nodes at ${c.percentage || "adaptive"}% stop after ${c.want}`, () => {
    assert.equal(numFeasibleNodesToFind(c.percentage, c.nodes), c.want);
  });
}

test("findNodesThatFitPod: stops once enough nodes fit and resumes from there next time", () => {
  const nodes = Array.from({ length: 300 }, (_, i) => makeNode(`n${i}`).obj());
  const tf = newTestFramework({ plugins: minimalPlugins("NodeResourcesFit"), nodes });
  const selection = { nextStartNodeIndex: 0, percentageOfNodesToScore: 10 };
  const first = findNodesThatFitPod(
    tf.framework,
    tf.newState(),
    makePod("p").obj(),
    tf.snapshot,
    selection,
  );
  assert.equal(first.feasible.length, 100);
  assert.equal(selection.nextStartNodeIndex, 100);
  const second = findNodesThatFitPod(
    tf.framework,
    tf.newState(),
    makePod("q").obj(),
    tf.snapshot,
    selection,
  );
  assert.equal(second.feasible[0]?.name, "n100");
});

test("findNodesThatFitPod: tries the nominated node first", () => {
  const nodes = [makeNode("n1").obj(), makeNode("n2").obj(), makeNode("n3").obj()];
  const tf = newTestFramework({ plugins: minimalPlugins("NodeResourcesFit"), nodes });
  const result = findNodesThatFitPod(
    tf.framework,
    tf.newState(),
    makePod("p").nominatedNodeName("n3").obj(),
    tf.snapshot,
    { nextStartNodeIndex: 0, percentageOfNodesToScore: 0 },
  );
  assert.deepEqual(
    result.feasible.map((n) => n.name),
    ["n3"],
  );
});

test("prioritizeAndSelect: breaks ties with the injected Random", () => {
  const nodes = [makeNode("n1").obj(), makeNode("n2").obj(), makeNode("n3").obj()];
  const tf = newTestFramework({ plugins: minimalPlugins("NodeResourcesFit"), nodes });
  const picks = new Set<string>();
  const random = seededRandom(3);
  for (let i = 0; i < 30; i++) {
    const result = prioritizeAndSelect(
      tf.framework,
      tf.newState(),
      makePod("p").obj(),
      tf.snapshot.list(),
      random,
    );
    if ("host" in result) picks.add(result.host);
  }
  assert.deepEqual([...picks].sort(), ["n1", "n2", "n3"]);
});
