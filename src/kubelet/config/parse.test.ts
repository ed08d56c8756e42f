import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { fileURLToPath } from "node:url";
import { presetNames } from "../cpumanager/topology/presets.ts";
import {
  defaultClusterConfig,
  defaultKubeletSettings,
  type NodePool,
  poolNodeNames,
} from "./cluster-config.ts";
import { defaultControllerManagerSettings } from "./controller-manager-settings.ts";
import { ClusterConfigError, parseClusterConfig } from "./parse.ts";

const header = "apiVersion: gantry.dev/v1alpha1\nkind: ClusterConfig\n";

function problemsOf(text: string): readonly string[] {
  try {
    parseClusterConfig(text);
  } catch (error: unknown) {
    if (error instanceof ClusterConfigError) return error.problems;
    throw error;
  }
  return [];
}

function onlyPool(text: string): NodePool {
  const pools = parseClusterConfig(text).nodePools;
  assert.equal(pools.length, 1);
  const pool = pools[0];
  assert.ok(pool !== undefined, "pool !== undefined");
  return pool;
}

test("parseClusterConfig: a pool with only a name gets one default node", () => {
  const pool = onlyPool(`${header}nodePools:\n- name: workers\n`);
  assert.deepEqual(pool, {
    name: "workers",
    count: 1,
    namePrefix: "workers-",
    instanceType: "",
    labels: {},
    annotations: {},
    taints: [],
    capacity: {
      cpu: "4",
      memory: "16Gi",
      "ephemeral-storage": "100Gi",
      "hugepages-1Gi": "0",
      "hugepages-2Mi": "0",
      pods: "110",
    },
    allocatable: {
      cpu: "4",
      memory: "16Gi",
      "ephemeral-storage": "100Gi",
      "hugepages-1Gi": "0",
      "hugepages-2Mi": "0",
      pods: "110",
    },
    kubelet: defaultKubeletSettings,
  });
  assert.deepEqual(poolNodeNames(pool), ["workers-0"]);
});

test("parseClusterConfig: every field of a pool is read and reservations come off allocatable", () => {
  const pool = onlyPool(`${header}
networking:
  podSubnet: 10.244.0.0/16
nodePools:
- name: gpu
  count: 2
  namePrefix: gpu-node-
  instanceType: g5.xlarge
  labels: {accelerator: nvidia}
  annotations: {team: ml}
  taints:
  - {key: nvidia.com/gpu, value: "true", effect: NoSchedule}
  capacity: {cpu: 8, memory: 32Gi, nvidia.com/gpu: 4}
  kubelet:
    cpuManagerPolicy: static
    cpuManagerPolicyOptions: {full-pcpus-only: true}
    reservedSystemCPUs: "0,1"
    maxPods: 50
    systemReserved: {cpu: 500m, memory: 1Gi}
    kubeReserved: {cpu: 500m, memory: 1Gi}
    podStartDelay: 2s
    podStopDelay: 0s
    nodeStatusUpdateFrequency: 1m
    nodeLeaseDurationSeconds: 20
`);
  assert.deepEqual(
    {
      names: poolNodeNames(pool),
      instanceType: pool.instanceType,
      labels: pool.labels,
      annotations: pool.annotations,
      taints: pool.taints,
      capacity: pool.capacity,
      allocatable: pool.allocatable,
      kubelet: pool.kubelet,
    },
    {
      names: ["gpu-node-0", "gpu-node-1"],
      instanceType: "g5.xlarge",
      labels: { accelerator: "nvidia" },
      annotations: { team: "ml" },
      taints: [{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }],
      capacity: {
        cpu: "8",
        memory: "32Gi",
        "ephemeral-storage": "100Gi",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "nvidia.com/gpu": "4",
        pods: "50",
      },
      allocatable: {
        cpu: "6",
        memory: "30Gi",
        "ephemeral-storage": "100Gi",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "nvidia.com/gpu": "4",
        pods: "50",
      },
      kubelet: {
        ...defaultKubeletSettings,
        cpuManagerPolicy: "static",
        cpuManagerPolicyOptions: { "full-pcpus-only": "true" },
        reservedSystemCPUs: "0,1",
        maxPods: 50,
        systemReserved: { cpu: "500m", memory: "1Gi" },
        kubeReserved: { cpu: "500m", memory: "1Gi" },
        podStartDelayMs: 2000,
        podStopDelayMs: 0,
        nodeStatusUpdateFrequencyMs: 60_000,
        nodeLeaseDurationSeconds: 20,
      },
    },
  );
});

