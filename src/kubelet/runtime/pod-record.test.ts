import assert from "node:assert/strict";
import test from "node:test";
import type { Pod, RestartPolicy } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import { rfc3339 } from "../../util/index.ts";
import { podPlan } from "./plan.ts";
import {
  advancePod,
  type ContainerRecord,
  forceTerminal,
  newPodRecord,
  nextWakeAt,
  type PodRecord,
  replaceContainerPlans,
  requestStop,
} from "./pod-record.ts";
import { renderPodStatus } from "./pod-status.ts";

const t0 = Date.parse("2026-01-01T00:00:00Z");
const s = (seconds: number): number => t0 + seconds * 1000;

function podWith(
  options: {
    annotations?: Record<string, string>;
    restartPolicy?: RestartPolicy;
    init?: { name: string; sidecar?: boolean }[];
    readinessDelaySeconds?: number;
  } = {},
): Pod {
  const builder = makePod("p").namespace("ns").uid("uid-1");
  for (const [k, v] of Object.entries(options.annotations ?? {})) builder.annotation(k, v);
  for (const init of options.init ?? []) {
    builder.initContainer({}, { name: init.name, sidecar: init.sidecar === true });
  }
  const pod = builder.obj();
  pod.spec.containers = [{ name: "app", image: "pause" }];
  pod.spec.restartPolicy = options.restartPolicy ?? "Always";
  const app = pod.spec.containers[0];
  if (app !== undefined && options.readinessDelaySeconds !== undefined) {
    app.readinessProbe = { initialDelaySeconds: options.readinessDelaySeconds };
  }
  return pod;
}

function describeContainer(c: ContainerRecord): string {
  const restarts = c.restartCount > 0 ? `#${c.restartCount}` : "";
  switch (c.state.kind) {
    case "waiting":
      return `${c.plan.name}=waiting${restarts}`;
    case "backoff":
      return `${c.plan.name}=backoff(${c.backoff.delayMs / 1000}s)${restarts}`;
    case "running":
      return `${c.plan.name}=running${restarts}`;
    case "terminated":
      return `${c.plan.name}=exited(${c.state.terminated.exitCode})${restarts}`;
  }
}

/** "Running Ready=True app=running" at `now`. */
function summary(pod: Pod, record: PodRecord, now: number): string {
  const status = renderPodStatus(pod, record, {
    now,
    hostIP: "127.0.0.1",
    podIP: "10.0.0.2",
    startTime: rfc3339(new Date(t0)),
  });
  const ready = status.conditions?.find((c) => c.type === "Ready")?.status;
  return [status.phase, `Ready=${ready}`, ...record.containers.map(describeContainer)].join(" ");
}

type Action = "delete" | "fail-externally";

interface Step {
  readonly at: number;
  readonly action?: Action;
  readonly want: string;
}

