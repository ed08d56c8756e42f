import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { errorMessage } from "../../util/index.ts";
import { defaultKubeletSettings, type KubeletSettings } from "../config/cluster-config.ts";
import { flatMachineTopology } from "../machine/machine-info.ts";
import { newCpuManagerAdmitHandlers } from "./admit-handlers.ts";
import { type CheckpointStore, CpuManager, reservedCpuCount } from "./cpu-manager.ts";
import { testPod } from "./internal/test-pods.ts";
import { fixture } from "./topology/fixtures.ts";

function memoryStore(
  path = "/data/nodes/n/cpu_manager_state",
): CheckpointStore & { text: string | undefined } {
  const store = {
    path,
    text: undefined as string | undefined,
    read: () => store.text,
    write: (text: string) => {
      store.text = text;
    },
  };
  return store;
}

const staticSettings = (extra: Partial<KubeletSettings> = {}): KubeletSettings => ({
  ...defaultKubeletSettings,
  cpuManagerPolicy: "static",
  kubeReserved: { cpu: "1" },
  ...extra,
});

function admit(manager: CpuManager, pod: Pod, others: readonly Pod[] = [], restoring = false) {
  return manager.admit({
    pod,
    otherPods: others,
    node: { apiVersion: "v1", kind: "Node", metadata: { name: "n" } },
    restoring,
  });
}

function entriesOf(store: { text: string | undefined }): unknown {
  return (JSON.parse(store.text ?? "{}") as { entries?: unknown }).entries;
}

test("CpuManager.admit: exclusive CPUs per container, checkpointed; release gives them back", () => {
  const store = memoryStore();
  const manager = CpuManager.open({
    kubelet: staticSettings({
      cpuManagerPolicyOptions: { "prefer-align-cpus-by-uncorecache": "true" },
    }),
    topology: fixture("split-l3-2s-16c-smt2"),
    checkpoint: store,
  });
  const pod = testPod("uid-1", [
    { name: "db", cpu: "16" },
    { name: "sidecar-log", cpu: "500m" },
  ]);
  assert.deepEqual(admit(manager, pod), { admit: true });
  assert.deepEqual(entriesOf(store), { "uid-1": { db: "8-15,40-47" } });
  manager.release(pod);
  const released = JSON.parse(store.text ?? "{}") as Record<string, unknown>;
  assert.deepEqual(
    { ...released, checksum: typeof released["checksum"] },
    { policyName: "static", defaultCpuSet: "0-63", checksum: "number" },
  );
});

test("CpuManager.admit: an SMT alignment failure refuses the pod with upstream's reason", () => {
  const manager = CpuManager.open({
    kubelet: staticSettings({ cpuManagerPolicyOptions: { "full-pcpus-only": "true" } }),
    topology: fixture("single-socket-ht"),
  });
  assert.deepEqual(admit(manager, testPod("u", [{ name: "app", cpu: "3" }])), {
    admit: false,
    reason: "SMTAlignmentError",
    message: "SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2",
  });
});

test("CpuManager.admit: a pod that does not fit is refused and its earlier containers released", () => {
  const store = memoryStore();
  const manager = CpuManager.open({
    kubelet: staticSettings(),
    topology: fixture("single-socket-ht"),
    checkpoint: store,
  });
  const pod = testPod("u", [
    { name: "a", cpu: "4" },
    { name: "b", cpu: "4" },
  ]);
  assert.deepEqual(admit(manager, pod), {
    admit: false,
    reason: "UnexpectedAdmissionError",
    message:
      "Allocate failed due to not enough cpus available to satisfy request: requested=4, available=3, which is unexpected",
  });
  assert.equal(manager.state.defaultCpuSet().toString(), "0-7");
  assert.equal(entriesOf(store), undefined);
});

