/**
 * Leader election between processes: two `gantry scheduler` copies against one
 * `gantry apiserver`; exactly one holds the kube-scheduler Lease and binds pods. Killing it
 * (SIGKILL, so nothing is released) while pods keep coming hands the lease to the other once
 * the lease expired, and no pod is ever bound twice.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Event, Lease, Pod } from "../../api/index.ts";
import {
  eventsResource,
  leasesResource,
  namespacesResource,
  newClient,
  podsResource,
  serviceAccountsResource,
} from "../../client/index.ts";
import { eventually } from "../../testing/eventually.ts";
import { startComponentProcess, startGantry } from "../../testing/gantry-process.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

const namespace = "ha-scheduling";
const pods = 40;
/** Pods created before the leader is killed; the rest come while the lease changes hands. */
const killAfter = 15;
const leaseDurationMs = 2000;
const retryPeriodMs = 500;
const electionFlags = [
  "--leader-elect-lease-duration",
  "2s",
  "--leader-elect-renew-deadline",
  "1500ms",
  "--leader-elect-retry-period",
  "500ms",
];

interface LeaseRecord {
  readonly holder: string;
  readonly acquireTime: number;
  readonly renewTime: number;
  readonly transitions: number;
}

test("gantry scheduler: one of two copies leads; after the leader is killed the other takes over and binds every pod once", {
  timeout: 180_000,
}, async () => {
  await using api = await startGantry({ command: "apiserver", storage: "sqlite" });
  const client = newClient({ server: api.url, token: api.token, userAgent: "gantry/ha-test" });
  const watching = new AbortController();
  const watches: Promise<void>[] = [];
  try {
    await using kubelet = startComponentProcess("kubelet", api.kubeconfig, [
      "--nodes",
      "3",
      "--port",
      "0",
    ]);
    await kubelet.waitForLog(/Kubelets are running/);
    await client.create(namespacesResource, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: namespace },
    });
    // No controller-manager runs here to make the namespace's `default` ServiceAccount, which
    // the ServiceAccount admission plugin requires of every pod, as upstream's does.
    await client.create(serviceAccountsResource, {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "default", namespace },
    });

    // Every version of the Lease and every node a pod was seen on, as they happen.
    const leaseHistory: LeaseRecord[] = [];
    const nodesOfPod = new Map<string, string[]>();
    const leaseWatch = async (): Promise<void> => {
      const events = client.watch<Lease>(
        leasesResource,
        "kube-system",
        { fieldSelector: "metadata.name=kube-scheduler" },
        watching.signal,
      );
      for await (const event of events) {
        if (event.type !== "ADDED" && event.type !== "MODIFIED") continue;
        const spec = event.object.spec ?? {};
        leaseHistory.push({
          holder: spec.holderIdentity ?? "",
          acquireTime: Date.parse(spec.acquireTime ?? ""),
          renewTime: Date.parse(spec.renewTime ?? ""),
          transitions: spec.leaseTransitions ?? 0,
        });
      }
    };
    const podWatch = async (): Promise<void> => {
      const events = client.watch<Pod>(podsResource, namespace, {}, watching.signal);
      for await (const event of events) {
        if (event.type !== "ADDED" && event.type !== "MODIFIED") continue;
        const node = event.object.spec.nodeName;
        if (node === undefined || node === "") continue;
        const name = event.object.metadata.name ?? "";
        const seen = nodesOfPod.get(name) ?? [];
        if (seen.at(-1) !== node) seen.push(node);
        nodesOfPod.set(name, seen);
      }
    };

    watches.push(leaseWatch(), podWatch());

    await using first = startComponentProcess("scheduler", api.kubeconfig, electionFlags);
    await using second = startComponentProcess("scheduler", api.kubeconfig, electionFlags);
    const holder = await eventually(async () => {
      const lease = await client.get<Lease>(leasesResource, "kube-system", "kube-scheduler");
      const identity = lease.spec?.holderIdentity ?? "";
      assert.notEqual(identity, "", "the kube-scheduler Lease should have a holder");
      return identity;
    }, 30_000);
    await first.waitForLog(/attempting to acquire leader lease kube-system\/kube-scheduler/);
    await second.waitForLog(/attempting to acquire leader lease kube-system\/kube-scheduler/);
    // The Lease can be read before its holder's log line has come through the pipe.
    const leaders = await eventually(() => {
      const acquired = [first, second].filter((p) =>
        p.logs().includes("successfully acquired lease kube-system/kube-scheduler"),
      );
      assert.ok(acquired.length > 0, `the holder ${holder} should log that it acquired the lease`);
      return acquired;
    }, 10_000);
    assert.equal(leaders.length, 1, "exactly one scheduler should have acquired the lease");
    const [leader] = leaders;
    const follower = leader === first ? second : first;
    assert.ok(leader !== undefined, "a leader was found");

    const create = (i: number) =>
      client.create<Pod>(podsResource, {
        metadata: { name: `p-${i}`, namespace },
        spec: { containers: [{ name: "c", image: "busybox" }] },
      });
    for (let i = 0; i < killAfter; i++) await create(i);
    await eventually(() => {
      assert.ok(nodesOfPod.size > 0, "the leader should have bound pods before it dies");
    }, 30_000);
    await leader.stop("SIGKILL");
    for (let i = killAfter; i < pods; i++) await create(i);

    await follower.waitForLog(/successfully acquired lease kube-system\/kube-scheduler/, 60_000);
    await eventually(() => {
      assert.equal(nodesOfPod.size, pods, "every pod should be bound");
    }, 60_000);

    for (const [pod, nodes] of nodesOfPod) {
      assert.equal(nodes.length, 1, `pod ${pod} changed nodes: ${nodes.join(" -> ")}`);
    }
    const live = await client.list<Pod>(podsResource, namespace);
    for (const pod of live.items) {
      const name = pod.metadata.name ?? "";
      assert.equal(pod.spec.nodeName, nodesOfPod.get(name)?.[0], `pod ${name} moved`);
    }
    const scheduled = new Map<string, number>();
    const events = await client.list<Event>(eventsResource, namespace);
    for (const event of events.items) {
      if (event.reason !== "Scheduled") continue;
      const pod = event.involvedObject.name ?? "";
      scheduled.set(pod, (scheduled.get(pod) ?? 0) + (event.count ?? 1));
    }
    for (const [pod, count] of scheduled) {
      assert.ok(count <= 1, `pod ${pod} has ${count} Scheduled events: bound more than once`);
    }

    // The hand-over, as the Lease recorded it: one more transition, a new holder, and an
    // acquisition no later than the lease duration after the dead leader's last renewal
    // (plus the follower's retry periods, jittered by up to 2.2 retry periods each).
    const lastOfOld = leaseHistory.filter((r) => r.holder === leaseHistory[0]?.holder).at(-1);
    const firstOfNew = leaseHistory.find((r) => r.holder !== lastOfOld?.holder && r.holder !== "");
    assert.ok(lastOfOld !== undefined && firstOfNew !== undefined, "the lease changed hands");
    assert.equal(firstOfNew.transitions, lastOfOld.transitions + 1);
    assert.ok(firstOfNew.holder.length > 0, "the new holder has an identity");
    const handOverMs = firstOfNew.acquireTime - lastOfOld.renewTime;
    assert.ok(handOverMs >= leaseDurationMs, `taken over after only ${handOverMs} ms`);
    const bound = leaseDurationMs + 2 * 2.2 * retryPeriodMs + 2000;
    assert.ok(handOverMs <= bound, `taken over after ${handOverMs} ms (bound ${bound} ms)`);
    assert.equal(holder, lastOfOld.holder);
    assert.equal(follower.exited(), false, "the new leader keeps running");
  } finally {
    watching.abort();
    await Promise.allSettled(watches);
    client.close();
  }
});