const cases: readonly {
  name: string;
  pod: Pod;
  startDelayMs?: number;
  steps: readonly Step[];
}[] = [
  {
    name: "a plain pod runs at once and stays running",
    pod: podWith(),
    steps: [
      { at: 0, want: "Running Ready=True app=running" },
      { at: 3600, want: "Running Ready=True app=running" },
    ],
  },
  {
    name: "a start delay keeps containers creating until it passes",
    pod: podWith(),
    startDelayMs: 2000,
    steps: [
      { at: 1, want: "Pending Ready=False app=waiting" },
      { at: 2, want: "Running Ready=True app=running" },
    ],
  },
  {
    name: "run-for with restartPolicy Never succeeds when the time is up",
    pod: podWith({ annotations: { "gantry.dev/run-for": "30s" }, restartPolicy: "Never" }),
    steps: [
      { at: 29, want: "Running Ready=True app=running" },
      { at: 30, want: "Succeeded Ready=False app=exited(0)" },
    ],
  },
  {
    name: "exit-code 1 with restartPolicy Never fails",
    pod: podWith({
      annotations: { "gantry.dev/run-for": "5s", "gantry.dev/exit-code": "1" },
      restartPolicy: "Never",
    }),
    steps: [{ at: 5, want: "Failed Ready=False app=exited(1)" }],
  },
  {
    name: "a crashing container restarts at once, then backs off 10s, 20s, 40s",
    pod: podWith({ annotations: { "gantry.dev/exit-code": "1" }, restartPolicy: "OnFailure" }),
    steps: [
      { at: 0, want: "Running Ready=False app=backoff(10s)#1" },
      { at: 9, want: "Running Ready=False app=backoff(10s)#1" },
      { at: 10, want: "Running Ready=False app=backoff(20s)#2" },
      { at: 30, want: "Running Ready=False app=backoff(40s)#3" },
      { at: 70, want: "Running Ready=False app=backoff(80s)#4" },
    ],
  },
  {
    name: "OnFailure does not restart a container that exits 0",
    pod: podWith({ annotations: { "gantry.dev/run-for": "1s" }, restartPolicy: "OnFailure" }),
    steps: [{ at: 1, want: "Succeeded Ready=False app=exited(0)" }],
  },
  {
    name: "Always restarts a container that completed",
    pod: podWith({ annotations: { "gantry.dev/run-for": "5s" } }),
    steps: [
      { at: 5, want: "Running Ready=True app=running#1" },
      { at: 10, want: "Running Ready=False app=backoff(10s)#1" },
      { at: 20, want: "Running Ready=True app=running#2" },
    ],
  },
  {
    name: "init containers run in order before the app",
    pod: podWith({
      init: [{ name: "migrate" }, { name: "warm" }],
      annotations: { "gantry.dev/run-for.warm": "5s" },
    }),
    steps: [
      { at: 0, want: "Pending Ready=False migrate=exited(0) warm=running app=waiting" },
      { at: 5, want: "Running Ready=True migrate=exited(0) warm=exited(0) app=running" },
    ],
  },
  {
    name: "a failing init container fails a Never pod without starting the app",
    pod: podWith({
      init: [{ name: "migrate" }],
      annotations: { "gantry.dev/exit-code.migrate": "2" },
      restartPolicy: "Never",
    }),
    steps: [{ at: 0, want: "Failed Ready=False migrate=exited(2) app=waiting" }],
  },
  {
    name: "a failing init container of an Always pod backs off and keeps the pod Pending",
    pod: podWith({
      init: [{ name: "migrate" }],
      annotations: { "gantry.dev/exit-code.migrate": "2" },
    }),
    steps: [{ at: 0, want: "Pending Ready=False migrate=backoff(10s)#1 app=waiting" }],
  },
  {
    name: "a sidecar runs beside the app and stops cleanly when the app completes",
    pod: podWith({
      init: [{ name: "proxy", sidecar: true }],
      annotations: { "gantry.dev/run-for": "10s" },
      restartPolicy: "Never",
    }),
    steps: [
      { at: 0, want: "Running Ready=True proxy=running app=running" },
      { at: 10, want: "Succeeded Ready=False proxy=exited(0) app=exited(0)" },
    ],
  },
  {
    name: "deletion stops containers after the stop delay with SIGTERM's exit code",
    pod: podWith(),
    steps: [
      { at: 3, action: "delete", want: "Running Ready=True app=running" },
      { at: 4, want: "Failed Ready=False app=exited(143)" },
    ],
  },
  {
    name: "deletion before the sandbox is up never starts the containers",
    pod: podWith(),
    startDelayMs: 5000,
    steps: [
      { at: 1, action: "delete", want: "Pending Ready=False app=waiting" },
      { at: 2, want: "Failed Ready=False app=waiting" },
    ],
  },
  {
    name: "a terminal phase written by someone else is kept while containers stop",
    pod: podWith(),
    steps: [
      { at: 5, action: "fail-externally", want: "Failed Ready=False app=running" },
      { at: 6, want: "Failed Ready=False app=exited(143)" },
    ],
  },
  {
    name: "a readiness probe's initial delay holds Ready back",
    pod: podWith({ readinessDelaySeconds: 5 }),
    steps: [
      { at: 4, want: "Running Ready=False app=running" },
      { at: 5, want: "Running Ready=True app=running" },
    ],
  },
];

