import assert from "node:assert/strict";
import { test } from "node:test";
import { podPrinter, printPodRow } from "./pod.ts";
import type { TableCell } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");
const created = "2024-06-01T11:55:00Z"; // 5m before now

type Json = Record<string, unknown>;

function pod(spec: Json, status: Json, metadata: Json = {}): Json {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "web-1", namespace: "default", creationTimestamp: created, ...metadata },
    spec: { containers: [{ name: "app", image: "nginx" }], ...spec },
    status,
  };
}

const running = { running: { startedAt: "2024-06-01T11:56:00Z" } };

const cases: { name: string; pod: Json; want: TableCell[] }[] = [
  {
    name: "Pending before scheduling",
    pod: pod({}, { phase: "Pending" }),
    want: ["web-1", "0/1", "Pending", "0", "5m", "<none>", "<none>", "<none>", "<none>"],
  },
  {
    name: "ContainerCreating while the image is pulled",
    pod: pod(
      { nodeName: "n1" },
      {
        phase: "Pending",
        containerStatuses: [
          {
            name: "app",
            ready: false,
            restartCount: 0,
            state: { waiting: { reason: "ContainerCreating" } },
          },
        ],
      },
    ),
    want: ["web-1", "0/1", "ContainerCreating", "0", "5m", "<none>", "n1", "<none>", "<none>"],
  },
  {
    name: "Running 1/1 with IP and node",
    pod: pod(
      { nodeName: "n1" },
      {
        phase: "Running",
        podIP: "10.0.0.5",
        podIPs: [{ ip: "10.0.0.5" }],
        conditions: [{ type: "Ready", status: "True" }],
        containerStatuses: [{ name: "app", ready: true, restartCount: 0, state: running }],
      },
    ),
    want: ["web-1", "1/1", "Running", "0", "5m", "10.0.0.5", "n1", "<none>", "<none>"],
  },
  {
    name: "podIP is used when podIPs is absent",
    pod: pod({ nodeName: "n1" }, { phase: "Running", podIP: "10.0.0.9" }),
    want: ["web-1", "0/1", "Running", "0", "5m", "10.0.0.9", "n1", "<none>", "<none>"],
  },
  {
    name: "Completed after the container exits 0",
    pod: pod(
      { nodeName: "n1" },
      {
        phase: "Succeeded",
        containerStatuses: [
          {
            name: "app",
            ready: false,
            restartCount: 0,
            state: { terminated: { exitCode: 0, reason: "Completed" } },
          },
        ],
      },
    ),
    want: ["web-1", "0/1", "Completed", "0", "5m", "<none>", "n1", "<none>", "<none>"],
  },
  {
    name: "CrashLoopBackOff with restarts and the last restart age",
    pod: pod(
      { nodeName: "n1" },
      {
        phase: "Running",
        containerStatuses: [
          {
            name: "app",
            ready: false,
            restartCount: 4,
            state: { waiting: { reason: "CrashLoopBackOff" } },
            lastState: { terminated: { exitCode: 1, finishedAt: "2024-06-01T11:58:30Z" } },
          },
        ],
      },
    ),
    want: [
      "web-1",
      "0/1",
      "CrashLoopBackOff",
      "4 (90s ago)",
      "5m",
      "<none>",
      "n1",
      "<none>",
      "<none>",
    ],
  },
  {
    name: "Error with exit code when the reason is empty",
    pod: pod(
      {},
      {
        phase: "Failed",
        containerStatuses: [{ name: "app", state: { terminated: { exitCode: 137 } } }],
      },
    ),
    want: ["web-1", "0/1", "ExitCode:137", "0", "5m", "<none>", "<none>", "<none>", "<none>"],
  },
  {
    name: "Init:0/1 while the first init container runs",
    pod: pod(
      { initContainers: [{ name: "init", image: "busybox" }] },
      {
        phase: "Pending",
        initContainerStatuses: [{ name: "init", ready: false, restartCount: 0, state: running }],
        containerStatuses: [
          { name: "app", ready: false, state: { waiting: { reason: "PodInitializing" } } },
        ],
      },
    ),
    want: ["web-1", "0/1", "Init:0/1", "0", "5m", "<none>", "<none>", "<none>", "<none>"],
  },
  {
    name: "Init:CrashLoopBackOff counts init restarts",
    pod: pod(
      { initContainers: [{ name: "init", image: "busybox" }] },
      {
        phase: "Pending",
        initContainerStatuses: [
          { name: "init", restartCount: 2, state: { waiting: { reason: "CrashLoopBackOff" } } },
        ],
      },
    ),
    want: [
      "web-1",
      "0/1",
      "Init:CrashLoopBackOff",
      "2",
      "5m",
      "<none>",
      "<none>",
      "<none>",
      "<none>",
    ],
  },
  {
    name: "Init:Error when an init container failed",
    pod: pod(
      { initContainers: [{ name: "init", image: "busybox" }] },
      {
        phase: "Pending",
        initContainerStatuses: [
          { name: "init", state: { terminated: { exitCode: 1, reason: "Error" } } },
        ],
      },
    ),
    want: ["web-1", "0/1", "Init:Error", "0", "5m", "<none>", "<none>", "<none>", "<none>"],
  },
  {
    name: "restartable init container counts toward READY and total",
    pod: pod(
      { initContainers: [{ name: "proxy", image: "envoy", restartPolicy: "Always" }] },
      {
        phase: "Running",
        conditions: [
          { type: "Initialized", status: "True" },
          { type: "Ready", status: "True" },
        ],
        initContainerStatuses: [
          { name: "proxy", ready: true, started: true, restartCount: 1, state: running },
        ],
        containerStatuses: [{ name: "app", ready: true, restartCount: 0, state: running }],
      },
    ),
    want: ["web-1", "2/2", "Running", "1", "5m", "<none>", "<none>", "<none>", "<none>"],
  },
  {
    name: "Terminating once deletionTimestamp is set",
    pod: pod(
      { nodeName: "n1" },
      {
        phase: "Running",
        containerStatuses: [{ name: "app", ready: true, state: running }],
      },
      { deletionTimestamp: "2024-06-01T11:59:00Z" },
    ),
    want: ["web-1", "1/1", "Terminating", "0", "5m", "<none>", "n1", "<none>", "<none>"],
  },
  {
    name: "a deleted pod of a lost node shows Unknown",
    pod: pod(
      { nodeName: "n1" },
      { phase: "Running", reason: "NodeLost" },
      { deletionTimestamp: "2024-06-01T11:59:00Z" },
    ),
    want: ["web-1", "0/1", "Unknown", "0", "5m", "<none>", "n1", "<none>", "<none>"],
  },
  {
    name: "a deleted pod that already succeeded keeps Completed",
    pod: pod(
      {},
      {
        phase: "Succeeded",
        containerStatuses: [
          { name: "app", state: { terminated: { exitCode: 0, reason: "Completed" } } },
        ],
      },
      { deletionTimestamp: "2024-06-01T11:59:00Z" },
    ),
    want: ["web-1", "0/1", "Completed", "0", "5m", "<none>", "<none>", "<none>", "<none>"],
  },
  {
    name: "SchedulingGated from the PodScheduled condition",
    pod: pod(
      { schedulingGates: [{ name: "gantry.io/queue" }] },
      {
        phase: "Pending",
        conditions: [{ type: "PodScheduled", status: "False", reason: "SchedulingGated" }],
      },
    ),
    want: ["web-1", "0/1", "SchedulingGated", "0", "5m", "<none>", "<none>", "<none>", "<none>"],
  },
  {
    name: "SchedulingGated from gates alone on an unbound pod",
    pod: pod({ schedulingGates: [{ name: "gantry.io/queue" }] }, { phase: "Pending" }),
    want: ["web-1", "0/1", "SchedulingGated", "0", "5m", "<none>", "<none>", "<none>", "<none>"],
  },
  {
    name: "nominated node and readiness gates",
    pod: pod(
      {
        readinessGates: [{ conditionType: "example.com/lb" }, { conditionType: "example.com/dns" }],
      },
      {
        phase: "Pending",
        nominatedNodeName: "n2",
        conditions: [{ type: "example.com/lb", status: "True" }],
      },
    ),
    want: ["web-1", "0/1", "Pending", "0", "5m", "<none>", "<none>", "n2", "1/2"],
  },
  {
    name: "Completed with a container still running reads Running when Ready",
    pod: pod(
      { containers: [{ name: "a" }, { name: "b" }] },
      {
        phase: "Running",
        conditions: [{ type: "Ready", status: "True" }],
        containerStatuses: [
          { name: "a", ready: true, state: running },
          { name: "b", state: { terminated: { exitCode: 0, reason: "Completed" } } },
        ],
      },
    ),
    want: ["web-1", "1/2", "Running", "0", "5m", "<none>", "<none>", "<none>", "<none>"],
  },
];

