/**
 * Restart everything: a 3-member etcd, two `gantry apiserver` processes, a leader-elected
 * scheduler and controller-manager and a `gantry kubelet` run a Deployment; then every process
 * stops, etcd included, and comes back on the same data. The API finds the same objects with
 * the same resourceVersions, and once the components are back the pods are still Running on
 * the same nodes (nothing recreated, nothing rescheduled).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { KubeObject, Lease, Node, Pod } from "../../api/index.ts";
import {
  deploymentsResource,
  type HttpClient,
  leasesResource,
  namespacesResource,
  newClient,
  nodesResource,
  podsResource,
  type ResourceRef,
  replicaSetsResource,
} from "../../client/index.ts";
import { startEtcd } from "../../testing/etcd.ts";
import { eventually } from "../../testing/eventually.ts";
import {
  type ComponentProcess,
  type GantryProcess,
  startComponentProcess,
  startGantry,
} from "../../testing/gantry-process.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

const namespace = "ha-restart";
const replicas = 3;

/** name → uid, resourceVersion and where a pod runs, for every object of the kinds below. */
async function snapshot(client: HttpClient): Promise<Record<string, unknown>> {
  const kinds: [string, ResourceRef, string | undefined][] = [
    ["namespaces", namespacesResource, undefined],
    ["nodes", nodesResource, undefined],
    ["deployments", deploymentsResource, namespace],
    ["replicasets", replicaSetsResource, namespace],
    ["pods", podsResource, namespace],
  ];
  const state: Record<string, unknown> = {};
  for (const [kind, resource, ns] of kinds) {
    const list = await client.list<KubeObject & { spec?: { nodeName?: string } }>(resource, ns);
    for (const item of list.items) {
      state[`${kind}/${item.metadata.name}`] = {
        uid: item.metadata.uid,
        resourceVersion: item.metadata.resourceVersion,
        ...(kind === "pods"
          ? {
              node: item.spec?.nodeName,
              phase: (item as unknown as Pod).status?.phase,
            }
          : {}),
      };
    }
  }
  return state;
}

/** The deployment's pods: name → [uid, node, phase]. */
async function podPlaces(client: HttpClient): Promise<Record<string, [string, string, string]>> {
  const pods = await client.list<Pod>(podsResource, namespace);
  return Object.fromEntries(
    pods.items.map((p) => [
      p.metadata.name ?? "",
      [p.metadata.uid ?? "", p.spec.nodeName ?? "", p.status?.phase ?? ""],
    ]),
  );
}

test("restart everything: etcd, API servers and components come back to the same state", {
  timeout: 240_000,
}, async () => {
  const root = mkdtempSync(join(tmpdir(), "gantry-ha-restart-"));
  const apiDirs = [join(root, "api-0"), join(root, "api-1")];
  const etcd = await startEtcd({ members: 3, dataDir: join(root, "etcd") });
  let servers: GantryProcess[] = [];
  let components: ComponentProcess[] = [];
  let client: HttpClient | undefined;
  const startServers = async (ports: readonly number[] = [0, 0]): Promise<void> => {
    servers = await Promise.all(
      apiDirs.map((dataDir, i) =>
        startGantry({
          command: "apiserver",
          storage: "etcd",
          etcdEndpoints: etcd.endpoints,
          dataDir,
          port: ports[i] ?? 0,
        }),
      ),
    );
    client?.close();
    const first = servers[0];
    assert.ok(first !== undefined, "the first API server runs");
    client = newClient({ server: first.url, token: first.token, userAgent: "gantry/ha-test" });
  };
  const startComponents = (): void => {
    const [a, b] = servers;
    assert.ok(a !== undefined && b !== undefined, "both API servers run");
    const election = [
      "--leader-elect-lease-duration",
      "4s",
      "--leader-elect-renew-deadline",
      "3s",
      "--leader-elect-retry-period",
      "1s",
    ];
    components = [
      startComponentProcess("scheduler", a.kubeconfig, election),
      startComponentProcess("controller-manager", b.kubeconfig, election),
      startComponentProcess("kubelet", b.kubeconfig, [
        "--nodes",
        "2",
        "--port",
        "0",
        "--root-dir",
        join(root, "kubelet"),
      ]),
    ];
  };
  const stopComponents = async (): Promise<void> => {
    await Promise.all(components.map((c) => c.stop()));
    for (const c of components) assert.equal(await c.exit, 0, `a component failed:\n${c.logs()}`);
    components = [];
  };
  try {
    await startServers();
    startComponents();
    const api = (): HttpClient => client ?? assert.fail("no client");
    await api().create(namespacesResource, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: namespace },
    });
    await api().create(deploymentsResource, {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace },
      spec: {
        replicas,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: { containers: [{ name: "web", image: "nginx" }] },
        },
      },
    });
    const before = await eventually(async () => {
      const places = await podPlaces(api());
      const running = Object.values(places).filter(
        ([, node, phase]) => node !== "" && phase === "Running",
      );
      assert.equal(running.length, replicas, `pods running: ${JSON.stringify(places)}`);
      return places;
    }, 90_000);

    // Components stop first (releasing their leases), so nothing changes while we look.
    await stopComponents();
    const state = await snapshot(api());
    const ports = servers.map((s) => Number(new URL(s.url).port));
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all(etcd.members.map((m) => m.kill()));

    await Promise.all(etcd.members.map((m) => m.restart()));
    await startServers(ports);
    assert.deepEqual(await snapshot(api()), state, "the same objects at the same resourceVersions");
    for (const server of servers) {
      const other = newClient({
        server: server.url,
        token: server.token,
        userAgent: "gantry/ha-test",
      });
      try {
        assert.deepEqual(await snapshot(other), state, `${server.url} serves the same state`);
      } finally {
        other.close();
      }
    }

    startComponents();
    // Back at work: the kubelets registered and synced their pods again, and the scheduler and
    // controller-manager lead again (their leases were released on the clean stop).
    const [scheduler, controllerManager, kubelet] = components;
    assert.ok(
      scheduler !== undefined && controllerManager !== undefined && kubelet !== undefined,
      "the three components run",
    );
    await kubelet.waitForLog(/Kubelets are running/, 60_000);
    await scheduler.waitForLog(/successfully acquired lease kube-system\/kube-scheduler/, 60_000);
    await controllerManager.waitForLog(
      /successfully acquired lease kube-system\/kube-controller-manager/,
      60_000,
    );
    const nodes = await api().list<Node>(nodesResource, undefined);
    for (const node of nodes.items) {
      const ready = node.status?.conditions?.find((c) => c.type === "Ready");
      assert.equal(ready?.status, "True", `node ${node.metadata.name} should be Ready`);
    }
    const lease = await api().get<Lease>(leasesResource, "kube-system", "kube-scheduler");
    assert.equal(
      lease.spec?.leaseTransitions,
      1,
      "the restarted scheduler took the released lease",
    );
    assert.deepEqual(await podPlaces(api()), before, "the same pods, Running on the same nodes");
  } finally {
    await Promise.allSettled(components.map((c) => c.stop()));
    client?.close();
    await Promise.allSettled(servers.map((s) => s.stop()));
    await etcd.close();
    rmSync(root, { recursive: true, force: true });
  }
});