for (const c of cases) {
  test(`advancePod: ${c.name}`, () => {
    const plan = podPlan(c.pod, { startDelayMs: c.startDelayMs ?? 0, stopDelayMs: 1000 });
    let record = newPodRecord(plan, c.pod.spec.restartPolicy ?? "Always", t0);
    const got: string[] = [];
    for (const step of c.steps) {
      const now = s(step.at);
      record = advancePod(record, now);
      if (step.action === "delete") record = advancePod(requestStop(record, now + 1000), now);
      if (step.action === "fail-externally") {
        record = advancePod(forceTerminal(record, "Failed", now + 1000), now);
      }
      got.push(`${step.at}s ${summary(c.pod, record, now)}`);
    }
    assert.deepEqual(
      got,
      c.steps.map((step) => `${step.at}s ${step.want}`),
    );
  });
}

test("nextWakeAt: the next exit, restart or probe time, and nothing once finished", () => {
  const pod = podWith({ annotations: { "gantry.dev/run-for": "30s" }, restartPolicy: "Never" });
  const plan = podPlan(pod, { startDelayMs: 2000, stopDelayMs: 1000 });
  let record = newPodRecord(plan, "Never", t0);
  const wakes: (number | undefined)[] = [];
  for (const now of [s(0), s(2), s(32)]) {
    record = advancePod(record, now);
    const next = nextWakeAt(record, now);
    wakes.push(next === undefined ? undefined : (next - t0) / 1000);
  }
  assert.deepEqual(wakes, [2, 32, undefined]);
});

test("renderPodStatus: container statuses carry images, ids, and upstream's waiting reasons", () => {
  const pod = podWith({
    init: [{ name: "migrate" }],
    annotations: { "gantry.dev/run-for.migrate": "5s" },
  });
  const plan = podPlan(pod, { startDelayMs: 0, stopDelayMs: 1000 });
  const record = advancePod(newPodRecord(plan, "Always", t0), s(1));
  const status = renderPodStatus(pod, record, {
    now: s(1),
    hostIP: "127.0.0.1",
    podIP: "10.0.0.2",
    startTime: rfc3339(new Date(t0)),
  });
  const init = status.initContainerStatuses?.[0];
  assert.deepEqual(
    {
      phase: status.phase,
      initState: init?.state,
      image: init?.image,
      imageIdPrefix: init?.imageID.slice(0, "docker.io/library/pause@sha256:".length),
      containerIdLength: init?.containerID?.length,
      app: status.containerStatuses?.[0]?.state,
      conditions: status.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
      ips: [status.hostIP, status.podIP],
    },
    {
      phase: "Pending",
      initState: { running: { startedAt: "2026-01-01T00:00:00Z" } },
      image: "docker.io/library/pause:latest",
      imageIdPrefix: "docker.io/library/pause@sha256:",
      containerIdLength: "containerd://".length + 64,
      app: { waiting: { reason: "PodInitializing" } },
      conditions: [
        ["PodReadyToStartContainers", "True", undefined, undefined],
        [
          "Initialized",
          "False",
          "ContainersNotInitialized",
          "containers with incomplete status: [migrate]",
        ],
        ["Ready", "False", "ContainersNotReady", "containers with unready status: [app]"],
        ["ContainersReady", "False", "ContainersNotReady", "containers with unready status: [app]"],
        ["PodScheduled", "True", undefined, undefined],
      ],
      ips: ["127.0.0.1", "10.0.0.2"],
    },
  );
});

