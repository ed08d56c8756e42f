import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import { isPodActive, isPodAvailable, podDeletionCost, podsToDelete } from "./pods.ts";

const now = new Date("2024-01-01T12:00:00Z");

const ready = (since: string) =>
  ({ type: "Ready", status: "True", lastTransitionTime: since }) as const;

const running = (name: string) =>
  makePod(name).nodeName("n1").phase("Running").condition(ready("2024-01-01T00:00:00Z"));

const deletionCases: readonly { name: string; pods: readonly Pod[]; want: string }[] = [
  {
    name: "unassigned pods go before assigned ones",
    pods: [running("a").obj(), makePod("b").phase("Pending").obj()],
    want: "b",
  },
  {
    name: "Pending before Unknown before Running",
    pods: [
      running("a").obj(),
      makePod("b").nodeName("n1").phase("Unknown").obj(),
      makePod("c").nodeName("n1").phase("Pending").obj(),
    ],
    want: "c",
  },
  {
    name: "not ready before ready",
    pods: [running("a").obj(), makePod("b").nodeName("n1").phase("Running").obj()],
    want: "b",
  },
  {
    name: "a lower pod-deletion-cost goes first",
    pods: [
      running("a").annotation("controller.kubernetes.io/pod-deletion-cost", "10").obj(),
      running("b").annotation("controller.kubernetes.io/pod-deletion-cost", "-5").obj(),
    ],
    want: "b",
  },
  {
    name: "a pod doubled up with related pods on its node goes first",
    pods: [running("a").nodeName("n2").obj(), running("b").obj()],
    want: "b",
  },
  {
    name: "the pod ready for less time goes first (log scale)",
    pods: [running("a").obj(), running("b").condition(ready("2024-01-01T11:59:00Z")).obj()],
    want: "b",
  },
  {
    name: "more restarts go first",
    pods: [
      running("a").obj(),
      (() => {
        const p = running("b").obj();
        p.status = {
          ...p.status,
          containerStatuses: [
            { name: "c", ready: true, restartCount: 3, image: "pause", imageID: "" },
          ],
        };
        return p;
      })(),
    ],
    want: "b",
  },
  {
    name: "the newer pod goes first",
    pods: [
      running("a").creationTimestamp("2023-01-01T00:00:00Z").obj(),
      running("b").creationTimestamp("2024-01-01T11:00:00Z").obj(),
    ],
    want: "b",
  },
];

for (const c of deletionCases) {
  test(`podsToDelete: ${c.name}`, () => {
    const related = [...c.pods, running("x").obj()];
    const got = podsToDelete(c.pods, related, 1, now);
    assert.deepEqual(
      got.map((p) => p.metadata.name),
      [c.want],
    );
  });
}

test("podsToDelete: all pods when every one goes", () => {
  const pods = [running("a").obj(), running("b").obj()];
  assert.deepEqual(
    podsToDelete(pods, pods, 5, now).map((p) => p.metadata.name),
    ["a", "b"],
  );
});

const availableCases = [
  { name: "not ready is never available", pod: makePod("p").obj(), min: 0, want: false },
  { name: "ready with minReadySeconds 0", pod: running("p").obj(), min: 0, want: true },
  {
    name: "ready long enough",
    pod: running("p").condition(ready("2024-01-01T11:59:00Z")).obj(),
    min: 30,
    want: true,
  },
  {
    name: "ready exactly minReadySeconds ago is not yet available",
    pod: running("p").condition(ready("2024-01-01T11:59:30Z")).obj(),
    min: 30,
    want: false,
  },
] as const;

for (const c of availableCases) {
  test(`isPodAvailable: ${c.name}`, () => {
    assert.equal(isPodAvailable(c.pod, c.min, now), c.want);
  });
}

test("isPodActive: terminal and terminating pods are not active", () => {
  assert.deepEqual(
    [
      isPodActive(makePod("a").obj()),
      isPodActive(makePod("b").phase("Failed").obj()),
      isPodActive(makePod("c").terminating().obj()),
    ],
    [true, false, false],
  );
});

const costCases = [
  ["-5", -5],
  ["0", 0],
  ["+5", 0],
  ["007", 0],
  ["2147483648", 0],
  ["x", 0],
] as const;

for (const [value, want] of costCases) {
  test(`podDeletionCost: ${JSON.stringify(value)} is ${want}`, () => {
    const pod = makePod("p").annotation("controller.kubernetes.io/pod-deletion-cost", value).obj();
    assert.equal(podDeletionCost(pod), want);
  });
}
