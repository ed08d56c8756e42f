import assert from "node:assert/strict";
import test from "node:test";
import type { Container, Pod, RestartPolicy } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import { runtimeEvents } from "./events.ts";
import { podPlan } from "./plan.ts";
import { advancePod, newPodRecord, type PodRecord, requestStop } from "./pod-record.ts";

const t0 = Date.parse("2026-01-01T00:00:00Z");

function podWith(
  containers: Container[],
  options: { annotations?: Record<string, string>; restartPolicy?: RestartPolicy } = {},
  initContainers: Container[] = [],
): Pod {
  const builder = makePod("web").namespace("ns").uid("uid-1");
  for (const [k, v] of Object.entries(options.annotations ?? {})) builder.annotation(k, v);
  const pod = builder.obj();
  pod.spec.containers = containers;
  if (initContainers.length > 0) pod.spec.initContainers = initContainers;
  pod.spec.restartPolicy = options.restartPolicy ?? "Always";
  return pod;
}

/** The record right after admission at t0, and after `ms` more. */
function records(pod: Pod, ms: number): { admitted: PodRecord; later: PodRecord } {
  const plan = podPlan(pod, { startDelayMs: 0, stopDelayMs: 1000 });
  const admitted = newPodRecord(plan, pod.spec.restartPolicy ?? "Always", t0);
  return { admitted, later: advancePod(admitted, t0 + ms) };
}

const render = (events: ReturnType<typeof runtimeEvents>["events"]) =>
  events.map((e) => `${e.fieldPath} ${e.type} ${e.reason}: ${e.message}`);

const cases: readonly {
  name: string;
  pod: Pod;
  present: readonly string[];
  want: readonly string[];
  pulled: readonly string[];
}[] = [
  {
    name: "an Always image is pulled at each start, then created and started",
    pod: podWith([{ name: "nginx", image: "nginx", imagePullPolicy: "Always" }]),
    present: ["docker.io/library/nginx:latest"],
    want: [
      'spec.containers{nginx} Normal Pulling: Pulling image "nginx"',
      'spec.containers{nginx} Normal Pulled: Successfully pulled image "nginx" in 0s (0s including waiting). Image size: 0 bytes.',
      "spec.containers{nginx} Normal Created: Created container: nginx",
      "spec.containers{nginx} Normal Started: Started container nginx",
    ],
    pulled: [],
  },
  {
    name: "an IfNotPresent image the node has is not pulled",
    pod: podWith([{ name: "app", image: "nginx:1.27", imagePullPolicy: "IfNotPresent" }]),
    present: ["docker.io/library/nginx:1.27"],
    want: [
      'spec.containers{app} Normal Pulled: Container image "nginx:1.27" already present on machine',
      "spec.containers{app} Normal Created: Created container: app",
      "spec.containers{app} Normal Started: Started container app",
    ],
    pulled: [],
  },
  {
    name: "two containers of one new image: the first pulls it, the second finds it",
    pod: podWith([
      { name: "a", image: "busybox:1.36", imagePullPolicy: "IfNotPresent" },
      { name: "b", image: "busybox:1.36", imagePullPolicy: "IfNotPresent" },
    ]),
    present: [],
    want: [
      'spec.containers{a} Normal Pulling: Pulling image "busybox:1.36"',
      'spec.containers{a} Normal Pulled: Successfully pulled image "busybox:1.36" in 0s (0s including waiting). Image size: 0 bytes.',
      "spec.containers{a} Normal Created: Created container: a",
      "spec.containers{a} Normal Started: Started container a",
      'spec.containers{b} Normal Pulled: Container image "busybox:1.36" already present on machine',
      "spec.containers{b} Normal Created: Created container: b",
      "spec.containers{b} Normal Started: Started container b",
    ],
    pulled: ["docker.io/library/busybox:1.36"],
  },
  {
    name: "a container that crashes twice is started twice, then backs off",
    pod: podWith([{ name: "app", image: "app:1", imagePullPolicy: "Never" }], {
      annotations: { "gantry.dev/exit-code": "1" },
    }),
    present: [],
    want: [
      'spec.containers{app} Normal Pulled: Container image "app:1" already present on machine',
      "spec.containers{app} Normal Created: Created container: app",
      "spec.containers{app} Normal Started: Started container app",
      'spec.containers{app} Normal Pulled: Container image "app:1" already present on machine',
      "spec.containers{app} Normal Created: Created container: app",
      "spec.containers{app} Normal Started: Started container app",
      "spec.containers{app} Warning BackOff: Back-off restarting failed container app in pod web_ns(uid-1)",
    ],
    pulled: [],
  },
  {
    name: "init containers are named by their place in spec.initContainers",
    pod: podWith([{ name: "app", image: "app:1", imagePullPolicy: "IfNotPresent" }], {}, [
      { name: "setup", image: "app:1", imagePullPolicy: "IfNotPresent" },
    ]),
    present: ["docker.io/library/app:1"],
    want: [
      'spec.initContainers{setup} Normal Pulled: Container image "app:1" already present on machine',
      "spec.initContainers{setup} Normal Created: Created container: setup",
      "spec.initContainers{setup} Normal Started: Started container setup",
      'spec.containers{app} Normal Pulled: Container image "app:1" already present on machine',
      "spec.containers{app} Normal Created: Created container: app",
      "spec.containers{app} Normal Started: Started container app",
    ],
    pulled: [],
  },
];

for (const c of cases) {
  test(`runtimeEvents: ${c.name}`, () => {
    const { admitted, later } = records(c.pod, 0);
    const { events, pulled } = runtimeEvents(c.pod, admitted, later, (image) =>
      c.present.includes(image),
    );
    assert.deepEqual({ events: render(events), pulled }, { events: c.want, pulled: c.pulled });
  });
}

test("runtimeEvents: a stop request kills the running containers once", () => {
  const pod = podWith([
    { name: "app", image: "app:1" },
    { name: "side", image: "app:1" },
  ]);
  const { later: running } = records(pod, 10);
  const stopping = advancePod(requestStop(running, t0 + 1000), t0 + 20);
  const first = runtimeEvents(pod, running, stopping, () => true);
  const stopped = advancePod(stopping, t0 + 2000);
  const second = runtimeEvents(pod, stopping, stopped, () => true);
  assert.deepEqual(
    { first: render(first.events), second: render(second.events) },
    {
      first: [
        "spec.containers{app} Normal Killing: Stopping container app",
        "spec.containers{side} Normal Killing: Stopping container side",
      ],
      second: [],
    },
  );
});

test("runtimeEvents: nothing happens, nothing is recorded", () => {
  const pod = podWith([{ name: "app", image: "app:1" }]);
  const { later } = records(pod, 10);
  assert.deepEqual(runtimeEvents(pod, later, advancePod(later, t0 + 5000), () => true).events, []);
});