for (const c of cases) {
  test(`podPrinter.printRow: ${c.name}`, () => {
    assert.deepEqual(printPodRow(c.pod, now).cells, c.want);
  });
}

test("podPrinter.printRow: terminal phases carry the Completed row condition", () => {
  const succeeded = printPodRow(pod({}, { phase: "Succeeded" }), now);
  const failed = printPodRow(pod({}, { phase: "Failed" }), now);
  const running = printPodRow(pod({}, { phase: "Running" }), now);
  assert.deepEqual(succeeded.conditions, [
    {
      type: "Completed",
      status: "True",
      reason: "Succeeded",
      message: "The pod has completed successfully.",
    },
  ]);
  assert.equal(failed.conditions?.[0]?.reason, "Failed");
  assert.equal(running.conditions, undefined);
});

test("podPrinter.columns: kubectl's headers and wide priorities", () => {
  assert.deepEqual(
    podPrinter.columns.map((c) => [c.name, c.type, c.priority]),
    [
      ["Name", "string", 0],
      ["Ready", "string", 0],
      ["Status", "string", 0],
      ["Restarts", "string", 0],
      ["Age", "string", 0],
      ["IP", "string", 1],
      ["Node", "string", 1],
      ["Nominated Node", "string", 1],
      ["Readiness Gates", "string", 1],
    ],
  );
  assert.equal(podPrinter.columns[0]?.format, "name");
});

test("podPrinter.printRow: an empty object prints without throwing", () => {
  assert.deepEqual(printPodRow({}, now).cells, [
    "",
    "0/0",
    "",
    "0",
    "<unknown>",
    "<none>",
    "<none>",
    "<none>",
    "<none>",
  ]);
});
