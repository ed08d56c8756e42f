import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod, StatefulSet } from "../../api/index.ts";
import { makeStatefulSet, type PodFixtureState, setPodState } from "../../testing/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { newControllerRef } from "../framework/index.ts";
import { newStatefulSetPod, podNameLabel } from "./identity.ts";
import { planStatefulSet, type Revision, type StatefulSetPlan } from "./plan.ts";

const now = new Date("2024-06-01T12:00:00Z");
const old: Revision = {
  name: "web-old",
  template: makeStatefulSet("web").image("nginx:1").obj().spec.template,
};
const next: Revision = {
  name: "web-new",
  template: makeStatefulSet("web").image("nginx:2").obj().spec.template,
};

type State = PodFixtureState;

/** A pod of `set` at `ordinal`, created from `revision`, in `state`. */
function pod(
  set: DeepReadonly<StatefulSet>,
  ordinal: number,
  state: State,
  revision: Revision = next,
): Pod {
  const p = newStatefulSetPod(
    set,
    revision.template,
    ordinal,
    revision.name,
    newControllerRef(set, { apiVersion: "apps/v1", kind: "StatefulSet" }),
  );
  p.metadata.uid = `uid-${p.metadata.name ?? ""}`;
  return setPodState(p, state);
}

/** The plan as one line per step, grouped by phase. */
function describe(plan: StatefulSetPlan): string[][] {
  return plan.phases.map((phase) =>
    phase.map((step): string => {
      if (step.type === "create") {
        return `create ${step.pod.metadata.name}@${step.pod.metadata.labels?.["controller-revision-hash"]}`;
      }
      if (step.type === "delete") return `delete ${step.pod.metadata.name} (${step.cause})`;
      return `update ${step.pod.metadata.name}`;
    }),
  );
}

const web = makeStatefulSet("web");
const three = web.clone().replicas(3).obj();
const parallel = web.clone().replicas(3).podManagementPolicy("Parallel").obj();

interface Case {
  readonly name: string;
  readonly set: StatefulSet;
  readonly pods: (set: StatefulSet) => Pod[];
  readonly current?: Revision;
  readonly monotonic?: boolean;
  readonly want: string[][];
}

