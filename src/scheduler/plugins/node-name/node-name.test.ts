import assert from "node:assert/strict";
import { test } from "node:test";
import { makeNode, makePod, minimalPlugins, newTestFramework } from "../../../testing/index.ts";
import { name } from "./node-name.ts";

test("NodeName.filter: only the named node fits", () => {
  const tf = newTestFramework({
    plugins: minimalPlugins(name),
    nodes: [makeNode("n1").obj(), makeNode("n2").obj()],
  });
  assert.deepEqual(tf.filter(makePod("p").nodeName("n2").obj()), {
    n1: "UnschedulableAndUnresolvable: node(s) didn't match the requested node name",
    n2: "Success",
  });
});

test("NodeName.filter: a pod that names no node fits every node", () => {
  const tf = newTestFramework({ plugins: minimalPlugins(name), nodes: [makeNode("n1").obj()] });
  assert.deepEqual(tf.filter(makePod("p").obj()), { n1: "Success" });
});
