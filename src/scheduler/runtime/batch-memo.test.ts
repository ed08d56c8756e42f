import assert from "node:assert/strict";
import { test } from "node:test";
import { makeNode } from "../../testing/index.ts";
import {
  CycleState,
  NodeInfo,
  type PodSignature,
  success,
  unresolvable,
} from "../framework/index.ts";
import { BatchMemo } from "./batch-memo.ts";

const sigA: PodSignature = [{ key: "Resources", value: { cpu: 1000 } }];
const sigA2: PodSignature = [{ key: "Resources", value: { cpu: 1000 } }];
const sigB: PodSignature = [{ key: "Resources", value: { cpu: 2000 } }];

function started(signature: PodSignature, state = new CycleState()): BatchMemo {
  const memo = new BatchMemo();
  memo.startPod(signature);
  memo.beginFilter(state, 4);
  return memo;
}

function scoresAt(memo: BatchMemo, position: number, node: NodeInfo): number[] | undefined {
  const raw = new Float64Array(2);
  return memo.readScores(position, node, raw, 0, 1) ? [...raw] : undefined;
}

test("BatchMemo: answers are kept per position and node copy, for pods of the same signature", () => {
  const node = new NodeInfo(makeNode("n1").obj());
  const memo = started(sigA);
  assert.equal(memo.filterStatus(2, node), undefined);
  memo.recordFilter(2, node, success);
  memo.beginScore(new CycleState(), 2);
  memo.recordScores(2, node, Float64Array.of(7, 50), 0, 1);
  memo.startPod(sigA2);
  memo.beginFilter(new CycleState(), 4);
  memo.beginScore(new CycleState(), 2);
  assert.equal(memo.filterStatus(2, node), success);
  assert.deepEqual(scoresAt(memo, 2, node), [7, 50]);
  assert.equal(memo.hits, 1);
  assert.equal(memo.misses, 1);
  assert.equal(memo.filterStatus(2, node.clone()), undefined, "a copy of the node is not the same");
  assert.equal(memo.filterStatus(1, node), undefined, "nor is another position");
});

test("BatchMemo: scores are read and written with a stride (plugin-major buffers)", () => {
  const node = new NodeInfo(makeNode("n1").obj());
  const memo = started(sigA);
  memo.beginScore(new CycleState(), 2);
  // Three nodes, two plugins: raw[j * 3 + i]; node i = 1 scored 4 and 9.
  memo.recordScores(0, node, Float64Array.of(0, 4, 0, 0, 9, 0), 1, 3);
  const raw = new Float64Array(6);
  assert.equal(memo.readScores(0, node, raw, 2, 3), true);
  assert.deepEqual([...raw], [0, 0, 4, 0, 0, 9]);
});

test("BatchMemo: another signature drops every answer", () => {
  const node = new NodeInfo(makeNode("n1").obj());
  const memo = started(sigA);
  memo.recordFilter(0, node, unresolvable("no"));
  memo.startPod(sigB);
  memo.beginFilter(new CycleState(), 4);
  assert.equal(memo.filterStatus(0, node), undefined);
});

test("BatchMemo: other skipped plugins drop the answers they could change", () => {
  const node = new NodeInfo(makeNode("n1").obj());
  const memo = started(sigA);
  memo.beginScore(new CycleState(), 1);
  memo.recordFilter(0, node, success);
  memo.recordScores(0, node, Float64Array.of(1), 0, 1);
  const skippedScore = new CycleState();
  skippedScore.skipScorePlugins.add("NodeAffinity");
  memo.beginFilter(skippedScore, 4);
  memo.beginScore(skippedScore, 1);
  assert.equal(memo.filterStatus(0, node), success, "Filter answers stay: the same filters ran");
  assert.equal(scoresAt(memo, 0, node), undefined, "scores go: other Score plugins run");
  const skippedFilter = new CycleState();
  skippedFilter.skipFilterPlugins.add("NodePorts");
  memo.beginFilter(skippedFilter, 4);
  assert.equal(memo.filterStatus(0, node), undefined, "other Filter plugins run");
});

test("BatchMemo: clear forgets everything; with keep false nothing new is written", () => {
  const node = new NodeInfo(makeNode("n1").obj());
  const memo = started(sigA);
  memo.recordFilter(0, node, success);
  memo.clear();
  assert.equal(memo.startPod(sigA, false), false, "nothing to offer and nothing to keep");
  memo.startPod(sigA);
  memo.beginFilter(new CycleState(), 4);
  assert.equal(memo.filterStatus(0, node), undefined);
  memo.recordFilter(0, node, success);
  assert.equal(memo.startPod(sigA, false), true, "same signature: kept answers are read");
  memo.beginFilter(new CycleState(), 4);
  memo.recordFilter(1, node, success);
  assert.equal(memo.filterStatus(0, node), success);
  assert.equal(memo.filterStatus(1, node), undefined, "not written while not keeping");
});

test("BatchMemo: Filter answers need a signed pod first", () => {
  assert.throws(() => new BatchMemo().beginFilter(new CycleState(), 1), {
    name: "TypeError",
    message: "Cannot reuse Filter answers: no signed pod was started",
  });
});
