import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { makeJob, makePod } from "../../testing/index.ts";
import { activePodsForRemoval, wantActive } from "./manage.ts";

const now = new Date("2024-06-01T12:00:00Z");

const wantCases = [
  {
    name: "parallelism when completions are far",
    job: makeJob("j").completions(10).parallelism(3),
    active: 0,
    succeeded: 2,
    want: 3,
  },
  {
    name: "the completions left when fewer than parallelism",
    job: makeJob("j").completions(5).parallelism(3),
    active: 3,
    succeeded: 4,
    want: 1,
  },
  {
    name: "never negative",
    job: makeJob("j").completions(2).parallelism(3),
    active: 1,
    succeeded: 3,
    want: 0,
  },
  {
    name: "no completions: parallelism before any success",
    job: makeJob("j").completions(undefined).parallelism(4),
    active: 1,
    succeeded: 0,
    want: 4,
  },
  {
    name: "no completions: what still runs after a success",
    job: makeJob("j").completions(undefined).parallelism(4),
    active: 2,
    succeeded: 1,
    want: 2,
  },
] as const;

for (const c of wantCases) {
  test(`wantActive: ${c.name}`, () => {
    assert.equal(wantActive(c.job.obj(), c.active, c.succeeded), c.want);
  });
}

const pod = (name: string, state: "pending" | "ready", index?: string): Pod => {
  let b = makePod(name).creationTimestamp("2024-06-01T11:00:00Z");
  if (index !== undefined) b = b.annotation("batch.kubernetes.io/job-completion-index", index);
  if (state === "ready") {
    b = b.nodeName("n1").phase("Running").condition({
      type: "Ready",
      status: "True",
      lastTransitionTime: "2024-06-01T11:30:00Z",
    });
  } else {
    b = b.phase("Pending");
  }
  return b.obj();
};

const removalCases = [
  {
    name: "pods least far along go first",
    job: makeJob("j"),
    pods: [pod("a", "ready"), pod("b", "pending"), pod("c", "ready")],
    atLeast: 1,
    want: ["b"],
  },
  {
    name: "nothing to remove",
    job: makeJob("j"),
    pods: [pod("a", "ready")],
    atLeast: 0,
    want: [],
  },
  {
    name: "Indexed: duplicates and out-of-range indexes go even when none must",
    job: makeJob("j").indexed().completions(3),
    pods: [
      pod("a", "ready", "0"),
      pod("b", "pending", "0"),
      pod("c", "ready", "7"),
      pod("d", "ready", "1"),
    ],
    atLeast: 0,
    want: ["c", "b"],
  },
] as const;

for (const c of removalCases) {
  test(`activePodsForRemoval: ${c.name}`, () => {
    const got = activePodsForRemoval(c.job.obj(), c.pods, c.atLeast, now);
    assert.deepEqual(
      got.map((p) => p.metadata.name),
      c.want,
    );
  });
}
