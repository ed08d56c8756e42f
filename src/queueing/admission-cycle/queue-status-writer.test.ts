import assert from "node:assert/strict";
import { test } from "node:test";
import type { KubeObject } from "../../api/index.ts";
import type { Client } from "../../client/index.ts";
import { FakeClock, makeClusterQueue } from "../../testing/index.ts";
import { clusterQueuesResource } from "../resources.ts";
import { newQueueStatusWriter } from "./queue-status-writer.ts";
import { newWriteQueue } from "./write-queue.ts";

const active = { active: true, reason: "Ready", message: "Can admit new workloads" };

function writer(clock: FakeClock) {
  const written: unknown[] = [];
  const client = {
    async updateStatus(_resource: unknown, object: KubeObject): Promise<KubeObject> {
      written.push((object as { status?: unknown }).status);
      return object;
    },
  } as unknown as Client;
  const writes = newWriteQueue();
  const statuses = newQueueStatusWriter(
    { client, clock, writes, wake: () => undefined },
    { batchMs: 1000, burst: 2 },
  );
  return { statuses, writes, written };
}

test("queue status writer: a burst at once, then held until a token is back and written as it is then", async () => {
  const clock = new FakeClock();
  const { statuses, writes, written } = writer(clock);
  const cq = makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "5" } })
    .obj();
  const write = (pending: number, force = false): void => {
    statuses.write(
      cq,
      { pendingWorkloads: pending },
      active,
      clusterQueuesResource,
      clock.now(),
      force,
    );
  };
  write(1);
  await writes.flush();
  write(2);
  await writes.flush();
  assert.equal(written.length, 2, "the burst goes out at once");
  write(3);
  write(4);
  await writes.flush();
  assert.equal(written.length, 2, "held once the burst is spent");
  assert.equal(statuses.dueAt(), clock.now().getTime() + 1000, "due when a token comes back");
  await clock.advance(1000);
  write(5);
  await writes.flush();
  assert.equal(written.length, 3, "written when due");
  assert.equal(
    (written[2] as { pendingWorkloads: number }).pendingWorkloads,
    5,
    "with the status as it is then",
  );
  assert.equal(statuses.dueAt(), undefined, "nothing held after the write");
  write(6, true);
  await writes.flush();
  assert.equal(written.length, 4, "a forced write is not paced");
});

test("queue status writer: an unchanged status is not written and spends no token", async () => {
  const clock = new FakeClock();
  const { statuses, writes, written } = writer(clock);
  const cq = makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "5" } })
    .obj();
  cq.status = {
    pendingWorkloads: 1,
    conditions: [
      {
        type: "Active",
        status: "True",
        reason: active.reason,
        message: active.message,
        lastTransitionTime: "2024-01-01T00:00:00Z",
      },
    ],
  } as never;
  for (let i = 0; i < 5; i++) {
    statuses.write(cq, { pendingWorkloads: 1 }, active, clusterQueuesResource, clock.now(), false);
  }
  await writes.flush();
  assert.equal(written.length, 0, "nothing to write");
  assert.equal(statuses.dueAt(), undefined, "nothing held");
  statuses.write(cq, { pendingWorkloads: 2 }, active, clusterQueuesResource, clock.now(), false);
  await writes.flush();
  assert.equal(written.length, 1, "a change still has its token");
});
