import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod, PodGroup, Workload } from "../../../api/index.ts";
import {
  makePod,
  makePodGroup,
  makeWorkload,
  minimalPlugins,
  newTestFramework,
} from "../../../testing/index.ts";
import { memberAddedHint, name, podGroupAddedHint, workloadAddedHint } from "./gang-scheduling.ts";

const workload = makeWorkload("train")
  .template("worker", 2)
  .group("legacy", 2)
  .group("solo", "basic");
const pg = makePodGroup("train-0", "train", "worker");
const member = (n: string) => makePod(n).podGroup("train", "train-0").obj();
const legacy = (n: string, key?: string) => makePod(n).workloadGroup("train", "legacy", key).obj();

interface Case {
  readonly name: string;
  readonly pod: Pod;
  readonly others?: readonly Pod[];
  readonly workloads?: readonly Workload[];
  readonly podGroups?: readonly PodGroup[];
  readonly want: string;
}

const cases: readonly Case[] = [
  { name: "a pod without workloadRef may enter", pod: makePod("p").obj(), want: "Success" },
  {
    name: "a missing PodGroup keeps the pod waiting with upstream's 1.36 message",
    pod: member("a"),
    others: [member("b")],
    workloads: [workload.obj()],
    want: 'UnschedulableAndUnresolvable: waiting for pods\'s pod group "train-0" to appear in scheduling queue',
  },
  {
    name: "a missing Workload keeps the pod waiting with upstream's message",
    pod: member("a"),
    others: [member("b")],
    podGroups: [pg.obj()],
    want: 'UnschedulableAndUnresolvable: waiting for pods\'s workload "train" to appear in scheduling queue',
  },
  {
    name: "a PodGroup of another Workload keeps the pod waiting",
    pod: makePod("a").podGroup("other", "train-0").obj(),
    workloads: [workload.obj()],
    podGroups: [pg.obj()],
    want: 'UnschedulableAndUnresolvable: pod group "train-0" belongs to workload "train", not to the pod\'s workload "other"',
  },
  {
    name: "a missing template keeps the pod waiting",
    pod: member("a"),
    workloads: [workload.obj()],
    podGroups: [makePodGroup("train-0", "train", "nope").obj()],
    want: 'UnschedulableAndUnresolvable: pod group template "nope" doesn\'t exist for a workload "train"',
  },
  {
    name: "a legacy group missing from the Workload keeps the pod waiting with upstream's 1.35 message",
    pod: makePod("a").workloadGroup("train", "ghost").obj(),
    workloads: [workload.obj()],
    want: 'UnschedulableAndUnresolvable: pod group "ghost" doesn\'t exist for a workload "train"',
  },
  {
    name: "fewer members than minCount wait for the gang",
    pod: member("a"),
    workloads: [workload.obj()],
    podGroups: [pg.obj()],
    want: "UnschedulableAndUnresolvable: waiting for minCount pods from a gang to appear in scheduling queue",
  },
  {
    name: "minCount members (bound ones count) let the pod in",
    pod: member("a"),
    others: [makePod("b").podGroup("train", "train-0").nodeName("n1").obj()],
    workloads: [workload.obj()],
    podGroups: [pg.obj()],
    want: "Success",
  },
  {
    name: "legacy replica keys are separate gangs",
    pod: legacy("a", "0"),
    others: [legacy("b", "1")],
    workloads: [workload.obj()],
    want: "UnschedulableAndUnresolvable: waiting for minCount pods from a gang to appear in scheduling queue",
  },
  {
    name: "a complete legacy replica may enter",
    pod: legacy("a", "0"),
    others: [legacy("b", "0")],
    workloads: [workload.obj()],
    want: "Success",
  },
  {
    name: "a basic group schedules pod by pod",
    pod: makePod("a").workloadGroup("train", "solo").obj(),
    workloads: [workload.obj()],
    want: "Success",
  },
];

for (const c of cases) {
  test(`GangScheduling.preEnqueue: ${c.name}`, () => {
    const tf = newTestFramework({
      plugins: minimalPlugins(name),
      pods: [c.pod, ...(c.others ?? [])],
      workloads: c.workloads ?? [],
      podGroups: c.podGroups ?? [],
    });
    const { status } = tf.framework.runPreEnqueuePlugins(c.pod);
    const got =
      status.code === "Success" ? "Success" : `${status.code}: ${status.reasons.join(", ")}`;
    assert.equal(got, c.want);
  });
}

const hintCases = [
  {
    name: "PodGroup add: the pod's own PodGroup queues it",
    hint: podGroupAddedHint,
    pod: member("a"),
    obj: pg.obj(),
    want: "Queue",
  },
  {
    name: "PodGroup add: another PodGroup is skipped",
    hint: podGroupAddedHint,
    pod: member("a"),
    obj: makePodGroup("train-1", "train").obj(),
    want: "QueueSkip",
  },
  {
    name: "PodGroup add: the same name in another namespace is skipped",
    hint: podGroupAddedHint,
    pod: member("a"),
    obj: pg.clone().namespace("other").obj(),
    want: "QueueSkip",
  },
  {
    name: "Workload add: the pod's Workload queues it",
    hint: workloadAddedHint,
    pod: legacy("a"),
    obj: workload.obj(),
    want: "Queue",
  },
  {
    name: "Workload add: another Workload is skipped",
    hint: workloadAddedHint,
    pod: legacy("a"),
    obj: makeWorkload("other").obj(),
    want: "QueueSkip",
  },
  {
    name: "Pod add: a new member of the same gang queues it",
    hint: memberAddedHint,
    pod: member("a"),
    obj: member("b"),
    want: "Queue",
  },
  {
    name: "Pod add: a member of another replica is skipped",
    hint: memberAddedHint,
    pod: legacy("a", "0"),
    obj: legacy("b", "1"),
    want: "QueueSkip",
  },
  {
    name: "Pod add: a pod outside any gang is skipped",
    hint: memberAddedHint,
    pod: member("a"),
    obj: makePod("b").obj(),
    want: "QueueSkip",
  },
] as const;

for (const c of hintCases) {
  test(`GangScheduling.eventsToRegister: ${c.name}`, () => {
    assert.equal(c.hint(c.pod, undefined, c.obj), c.want);
  });
}

test("GangScheduling.eventsToRegister: registers PodGroup, Workload and Pod adds", () => {
  const tf = newTestFramework({ plugins: minimalPlugins(name) });
  const events = tf.framework.eventsToRegister.get(name)?.map((e) => e.event) ?? [];
  assert.deepEqual(events, [
    { resource: "PodGroup", actionType: 1 },
    { resource: "Workload", actionType: 1 },
    { resource: "Pod", actionType: 1 },
  ]);
});
