import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type ContentDeletionResult,
  computeNamespaceConditions,
  type NamespaceCondition,
  remainingRequeueMs,
} from "./conditions.ts";

const now = new Date("2024-01-01T00:00:10Z");
const clean: ContentDeletionResult = {
  discoveryErrors: [],
  deleteErrors: [],
  remaining: new Map(),
  finalizersRemaining: new Map(),
};

const summary = (conditions: NamespaceCondition[] | undefined) =>
  conditions?.map((c) => `${c.type}=${c.status}/${c.reason}: ${c.message}`);

test("computeNamespaceConditions: a clean pass writes the five ok conditions", () => {
  assert.deepEqual(summary(computeNamespaceConditions(undefined, clean, now)), [
    "NamespaceDeletionDiscoveryFailure=False/ResourcesDiscovered: All resources successfully discovered",
    "NamespaceDeletionGroupVersionParsingFailure=False/ParsedGroupVersions: All legacy kube types successfully parsed",
    "NamespaceDeletionContentFailure=False/ContentDeleted: All content successfully deleted, may be waiting on finalization",
    "NamespaceContentRemaining=False/ContentRemoved: All content successfully removed",
    "NamespaceFinalizersRemaining=False/ContentHasNoFinalizers: All content-preserving finalizers finished",
  ]);
});

test("computeNamespaceConditions: remaining content and finalizers in upstream's words", () => {
  const result: ContentDeletionResult = {
    ...clean,
    remaining: new Map([
      ["pods.", 2],
      ["widgets.example.com", 1],
    ]),
    finalizersRemaining: new Map([["example.com/keep", 1]]),
    deleteErrors: ['widgets.example.com is forbidden: "x"'],
  };
  const got = summary(computeNamespaceConditions(undefined, result, now))?.slice(2);
  assert.deepEqual(got, [
    'NamespaceDeletionContentFailure=True/ContentDeletionFailed: Failed to delete all resource types, 1 remaining: widgets.example.com is forbidden: "x"',
    "NamespaceContentRemaining=True/SomeResourcesRemain: Some resources are remaining: pods. has 2 resource instances, widgets.example.com has 1 resource instances",
    "NamespaceFinalizersRemaining=True/SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/keep in 1 resource instances",
  ]);
});

test("computeNamespaceConditions: nothing changes on a repeated pass", () => {
  const first = computeNamespaceConditions(undefined, clean, now);
  assert.equal(
    computeNamespaceConditions(first, clean, new Date("2024-01-02T00:00:00Z")),
    undefined,
  );
});

test("computeNamespaceConditions: a status change moves lastTransitionTime, a message change does not", () => {
  const remaining = (n: number): ContentDeletionResult => ({
    ...clean,
    remaining: new Map([["pods.", n]]),
  });
  const first = computeNamespaceConditions(undefined, remaining(2), now);
  const later = new Date("2024-01-01T00:01:00Z");
  const second = computeNamespaceConditions(first, remaining(1), later);
  const third = computeNamespaceConditions(second, clean, later);
  const times = [first, second, third].map(
    (list) => list?.find((c) => c.type === "NamespaceContentRemaining")?.lastTransitionTime,
  );
  assert.deepEqual(times, ["2024-01-01T00:00:10Z", "2024-01-01T00:00:10Z", "2024-01-01T00:01:00Z"]);
});

test("remainingRequeueMs: half the estimate plus a second", () => {
  assert.deepEqual(
    [remainingRequeueMs(30), remainingRequeueMs(15), remainingRequeueMs(0)],
    [16000, 8000, 1000],
  );
});