test("parseClusterConfig: a cAdvisor topology sets capacity.cpu to its CPU count", () => {
  const pool = onlyPool(`${header}nodePools:
- name: smt
  topology:
    topology:
    - node_id: 0
      cores:
      - {core_id: 0, socket_id: 0, thread_ids: [0, 2]}
      - {core_id: 1, socket_id: 0, thread_ids: [1, 3]}
`);
  assert.equal(pool.capacity["cpu"], "4");
  assert.deepEqual(pool.topology?.["topology"] !== undefined, true);
});

const topologyForms = [
  { name: "a preset name", topology: "amd-epyc-7763-1s", cpu: "128" },
  { name: "a preset mapping", topology: "{preset: uncore-single-socket-smt}", cpu: "16" },
  {
    name: "the flat CPU list",
    topology:
      "{cpus: [{cpu: 0, core: 0, socket: 0, numa: 0, uncore: 0}, {cpu: 1, core: 0, socket: 0, numa: 0, uncore: 0}]}",
    cpu: "2",
  },
] as const;

for (const c of topologyForms) {
  test(`parseClusterConfig: ${c.name} as topology sets capacity.cpu`, () => {
    const pool = onlyPool(`${header}nodePools:\n- name: a\n  topology: ${c.topology}\n`);
    assert.equal(pool.capacity["cpu"], c.cpu);
  });
}

test("parseClusterConfig: a topology file is read relative to the config", () => {
  const read: string[] = [];
  const config = parseClusterConfig(
    `${header}nodePools:\n- name: a\n  topology: {file: epyc.json}\n`,
    {
      source: "/etc/gantry/cluster.yaml",
      readFile: (path) => {
        read.push(path);
        return '{"preset": "amd-epyc-9654-2s"}';
      },
    },
  );
  assert.deepEqual(read, ["epyc.json"]);
  assert.equal(config.nodePools[0]?.capacity["cpu"], "384");
  assert.deepEqual(config.nodePools[0]?.topology, { preset: "amd-epyc-9654-2s" });
});

test("parseClusterConfig: reservedSystemCPUs replaces the CPU reservations in allocatable", () => {
  const pool = onlyPool(
    `${header}nodePools:\n- name: a\n  capacity: {cpu: 8}\n  kubelet: {reservedSystemCPUs: "0-2", kubeReserved: {cpu: 500m}, systemReserved: {cpu: "1"}}\n`,
  );
  assert.equal(pool.allocatable["cpu"], "5");
});

test("parseClusterConfig: explicit allocatable is taken as given", () => {
  const pool = onlyPool(
    `${header}nodePools:\n- name: a\n  capacity: {cpu: 4}\n  allocatable: {cpu: 3800m}\n`,
  );
  assert.equal(pool.allocatable["cpu"], "3800m");
});

test("parseClusterConfig: nodePools: [] is a cluster without emulated nodes", () => {
  assert.deepEqual(parseClusterConfig(`${header}nodePools: []\n`).nodePools, []);
});

test("defaultClusterConfig: N nodes named node-0 … in one default pool", () => {
  const config = defaultClusterConfig(2);
  assert.deepEqual(config.nodePools.map(poolNodeNames), [["node-0", "node-1"]]);
  assert.deepEqual(defaultClusterConfig(0).nodePools, []);
  assert.equal(defaultClusterConfig().nodePools[0]?.count, 3);
});

