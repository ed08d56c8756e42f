import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { type ContainerLogOptions, containerLog, containerLogOptions } from "./container-logs.ts";

const started = "2026-11-29T12:00:00Z";

function pod(state: object, lastState: object = {}, log = "one\ntwo\nthree\n"): Pod {
  return {
    metadata: { name: "p", namespace: "ns", annotations: { "gantry.dev/log": log } },
    spec: { containers: [{ name: "c", image: "busybox" }] },
    status: { containerStatuses: [{ name: "c", state, lastState } as never] },
  };
}

const plain: ContainerLogOptions = { previous: false, timestamps: false };
const running = { running: { startedAt: started } };

test("containerLog: a running container's log is its pod's gantry.dev/log, one line per line", () => {
  assert.deepEqual(containerLog(pod(running), "c", plain), {
    status: 200,
    text: "one\ntwo\nthree\n",
    running: true,
  });
});

test("containerLog: tailLines, timestamps (RFC 3339 of the start), limitBytes and since", () => {
  const log = (options: Partial<ContainerLogOptions>) => {
    const result = containerLog(pod(running), "c", { ...plain, ...options });
    assert.equal(result.status, 200);
    return result.status === 200 ? result.text : "";
  };
  assert.equal(log({ tailLines: 2 }), "two\nthree\n");
  assert.equal(log({ tailLines: 0 }), "");
  assert.equal(log({ timestamps: true, tailLines: 1 }), "2026-11-29T12:00:00Z three\n");
  assert.equal(log({ limitBytes: 5 }), "one\nt");
  assert.equal(log({ sinceMs: Date.parse(started) + 1000 }), "", "written before since: left out");
  assert.equal(log({ sinceMs: Date.parse(started) - 1000 }), "one\ntwo\nthree\n");
});

const refusals = [
  {
    name: "a container waiting to start",
    pod: pod({ waiting: { reason: "ContainerCreating" } }),
    options: plain,
    message: 'container "c" in pod "p" is waiting to start: ContainerCreating',
  },
  {
    name: "an image that cannot be pulled",
    pod: pod({ waiting: { reason: "ImagePullBackOff" } }),
    options: plain,
    message: 'container "c" in pod "p" is waiting to start: trying and failing to pull image',
  },
  {
    name: "a previous instance that never was",
    pod: pod(running),
    options: { ...plain, previous: true },
    message: 'previous terminated container "c" in pod "p" not found',
  },
  {
    name: "a container with no status yet",
    pod: { ...pod(running), status: {} },
    options: plain,
    message: 'container "c" in pod "p" is waiting to start - no logs yet',
  },
] as const;

for (const r of refusals) {
  test(`containerLog: ${r.name} is the kubelet's 400 with its message`, () => {
    assert.deepEqual(containerLog(r.pod, "c", r.options), { status: 400, message: r.message });
  });
}

test("containerLog: a restarted container's previous log and a terminated one's are served", () => {
  const restarted = pod(running, {
    terminated: { startedAt: "2026-11-29T11:59:00Z", exitCode: 1 },
  });
  const previous = containerLog(restarted, "c", { ...plain, previous: true });
  assert.deepEqual(previous, { status: 200, text: "one\ntwo\nthree\n", running: false });
  const ended = containerLog(pod({ terminated: { startedAt: started, exitCode: 0 } }), "c", plain);
  assert.deepEqual(ended, { status: 200, text: "one\ntwo\nthree\n", running: false });
});

test("containerLogOptions: reads the query the API server passes through", () => {
  const now = Date.parse(started);
  const query = new URLSearchParams("timestamps=true&tailLines=3&limitBytes=10&sinceSeconds=60");
  assert.deepEqual(containerLogOptions(query, now), {
    previous: false,
    timestamps: true,
    tailLines: 3,
    limitBytes: 10,
    sinceMs: now - 60_000,
  });
});
