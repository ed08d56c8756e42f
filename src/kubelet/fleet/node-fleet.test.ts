import assert from "node:assert/strict";
import test from "node:test";
import type { Event, Lease, Node, Pod } from "../../api/index.ts";
import {
  type Client,
  eventsResource,
  leasesResource,
  nodesResource,
  podsResource,
} from "../../client/index.ts";
import { type ClusterHarness, startClusterHarness } from "../../testing/index.ts";
import { activeResources, ensureNoLeaks } from "../../testing/leak-check.ts";
import { parseClusterConfig } from "../config/parse.ts";
import { NodeFleet } from "./node-fleet.ts";

const config = parseClusterConfig(`apiVersion: gantry.dev/v1alpha1
kind: ClusterConfig
networking: {podSubnet: 10.200.0.0/16}
nodePools:
- name: t
  count: 2
  capacity: {cpu: 2, memory: 4Gi}
  kubelet:
    podStopDelay: 100ms
    nodeStatusUpdateFrequency: 1s
    nodeLeaseDurationSeconds: 2
`);

const timeoutMs = 10_000;

async function waitFor<T>(
  what: string,
  read: () => Promise<T | undefined>,
  done: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    try {
      last = await read();
    } catch (error: unknown) {
      if (!(error instanceof Error)) throw error;
      last = undefined;
    }
    if (last !== undefined && done(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out waiting for ${what}; last seen: ${JSON.stringify(last)}`);
}

async function runPod(client: Client, pod: Pod, node: string): Promise<void> {
  const name = pod.metadata.name ?? "";
  await client.create(podsResource, pod);
  await client.createSubresource(podsResource, "default", name, "binding", {
    apiVersion: "v1",
    kind: "Binding",
    metadata: { name },
    target: { apiVersion: "v1", kind: "Node", name: node },
  });
}

function podOf(
  name: string,
  annotations: Record<string, string> = {},
  extra: Partial<Pod["spec"]> = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default", annotations },
    spec: { containers: [{ name: "app", image: "nginx:1.27" }], ...extra },
  };
}

const getPod = (client: Client, name: string) => (): Promise<Pod> =>
  client.get<Pod>(podsResource, "default", name);

test("NodeFleet: nodes, heartbeats and pods against the real API server", async (t) => {
  const resources = activeResources();
  await using harness: ClusterHarness = await startClusterHarness();
  const client = harness.client;
  const fleet = new NodeFleet({ client }, { config });
  const stop = new AbortController();
  const { done } = await fleet.start(stop.signal);
  t.after(async () => {
    stop.abort();
    await done;
  });
  ensureNoLeaks(t, { since: resources });

  await t.test(
    "NodeFleet.start: registers Ready nodes with labels, capacity and a pod range",
    async () => {
      const node = await waitFor(
        "node t-0 Ready",
        () => client.get<Node>(nodesResource, undefined, "t-0"),
        (n) =>
          n.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true,
      );
      assert.deepEqual(
        {
          hostname: node.metadata.labels?.["kubernetes.io/hostname"],
          cidr: node.spec?.podCIDR,
          cpu: node.status?.allocatable?.["cpu"],
          kubelet: node.status?.nodeInfo?.kubeletVersion,
          ready: node.status?.conditions?.find((c) => c.type === "Ready")?.reason,
          names: fleet.nodeNames(),
        },
        {
          hostname: "t-0",
          cidr: "10.200.0.0/24",
          cpu: "2",
          kubelet: "v1.35.0",
          ready: "KubeletReady",
          names: ["t-0", "t-1"],
        },
      );
      const lease = await waitFor(
        "lease t-0",
        () => client.get<Lease>(leasesResource, "kube-node-lease", "t-0"),
        () => true,
      );
      assert.deepEqual(
        [
          lease.spec?.holderIdentity,
          lease.spec?.leaseDurationSeconds,
          lease.metadata.ownerReferences?.[0]?.uid,
        ],
        ["t-0", 2, node.metadata.uid],
      );
    },
  );

  await t.test(
    "NodeFleet.start: a bound pod goes Running with IPs and container statuses",
    async () => {
      await runPod(client, podOf("web"), "t-0");
      const pod = await waitFor(
        "web Running",
        getPod(client, "web"),
        (p) => p.status?.phase === "Running",
      );
      const app = pod.status?.containerStatuses?.[0];
      assert.deepEqual(
        {
          hostIP: pod.status?.hostIP,
          podIP: pod.status?.podIP,
          qos: pod.status?.qosClass,
          started: pod.status?.startTime !== undefined,
          conditions: pod.status?.conditions?.map((c) => `${c.type}=${c.status}`),
          app: [
            app?.name,
            app?.ready,
            app?.started,
            app?.restartCount,
            app?.image,
            app?.state?.running !== undefined,
          ],
          ids: [
            app?.containerID?.startsWith("containerd://"),
            app?.imageID.startsWith("docker.io/library/nginx@sha256:"),
          ],
        },
        {
          hostIP: "127.0.0.1",
          podIP: "10.200.0.2",
          qos: "BestEffort",
          started: true,
          conditions: [
            "PodReadyToStartContainers=True",
            "Initialized=True",
            "Ready=True",
            "ContainersReady=True",
            "PodScheduled=True",
          ],
          app: ["app", true, true, 0, "docker.io/library/nginx:1.27", true],
          ids: [true, true],
        },
      );
    },
  );

  await t.test("NodeFleet.start: run-for and exit-code end pods Succeeded and Failed", async () => {
    await runPod(
      client,
      podOf("ok", { "gantry.dev/run-for": "200ms" }, { restartPolicy: "Never" }),
      "t-1",
    );
    await runPod(
      client,
      podOf("bad", { "gantry.dev/exit-code": "3" }, { restartPolicy: "Never" }),
      "t-1",
    );
    const ok = await waitFor(
      "ok Succeeded",
      getPod(client, "ok"),
      (p) => p.status?.phase === "Succeeded",
    );
    const bad = await waitFor(
      "bad Failed",
      getPod(client, "bad"),
      (p) => p.status?.phase === "Failed",
    );
    assert.deepEqual(
      [
        ok.status?.containerStatuses?.[0]?.state?.terminated?.reason,
        bad.status?.containerStatuses?.[0]?.state?.terminated?.exitCode,
      ],
      ["Completed", 3],
    );
  });

  await t.test(
    "NodeFleet.start: a new image on a running pod restarts that container with it (Killing: definition changed)",
    async () => {
      await runPod(client, podOf("swap", {}, { restartPolicy: "Never" }), "t-1");
      await waitFor("swap Running", getPod(client, "swap"), (p) => p.status?.phase === "Running");
      await client.patch(podsResource, "default", "swap", "strategic", {
        spec: { containers: [{ name: "app", image: "nginx:1.28" }] },
      });
      const swapped = await waitFor("swap on nginx:1.28", getPod(client, "swap"), (p) => {
        const status = p.status?.containerStatuses?.[0];
        return (
          status?.image === "docker.io/library/nginx:1.28" && status.state?.running !== undefined
        );
      });
      const events = await waitFor(
        "the Killing event",
        async () =>
          (await client.list<Event>(eventsResource, "default")).items.filter(
            (e) => e.involvedObject.name === "swap",
          ),
        (list) => list.some((e) => e.reason === "Killing"),
      );
      assert.deepEqual(
        {
          phase: swapped.status?.phase,
          restarts: swapped.status?.containerStatuses?.[0]?.restartCount,
          last: swapped.status?.containerStatuses?.[0]?.lastState?.terminated?.exitCode,
          killing: events.find((e) => e.reason === "Killing")?.message,
        },
        {
          phase: "Running",
          restarts: 1,
          last: 143,
          killing: "Container app definition changed, will be restarted",
        },
      );
    },
  );

  await t.test(
    "NodeFleet.start: a pod running past activeDeadlineSeconds is killed and Failed with DeadlineExceeded",
    async () => {
      await runPod(client, podOf("late", {}, { activeDeadlineSeconds: 1 }), "t-1");
      // Phase Failed comes first (as upstream's status manager sets it), then the kill.
      const failed = await waitFor("late Failed and stopped", getPod(client, "late"), (p) => {
        const stopped = p.status?.containerStatuses?.[0]?.state?.terminated !== undefined;
        return p.status?.phase === "Failed" && stopped;
      });
      const events = await waitFor(
        "the DeadlineExceeded event",
        async () =>
          (await client.list<Event>(eventsResource, "default")).items.filter(
            (e) => e.involvedObject.name === "late" && e.reason === "DeadlineExceeded",
          ),
        (list) => list.length > 0,
      );
      assert.deepEqual(
        {
          reason: failed.status?.reason,
          message: failed.status?.message,
          container: failed.status?.containerStatuses?.[0]?.state?.terminated?.exitCode,
          event: [events[0]?.type, events[0]?.message],
        },
        {
          reason: "DeadlineExceeded",
          message: "Pod was active on the node longer than the specified deadline",
          container: 143,
          event: ["Normal", "Pod was active on the node longer than the specified deadline"],
        },
      );
    },
  );

  await t.test("NodeFleet.start: a pod that does not fit is rejected OutOfcpu", async () => {
    const big = podOf("big");
    big.spec.containers = [{ name: "app", image: "nginx", resources: { requests: { cpu: "3" } } }];
    await runPod(client, big, "t-1");
    const pod = await waitFor(
      "big Failed",
      getPod(client, "big"),
      (p) => p.status?.phase === "Failed",
    );
    assert.deepEqual(
      [pod.status?.reason, pod.status?.message],
      [
        "OutOfcpu",
        "Pod was rejected: Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000",
      ],
    );
  });

  await t.test(
    "NodeFleet.start: graceful deletion stops the containers and removes the pod",
    async () => {
      const current = await client.get<Pod>(podsResource, "default", "web");
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), timeoutMs);
      const seen: string[] = [];
      const watching = (async () => {
        const events = client.watch<Pod>(
          podsResource,
          "default",
          {
            fieldSelector: "metadata.name=web",
            resourceVersion: current.metadata.resourceVersion ?? "",
          },
          stop.signal,
        );
        for await (const event of events) {
          if (event.type === "BOOKMARK" || event.type === "ERROR") continue;
          const app = event.object.status?.containerStatuses?.[0]?.state;
          const state =
            app?.terminated === undefined ? "running" : `exited(${app.terminated.exitCode})`;
          const deleting = event.object.metadata.deletionTimestamp === undefined ? "" : " deleting";
          seen.push(`${event.type} ${event.object.status?.phase} ${state}${deleting}`);
          if (event.type === "DELETED") break;
        }
      })();
      await client.delete(podsResource, "default", "web");
      await watching;
      clearTimeout(timer);
      assert.deepEqual(seen, [
        "MODIFIED Running running deleting",
        "MODIFIED Failed exited(143) deleting",
        "DELETED Failed exited(143) deleting",
      ]);
    },
  );

  await t.test(
    "NodeFleet.start: the kubelet records pull, create, start, stop, back-off and rejection events",
    async () => {
      await runPod(
        client,
        podOf("crash", { "gantry.dev/exit-code": "1" }, { restartPolicy: "Always" }),
        "t-1",
      );
      await waitFor(
        "crash in CrashLoopBackOff",
        getPod(client, "crash"),
        (p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === "CrashLoopBackOff",
      );
      await fleet.flushEvents();
      const crash = await client.get<Pod>(podsResource, "default", "crash");
      const events = (await client.list<Event>(eventsResource, "default")).items;
      const of = (name: string) =>
        events
          .filter((e) => e.involvedObject.name === name)
          .sort((a, b) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""))
          .map(
            (e) =>
              `${e.source?.host} ${e.involvedObject.fieldPath ?? "-"} ${e.type} ${e.reason} x${e.count}: ${e.message}`,
          );
      assert.deepEqual(
        { web: of("web"), crash: of("crash"), big: of("big") },
        {
          web: [
            't-0 spec.containers{app} Normal Pulling x1: Pulling image "nginx:1.27"',
            't-0 spec.containers{app} Normal Pulled x1: Successfully pulled image "nginx:1.27" in 0s (0s including waiting). Image size: 0 bytes.',
            "t-0 spec.containers{app} Normal Created x1: Created container: app",
            "t-0 spec.containers{app} Normal Started x1: Started container app",
            "t-0 spec.containers{app} Normal Killing x1: Stopping container app",
          ],
          crash: [
            't-1 spec.containers{app} Normal Pulled x2: Container image "nginx:1.27" already present on machine',
            "t-1 spec.containers{app} Normal Created x2: Created container: app",
            "t-1 spec.containers{app} Normal Started x2: Started container app",
            `t-1 spec.containers{app} Warning BackOff x1: Back-off restarting failed container app in pod crash_default(${crash.metadata.uid})`,
          ],
          big: [
            "t-1 - Warning OutOfcpu x1: Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000",
          ],
        },
      );
      assert.deepEqual(
        events.map((e) => e.source?.component),
        events.map(() => "kubelet"),
      );
      await client.delete(podsResource, "default", "crash", { gracePeriodSeconds: 0 });
    },
  );

  await t.test(
    "NodeFleet.fail: a failed node stops renewing its Lease until recovered",
    async () => {
      const renewTime = async (): Promise<string | undefined> =>
        (await client.get<Lease>(leasesResource, "kube-node-lease", "t-1")).spec?.renewTime;
      assert.equal(fleet.fail("t-1"), true);
      // Let an in-flight renewal land, then the Lease must stay put over two renewal intervals.
      await new Promise((r) => setTimeout(r, 1000));
      const before = await renewTime();
      await new Promise((r) => setTimeout(r, 1200));
      assert.deepEqual([await renewTime(), fleet.isRunning("t-1")], [before, false]);
      assert.equal(fleet.recover("t-1"), true);
      await waitFor("a renewal after recovery", renewTime, (time) => time !== before);
    },
  );

  await t.test(
    "NodeFleet.start: the gantry.dev/fail annotation takes a kubelet down and back",
    async () => {
      const annotate = (value: string | null) =>
        client.patch(nodesResource, undefined, "t-0", "merge", {
          metadata: { annotations: { "gantry.dev/fail": value } },
        });
      await annotate("true");
      await waitFor(
        "t-0 down",
        async () => fleet.isRunning("t-0"),
        (running) => !running,
      );
      await annotate(null);
      await waitFor(
        "t-0 up",
        async () => fleet.isRunning("t-0"),
        (running) => running,
      );
    },
  );

  await t.test(
    "NodeFleet.start: a Node created through the API is adopted and reported Ready",
    async () => {
      await client.create<Node>(nodesResource, {
        apiVersion: "v1",
        kind: "Node",
        metadata: { name: "manual", annotations: { "gantry.dev/node-pool": "t" } },
      });
      const node = await waitFor(
        "manual Ready",
        () => client.get<Node>(nodesResource, undefined, "manual"),
        (n) =>
          n.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true,
      );
      assert.deepEqual(
        [
          node.metadata.annotations?.["gantry.dev/kubelet"],
          node.status?.capacity?.["cpu"],
          node.spec?.podCIDR,
        ],
        ["gantry", "2", "10.200.2.0/24"],
      );
    },
  );
});

test("NodeFleet: pod writes that hang do not hold up the nodes' Lease renewals", async (t) => {
  const resources = activeResources();
  await using harness: ClusterHarness = await startClusterHarness();
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  // Every pod status write waits until released, as on an API server slow for pods only.
  const client = new Proxy(harness.client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== "patch" || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const resource = args[0] as { resource: string };
        if (resource.resource === "pods") {
          held++;
          await released;
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const fleet = new NodeFleet({ client }, { config, workers: 1 });
  const stop = new AbortController();
  const { done } = await fleet.start(stop.signal);
  t.after(async () => {
    release();
    stop.abort();
    await done;
  });
  ensureNoLeaks(t, { since: resources });
  await runPod(harness.client, podOf("held"), "t-0");
  await waitFor(
    "the pod's status write to hang",
    async () => held,
    (n) => n > 0,
  );
  const renewTime = async (): Promise<string | undefined> =>
    (await harness.client.get<Lease>(leasesResource, "kube-node-lease", "t-0")).spec?.renewTime;
  const before = await waitFor("t-0's Lease", renewTime, (time) => time !== undefined);
  await waitFor("a renewal while the pod write hangs", renewTime, (time) => time !== before);
  release();
  await waitFor(
    "held Running",
    getPod(harness.client, "held"),
    (p) => p.status?.phase === "Running",
  );
});