test("renderPodStatus: the CrashLoopBackOff message names the delay, container and pod", () => {
  const pod = podWith({ annotations: { "gantry.dev/exit-code": "1" } });
  const plan = podPlan(pod, { startDelayMs: 0, stopDelayMs: 1000 });
  const record = advancePod(newPodRecord(plan, "Always", t0), s(0));
  const status = renderPodStatus(pod, record, {
    now: s(0),
    hostIP: "127.0.0.1",
    podIP: "10.0.0.2",
    startTime: rfc3339(new Date(t0)),
  });
  const app = status.containerStatuses?.[0];
  assert.deepEqual(
    { state: app?.state, last: app?.lastState?.terminated?.reason, restarts: app?.restartCount },
    {
      state: {
        waiting: {
          reason: "CrashLoopBackOff",
          message: "back-off 10s restarting failed container=app pod=p_ns(uid-1)",
        },
      },
      last: "Error",
      restarts: 1,
    },
  );
});

test("renderPodStatus: readiness gates hold Ready back with upstream's messages", () => {
  const pod = podWith();
  pod.spec.readinessGates = [
    { conditionType: "example.com/lb" },
    { conditionType: "example.com/dns" },
  ];
  pod.status = {
    conditions: [
      { type: "example.com/dns", status: "False", lastTransitionTime: "2026-01-01T00:00:00Z" },
    ],
  };
  const plan = podPlan(pod, { startDelayMs: 0, stopDelayMs: 1000 });
  const record = advancePod(newPodRecord(plan, "Always", t0), s(1));
  const status = renderPodStatus(pod, record, {
    now: s(1),
    hostIP: "127.0.0.1",
    podIP: undefined,
    startTime: rfc3339(new Date(t0)),
  });
  assert.deepEqual(
    status.conditions?.map((c) => [c.type, c.status, c.message]),
    [
      ["example.com/dns", "False", undefined],
      ["PodReadyToStartContainers", "True", undefined],
      ["Initialized", "True", undefined],
      [
        "Ready",
        "False",
        'corresponding condition of pod readiness gate "example.com/lb" does not exist., the status of pod readiness gate "example.com/dns" is not "True", but False',
      ],
      ["ContainersReady", "True", undefined],
      ["PodScheduled", "True", undefined],
    ],
  );
});

const delays = { startDelayMs: 0, stopDelayMs: 1000 };

test("replaceContainerPlans: a running container with a new image restarts at once with it; nothing else changes", () => {
  const pod = podWith({ restartPolicy: "Never" });
  const record = advancePod(newPodRecord(podPlan(pod, delays), "Never", s(0)), s(5));
  const updated = structuredClone(pod);
  const app = updated.spec.containers[0];
  if (app !== undefined) app.image = "pause:2";
  const { record: after, restarted } = replaceContainerPlans(
    record,
    podPlan(updated, delays).containers,
    s(10),
  );
  const same = replaceContainerPlans(after, podPlan(updated, delays).containers, s(11));
  const c = after.containers[0];
  assert.deepEqual(
    {
      restarted,
      image: c?.plan.image,
      state: c?.state,
      restartCount: c?.restartCount,
      last: c?.lastTerminated?.exitCode,
      unchanged: same.record === after && same.restarted.length === 0,
    },
    {
      restarted: ["app"],
      image: "pause:2",
      state: { kind: "running", startedAt: s(10) },
      restartCount: 1,
      last: 143,
      unchanged: true,
    },
  );
});

test("replaceContainerPlans: a pod being stopped keeps its containers", () => {
  const pod = podWith();
  const record = requestStop(
    advancePod(newPodRecord(podPlan(pod, delays), "Always", s(0)), s(5)),
    s(6),
  );
  const updated = structuredClone(pod);
  const app = updated.spec.containers[0];
  if (app !== undefined) app.image = "pause:2";
  const result = replaceContainerPlans(record, podPlan(updated, delays).containers, s(6));
  assert.deepEqual(
    { same: result.record === record, restarted: result.restarted },
    { same: true, restarted: [] },
  );
});
