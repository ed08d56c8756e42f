import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addUsage,
  exceededResources,
  maskUsage,
  negativeResources,
  printUsage,
  removeZeros,
  resourceListOf,
  subtractNonNegative,
  usageEquals,
  usageOf,
} from "./quota-usage.ts";

test("addUsage: exact sums; a zero takes the other side's format", () => {
  const sum = addUsage(
    usageOf({ cpu: "0", memory: "0" }),
    usageOf({ cpu: "250m", memory: "512Mi" }),
  );
  assert.deepEqual(
    resourceListOf(addUsage(sum, usageOf({ cpu: "750m", memory: "512Mi", pods: "1" }))),
    {
      cpu: "1",
      memory: "1Gi",
      pods: "1",
    },
  );
});

test("subtractNonNegative: never below zero, keys of both sides", () => {
  const diff = subtractNonNegative(
    usageOf({ cpu: "1", pods: "1" }),
    usageOf({ cpu: "2", memory: "1Gi" }),
  );
  assert.equal(printUsage(diff), "cpu=0,memory=0,pods=1");
  assert.equal(printUsage(removeZeros(diff)), "pods=1");
});

test("exceededResources, maskUsage, negativeResources, usageEquals", () => {
  const used = usageOf({ cpu: "1500m", pods: "2", memory: "1Gi" });
  const hard = usageOf({ cpu: "2", pods: "1" });
  assert.deepEqual(exceededResources(used, hard), ["pods"]);
  assert.equal(printUsage(maskUsage(used, ["pods", "nope"])), "pods=2");
  assert.deepEqual(negativeResources(usageOf({ cpu: "-1", pods: "1" })), ["cpu"]);
  assert.equal(usageEquals(usageOf({ cpu: "1000m" }), usageOf({ cpu: "1" })), true);
  assert.equal(usageEquals(usageOf({ cpu: "1" }), usageOf({ cpu: "1", pods: "0" })), false);
});