const cases: readonly Case[] = [
  {
    name: "OrderedReady creates only the lowest missing ordinal",
    set: three,
    pods: () => [],
    want: [["create web-0@web-new"]],
  },
  {
    name: "OrderedReady creates the next ordinal once its predecessors are Running and Ready",
    set: three,
    pods: (s) => [pod(s, 0, "ready")],
    want: [["create web-1@web-new"]],
  },
  {
    name: "OrderedReady waits for a Pending predecessor",
    set: three,
    pods: (s) => [pod(s, 0, "pending")],
    want: [[]],
  },
  {
    name: "OrderedReady waits for a Running predecessor that is not Ready",
    set: three,
    pods: (s) => [pod(s, 0, "running")],
    want: [[]],
  },
  {
    name: "OrderedReady waits for a terminating predecessor",
    set: three,
    pods: (s) => [pod(s, 0, "terminating")],
    want: [[]],
  },
  {
    name: "Parallel creates every missing ordinal at once",
    set: parallel,
    pods: () => [],
    monotonic: false,
    want: [["create web-0@web-new", "create web-1@web-new", "create web-2@web-new"], [], []],
  },
  {
    name: "Parallel creates past a predecessor that is not Ready",
    set: parallel,
    pods: (s) => [pod(s, 0, "pending")],
    monotonic: false,
    want: [["create web-1@web-new", "create web-2@web-new"], [], []],
  },
  {
    name: "a Failed pod is deleted to be recreated on a later sync",
    set: three,
    pods: (s) => [pod(s, 0, "ready"), pod(s, 1, "failed")],
    want: [["delete web-1 (finished)"]],
  },
  {
    name: "a Succeeded pod is deleted too",
    set: three,
    pods: (s) => [pod(s, 0, "succeeded")],
    want: [["delete web-0 (finished)"]],
  },
  {
    name: "OrderedReady scale down deletes the highest ordinal only",
    set: web.clone().replicas(1).obj(),
    pods: (s) => [pod(s, 0, "ready"), pod(s, 1, "ready"), pod(s, 2, "ready")],
    want: [[], ["delete web-2 (scaleDown)"]],
  },
  {
    name: "OrderedReady scale down waits while a higher ordinal terminates",
    set: web.clone().replicas(1).obj(),
    pods: (s) => [pod(s, 0, "ready"), pod(s, 1, "ready"), pod(s, 2, "terminating")],
    want: [[], []],
  },
  {
    name: "OrderedReady scale down deletes an unhealthy pod when it is the first unhealthy one",
    set: web.clone().replicas(1).obj(),
    pods: (s) => [pod(s, 0, "ready"), pod(s, 1, "pending")],
    want: [[], ["delete web-1 (scaleDown)"]],
  },
  {
    name: "OrderedReady scale down deletes a healthy highest ordinal above an unhealthy one",
    set: web.clone().replicas(1).obj(),
    pods: (s) => [pod(s, 0, "ready"), pod(s, 1, "pending"), pod(s, 2, "ready")],
    want: [[], ["delete web-2 (scaleDown)"]],
  },
  {
    name: "OrderedReady scale down blocks on an unhealthy pod that is not the first unhealthy one",
    set: web.clone().replicas(1).obj(),
    pods: (s) => [pod(s, 0, "ready"), pod(s, 1, "pending"), pod(s, 2, "pending")],
    want: [[], []],
  },
  {
    name: "Parallel scale down deletes every condemned pod, highest first",
    set: web.clone().replicas(1).podManagementPolicy("Parallel").obj(),
    pods: (s) => [pod(s, 0, "ready"), pod(s, 1, "pending"), pod(s, 2, "ready")],
    monotonic: false,
    want: [[], ["delete web-2 (scaleDown)", "delete web-1 (scaleDown)"], []],
  },
  {
    name: "RollingUpdate deletes the highest ordinal not at the update revision",
    set: three,
    pods: (s) => [pod(s, 0, "ready", old), pod(s, 1, "ready", old), pod(s, 2, "ready", old)],
    current: old,
    want: [[], [], ["delete web-2 (update)"]],
  },
  {
    name: "RollingUpdate waits for the updated pod to become Ready before the next",
    set: three,
    pods: (s) => [pod(s, 0, "ready", old), pod(s, 1, "ready", old), pod(s, 2, "running")],
    current: old,
    want: [[]],
  },
  {
    name: "RollingUpdate continues below an updated, Ready pod",
    set: three,
    pods: (s) => [pod(s, 0, "ready", old), pod(s, 1, "ready", old), pod(s, 2, "ready")],
    current: old,
    want: [[], [], ["delete web-1 (update)"]],
  },
  {
    name: "RollingUpdate stops at the partition",
    set: web.clone().replicas(3).partition(2).obj(),
    pods: (s) => [pod(s, 0, "ready", old), pod(s, 1, "ready", old), pod(s, 2, "ready")],
    current: old,
    want: [[], [], []],
  },
  {
    name: "a missing pod below the partition is recreated at the current revision",
    set: web.clone().replicas(3).partition(2).obj(),
    pods: (s) => [pod(s, 1, "ready", old), pod(s, 2, "ready")],
    current: old,
    want: [["create web-0@web-old"]],
  },
  {
    name: "OnDelete never deletes pods of an old revision",
    set: web.clone().replicas(3).onDelete().obj(),
    pods: (s) => [pod(s, 0, "ready", old), pod(s, 1, "ready", old), pod(s, 2, "ready", old)],
    current: old,
    want: [[], []],
  },
  {
    name: "OnDelete recreates a deleted pod at the update revision",
    set: web.clone().replicas(3).onDelete().obj(),
    pods: (s) => [pod(s, 0, "ready", old), pod(s, 2, "ready", old)],
    current: old,
    want: [["create web-1@web-new"]],
  },
  {
    name: "a pod whose identity label was removed is updated",
    set: three,
    pods: (s) => {
      const p = pod(s, 0, "ready");
      delete p.metadata.labels?.[podNameLabel];
      return [p, pod(s, 1, "ready"), pod(s, 2, "ready")];
    },
    want: [["update web-0"], [], []],
  },
  {
    name: "a set being deleted gets no steps",
    set: web.clone().replicas(3).terminating().obj(),
    pods: () => [],
    want: [],
  },
  {
    name: "spec.ordinals.start shifts the names",
    set: web.clone().replicas(2).startOrdinal(5).obj(),
    pods: (s) => [pod(s, 5, "ready")],
    want: [["create web-6@web-new"]],
  },
];

for (const c of cases) {
  test(`planStatefulSet: ${c.name}`, () => {
    const plan = planStatefulSet({
      set: c.set,
      pods: c.pods(c.set),
      current: c.current ?? next,
      update: next,
      controllerRef: newControllerRef(c.set, { apiVersion: "apps/v1", kind: "StatefulSet" }),
      now,
    });
    assert.deepEqual(
      { monotonic: plan.monotonic, steps: describe(plan) },
      { monotonic: c.monotonic ?? true, steps: c.want },
    );
  });
}

test("planStatefulSet: counts pods in range and condemned, and not those created by the plan", () => {
  const set = web.clone().replicas(2).obj();
  const plan = planStatefulSet({
    set,
    pods: [pod(set, 0, "ready", old), pod(set, 2, "pending"), pod(set, 3, "terminating")],
    current: old,
    update: next,
    controllerRef: newControllerRef(set, { apiVersion: "apps/v1", kind: "StatefulSet" }),
    now,
  });
  assert.deepEqual(plan.counts, {
    replicas: 3,
    readyReplicas: 2,
    availableReplicas: 2,
    currentReplicas: 1,
    updatedReplicas: 1,
  });
});