test("CpuManager.open: a restart restores assignments and re-admission keeps them", () => {
  const store = memoryStore();
  const kubelet = staticSettings();
  const first = CpuManager.open({
    kubelet,
    topology: fixture("dual-socket-ht"),
    checkpoint: store,
  });
  const a = testPod("a", [{ name: "app", cpu: "2" }]);
  const b = testPod("b", [{ name: "app", cpu: "4" }]);
  assert.ok(admit(first, a).admit, "a admitted");
  assert.ok(admit(first, b, [a]).admit, "b admitted");
  const before = store.text;
  const second = CpuManager.open({
    kubelet,
    topology: fixture("dual-socket-ht"),
    checkpoint: store,
  });
  assert.equal(store.text, before);
  assert.ok(admit(second, a, [], true).admit, "a re-admitted");
  assert.ok(admit(second, b, [a], true).admit, "b re-admitted");
  assert.equal(store.text, before);
  // A new pod drops the assignments of pods that are gone (b finished while the node was down).
  assert.ok(admit(second, testPod("c", [{ name: "app", cpu: "1" }]), [a]).admit, "c admitted");
  assert.deepEqual(Object.keys(entriesOf(store) as object).sort(), ["a", "c"]);
});

test("CpuManager.open: a checkpoint of another policy is refused with upstream's message", () => {
  const store = memoryStore("/data/nodes/n/cpu_manager_state");
  CpuManager.open({
    kubelet: defaultKubeletSettings,
    topology: fixture("dual-socket-ht"),
    checkpoint: store,
  });
  assert.equal(store.text, '{"policyName":"none","defaultCpuSet":"","checksum":1353318690}');
  assert.throws(
    () =>
      CpuManager.open({
        kubelet: staticSettings(),
        topology: fixture("dual-socket-ht"),
        checkpoint: store,
      }),
    {
      message:
        'could not restore state from checkpoint: configured policy "static" differs from state checkpoint policy "none", please drain this node and delete the CPU manager checkpoint file "/data/nodes/n/cpu_manager_state" before restarting Kubelet',
    },
  );
});

const reservedCases = [
  {
    name: "reservedSystemCPUs counts its CPUs",
    kubelet: { reservedSystemCPUs: "0,4" },
    want: "2 0,4",
  },
  {
    name: "kube and system reserved are added and rounded up",
    kubelet: { kubeReserved: { cpu: "500m" }, systemReserved: { cpu: "700m" } },
    want: "2 ",
  },
  {
    name: "no CPU reservation",
    kubelet: {},
    want: "[cpumanager] unable to determine reserved CPU resources for static policy",
  },
  {
    name: "a zero CPU reservation",
    kubelet: { systemReserved: { cpu: "0" } },
    want: "[cpumanager] the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero",
  },
] as const;

for (const c of reservedCases) {
  test(`reservedCpuCount: ${c.name}`, () => {
    let got: string;
    try {
      const r = reservedCpuCount({ ...defaultKubeletSettings, ...c.kubelet });
      got = `${r.count} ${r.cpus.toString()}`;
    } catch (error: unknown) {
      got = errorMessage(error);
    }
    assert.equal(got, c.want);
  });
}

test("newCpuManagerAdmitHandlers: a handler for static nodes, none for none nodes without a checkpoint", () => {
  const context = (kubelet: KubeletSettings) => ({
    nodeName: "n",
    pool: "p",
    kubelet,
    machine: flatMachineTopology(4, 0),
    topology: undefined,
  });
  const stores = new Map<string, ReturnType<typeof memoryStore>>();
  const withStores = newCpuManagerAdmitHandlers({
    checkpoints: (node) => {
      const store = memoryStore(`/d/${node}`);
      stores.set(node, store);
      return store;
    },
  });
  assert.deepEqual(newCpuManagerAdmitHandlers()(context(defaultKubeletSettings)), []);
  assert.deepEqual(withStores(context(defaultKubeletSettings)), []);
  assert.equal(
    stores.get("n")?.text,
    '{"policyName":"none","defaultCpuSet":"","checksum":1353318690}',
  );
  const handlers = newCpuManagerAdmitHandlers()(context(staticSettings()));
  assert.deepEqual(
    handlers.map((h) => h.name),
    ["CPUManager"],
  );
});
