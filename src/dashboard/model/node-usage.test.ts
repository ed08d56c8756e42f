import assert from "node:assert/strict";
import { test } from "node:test";
import { makeNode, makePod } from "../../testing/index.ts";
import { newNodeRowsMemo, nodeRows } from "./node-usage.ts";

test("nodeRows: adds up the requests of each node's unfinished pods against its allocatable", () => {
  const nodes = [
    makeNode("b").capacity({ cpu: "4", memory: "8Gi", pods: "10", "example.com/gpu": "2" }).obj(),
    makeNode("a").capacity({ cpu: "2", memory: "4Gi", pods: "10" }).unschedulable().obj(),
  ];
  const pods = [
    makePod("p1")
      .nodeName("b")
      .requests({ cpu: "1500m", memory: "1Gi", "example.com/gpu": "1" })
      .obj(),
    makePod("p2").nodeName("b").requests({ cpu: "500m" }).obj(),
    makePod("done").nodeName("b").requests({ cpu: "3" }).phase("Succeeded").obj(),
    makePod("pending").requests({ cpu: "1" }).obj(),
  ];
  const { rows, summary } = nodeRows(nodes, pods);
  assert.deepEqual(
    rows.map((r) => [r.name, r.cordoned, r.podCount, r.cpu.requested, r.cpu.allocatable]),
    [
      ["a", true, 0, 0, 2000],
      ["b", false, 2, 2000, 4000],
    ],
  );
  assert.deepEqual(rows[1]?.extended, [
    { resource: "example.com/gpu", requested: 1, allocatable: 2 },
  ]);
  assert.deepEqual(rows[1]?.memory, {
    resource: "memory",
    requested: 1024 ** 3,
    allocatable: 8 * 1024 ** 3,
  });
  assert.deepEqual(
    [summary.nodes, summary.cordoned, summary.pods, summary.cpu.requested, summary.cpu.allocatable],
    [2, 1, 2, 2000, 6000],
  );
});

test("nodeRows: a node without a Ready condition counts as not ready", () => {
  const node = makeNode("n").obj();
  delete node.status?.conditions;
  const { rows, summary } = nodeRows([node], []);
  assert.equal(rows[0]?.ready, "Unknown");
  assert.equal(summary.notReady, 1);
});

test("newNodeRowsMemo: the same lists give the same result; a changed pod is counted anew", () => {
  const rowsOf = newNodeRowsMemo();
  const nodes = [makeNode("n").capacity({ cpu: "4" }).obj()];
  const pods = [makePod("p").nodeName("n").requests({ cpu: "1" }).obj()];
  const first = rowsOf(nodes, pods);
  assert.equal(rowsOf(nodes, pods), first);
  const changed = [makePod("p").nodeName("n").requests({ cpu: "3" }).obj()];
  assert.equal(rowsOf(nodes, changed).rows[0]?.cpu.requested, 3000);
});