test("parseClusterConfig: controllerManager settings are read and the rest defaulted", () => {
  const config = parseClusterConfig(
    `${header}nodePools: []\ncontrollerManager:\n  nodeMonitorPeriod: 500ms\n  nodeMonitorGracePeriod: 4s\n  nodeEvictionRate: 1\n  terminatedPodGCThreshold: 10\n`,
  );
  assert.deepEqual(config.controllerManager, {
    ...defaultControllerManagerSettings,
    nodeMonitorPeriodMs: 500,
    nodeMonitorGracePeriodMs: 4000,
    nodeEvictionRate: 1,
    terminatedPodGcThreshold: 10,
  });
  assert.deepEqual(
    parseClusterConfig(`${header}nodePools: []\n`).controllerManager,
    defaultControllerManagerSettings,
  );
  assert.deepEqual(defaultClusterConfig(1).controllerManager, defaultControllerManagerSettings);
});

const errorCases: readonly { name: string; text: string; want: readonly string[] }[] = [
  {
    name: "a topology in an unknown form",
    text: `${header}nodePools:\n- name: a\n  topology: {sockets: 2, coresPerSocket: 8}\n`,
    want: [
      "nodePools[0].topology: unknown topology form; use a preset name, {preset: NAME}, {file: PATH}, {cpus: [{cpu, core, socket, numa, uncore}, …]} or cAdvisor's MachineInfo (with a topology list)",
    ],
  },
  {
    name: "an unknown preset",
    text: `${header}nodePools:\n- name: a\n  topology: epyc\n`,
    want: [
      `nodePools[0].topology: unknown topology preset "epyc"; use one of ${presetNames().join(", ")}`,
    ],
  },
  {
    name: "a static policy without a CPU reservation",
    text: `${header}nodePools:\n- name: a\n  kubelet: {cpuManagerPolicy: static}\n`,
    want: [
      "nodePools[0].kubelet: [cpumanager] unable to determine reserved CPU resources for static policy; set kubelet.kubeReserved.cpu, kubelet.systemReserved.cpu or kubelet.reservedSystemCPUs",
    ],
  },
  {
    name: "a static policy with a zero CPU reservation",
    text: `${header}nodePools:\n- name: a\n  kubelet: {cpuManagerPolicy: static, kubeReserved: {cpu: "0"}}\n`,
    want: [
      "nodePools[0].kubelet: [cpumanager] the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero; set kubelet.kubeReserved.cpu, kubelet.systemReserved.cpu or kubelet.reservedSystemCPUs",
    ],
  },
  {
    name: "an alpha CPU manager option without its feature gate",
    text: `${header}nodePools:\n- name: a\n  kubelet: {cpuManagerPolicy: static, kubeReserved: {cpu: "1"}, cpuManagerPolicyOptions: {align-by-socket: "true"}}\n`,
    want: [
      'nodePools[0].kubelet: CPU Manager Policy Alpha-level Options not enabled, but option "align-by-socket" provided; set kubelet.featureGates.CPUManagerPolicyAlphaOptions: true',
    ],
  },
  {
    name: "conflicting CPU manager options",
    text: `${header}nodePools:\n- name: a\n  kubelet: {cpuManagerPolicy: static, kubeReserved: {cpu: "1"}, featureGates: {CPUManagerPolicyAlphaOptions: true}, cpuManagerPolicyOptions: {full-pcpus-only: "true", distribute-cpus-across-cores: "true"}}\n`,
    want: [
      "nodePools[0].kubelet: static policy options full-pcpus-only and distribute-cpus-across-cores can not be used at the same time",
    ],
  },
  {
    name: "options with the none policy",
    text: `${header}nodePools:\n- name: a\n  kubelet: {cpuManagerPolicyOptions: {full-pcpus-only: "true"}}\n`,
    want: [
      "nodePools[0].kubelet.cpuManagerPolicyOptions: None policy: received unsupported options=map[full-pcpus-only:true]; set cpuManagerPolicy: static or drop the options",
    ],
  },
  {
    name: "an unknown feature gate",
    text: `${header}nodePools:\n- name: a\n  kubelet: {featureGates: {CPUManagerPolicyAlphaOption: true}}\n`,
    want: [
      'nodePools[0].kubelet.featureGates.CPUManagerPolicyAlphaOption: unrecognized feature gate: CPUManagerPolicyAlphaOption; did you mean "CPUManagerPolicyAlphaOptions"?',
    ],
  },
  {
    name: "controllerManager values out of range",
    text: `${header}nodePools: []\ncontrollerManager: {nodeMonitorPeriod: 0, nodeEvictionRate: -1, unhealthyZoneThreshold: 2, nodeMonitorGracePriod: 1s}\n`,
    want: [
      'controllerManager.nodeMonitorGracePriod: unknown field; did you mean "nodeMonitorGracePeriod"?',
      "controllerManager.nodeMonitorPeriod: must be longer than 0s",
      "controllerManager.nodeEvictionRate: must be a number ≥ 0, got -1",
      "controllerManager.unhealthyZoneThreshold: must be a number from 0 to 1, got 2",
    ],
  },
  {
    name: "a grace period shorter than the monitor period",
    text: `${header}nodePools: []\ncontrollerManager: {nodeMonitorPeriod: 10s, nodeMonitorGracePeriod: 5s}\n`,
    want: [
      "controllerManager.nodeMonitorGracePeriod: 5s is shorter than nodeMonitorPeriod 10s; make the grace period several monitor periods long",
    ],
  },
  {
    name: "kubelets renewing their Lease less often than the grace period",
    text: `${header}nodePools:\n- name: a\ncontrollerManager: {nodeMonitorPeriod: 1s, nodeMonitorGracePeriod: 5s}\n`,
    want: [
      "nodePools[0].kubelet.nodeLeaseDurationSeconds: the Lease is renewed every 10s, not within controllerManager.nodeMonitorGracePeriod 5s, so healthy nodes would be marked Unknown; use a shorter one, such as 10",
    ],
  },
  {
    name: "wrong apiVersion and kind",
    text: "apiVersion: v1\nkind: Config\nnodePools: []\n",
    want: [
      'apiVersion: must be gantry.dev/v1alpha1, got "v1"',
      'kind: must be ClusterConfig, got "Config"',
    ],
  },
  {
    name: "missing nodePools",
    text: header,
    want: [
      "nodePools: required: list the node pools (use [] for a cluster with only nodes you create yourself)",
    ],
  },
  {
    name: "a misspelt field gets a suggestion",
    text: `${header}nodePools:\n- name: a\n  capcity: {cpu: 2}\n`,
    want: ['nodePools[0].capcity: unknown field; did you mean "capacity"?'],
  },
  {
    name: "an unparsable quantity names the path and an example",
    text: `${header}nodePools:\n- name: a\n  capacity: {cpu: four}\n`,
    want: [
      `nodePools[0].capacity.cpu: invalid quantity "four" (quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'); write a quantity such as "4", "500m" or "16Gi"`,
    ],
  },
  {
    name: "a fractional extended resource",
    text: `${header}nodePools:\n- name: a\n  capacity: {example.com/fpga: 500m}\n`,
    want: ["nodePools[0].capacity[example.com/fpga]: must be a whole number, got 500m"],
  },
  {
    name: "an unknown bare resource name",
    text: `${header}nodePools:\n- name: a\n  capacity: {cpus: 2}\n`,
    want: ['nodePools[0].capacity.cpus: unknown resource; did you mean "cpu"?'],
  },
  {
    name: "a negative count and a bad pool name",
    text: `${header}nodePools:\n- name: Big_Pool\n  count: -1\n`,
    want: [
      `nodePools[0].name: invalid name "Big_Pool": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      "nodePools[0].count: must be a whole number between 0 and 100000, got number -1",
    ],
  },
  {
    name: "an invalid duration and an unknown policy",
    text: `${header}nodePools:\n- name: a\n  kubelet: {podStartDelay: 5 seconds, cpuManagerPolicy: statc}\n`,
    want: [
      'nodePools[0].kubelet.cpuManagerPolicy: unknown value "statc"; use one of "none", "static" (did you mean "static"?)',
      'nodePools[0].kubelet.podStartDelay: invalid duration "5 seconds"; write a non-negative Go duration such as "500ms", "10s" or "1m30s"',
    ],
  },
  {
    name: "reservations over capacity",
    text: `${header}nodePools:\n- name: a\n  capacity: {cpu: 2}\n  kubelet: {systemReserved: {cpu: 2}, kubeReserved: {cpu: 1}}\n`,
    want: [
      'nodePools[0].kubelet: Resource "cpu" has a reservation of 3 but capacity of 2. Expected capacity >= reservation.',
    ],
  },
  {
    name: "maxPods and capacity.pods disagree",
    text: `${header}nodePools:\n- name: a\n  capacity: {pods: 20}\n  kubelet: {maxPods: 30}\n`,
    want: ["nodePools[0].capacity.pods: says 20 but kubelet.maxPods says 30; set only one of them"],
  },
  {
    name: "allocatable with reservations, and above capacity",
    text: `${header}nodePools:\n- name: a\n  capacity: {cpu: 2}\n  allocatable: {cpu: 3}\n  kubelet: {kubeReserved: {cpu: 1}}\n`,
    want: [
      "nodePools[0].allocatable: set either allocatable or kubelet.systemReserved/kubeReserved/evictionHard, not both",
      "nodePools[0].allocatable.cpu: 3 is more than the capacity 2; allocatable may only hold back",
    ],
  },
  {
    name: "two pools making the same node names",
    text: `${header}nodePools:\n- {name: a, namePrefix: n-}\n- {name: b, namePrefix: n-}\n`,
    want: [
      'nodePools[1].namePrefix: node "n-0" is also made by nodePools[0]; give the pools different namePrefix values',
    ],
  },
  {
    name: "more nodes than node ranges",
    text: `${header}networking: {podSubnet: 10.0.0.0/23}\nnodePools:\n- {name: a, count: 3}\n`,
    want: [
      "networking: podSubnet 10.0.0.0/23 holds 2 node ranges of /24 but the pools have 3 nodes; use a larger podSubnet or a larger nodeCIDRMaskSize",
    ],
  },
  {
    name: "a cAdvisor topology whose num_cores disagrees with its CPUs",
    text: `${header}nodePools:\n- name: a\n  topology:\n    num_cores: 8\n    topology:\n    - {node_id: 0, cores: [{core_id: 0, socket_id: 0, thread_ids: [0, 1]}]}\n`,
    want: [
      "nodePools[0].topology.num_cores: says 8 but the topology lists 2 CPUs; drop num_cores or fix it",
    ],
  },
  {
    name: "a taint without an effect",
    text: `${header}nodePools:\n- name: a\n  taints: [{key: dedicated}]\n`,
    want: ["nodePools[0].taints[0].effect: Required value"],
  },
  {
    name: "a YAML syntax error",
    text: `${header}nodePools: [\n`,
    want: [
      "not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 1:",
    ],
  },
];

for (const c of errorCases) {
  test(`parseClusterConfig: rejects ${c.name}`, () => {
    assert.deepEqual(problemsOf(c.text), c.want);
  });
}

test("parseClusterConfig: examples/cluster.yaml is valid", () => {
  const path = fileURLToPath(new URL("../../../examples/cluster.yaml", import.meta.url));
  const config = parseClusterConfig(readFileSync(path, "utf8"), { source: path });
  assert.deepEqual(
    config.nodePools.map((p) => [p.name, p.count, p.capacity["cpu"], p.allocatable["cpu"]]),
    [
      ["workers", 3, "8", "7"],
      ["gpu", 2, "16", "15500m"],
      ["pinned", 1, "8", "6"],
    ],
  );
});
