import assert from "node:assert/strict";
import { test } from "node:test";
import type { CadvisorNode } from "./cadvisor.ts";
import { discoverTopology } from "./discover.ts";
import { cadvisorNodesFromRecords } from "./machine.ts";
import { findPreset, presetNames } from "./presets.ts";
import { readTopology } from "./read.ts";
import { CpuTopology } from "./topology.ts";

const presetCounts = [
  { name: "amd-epyc-9654-2s", cpus: 384, cores: 192, sockets: 2, numa: 2, uncore: 24, perCore: 2 },
  { name: "amd-epyc-7763-1s", cpus: 128, cores: 64, sockets: 1, numa: 1, uncore: 8, perCore: 2 },
  { name: "intel-xeon-8380-2s", cpus: 160, cores: 80, sockets: 2, numa: 2, uncore: 2, perCore: 2 },
  { name: "aws-graviton3", cpus: 64, cores: 64, sockets: 1, numa: 1, uncore: 1, perCore: 1 },
  { name: "split-l3-2s-16c-smt2", cpus: 64, cores: 32, sockets: 2, numa: 2, uncore: 4, perCore: 2 },
  {
    name: "dual-socket-multi-numa-ht",
    cpus: 80,
    cores: 40,
    sockets: 2,
    numa: 4,
    uncore: 1,
    perCore: 2,
  },
] as const;

for (const c of presetCounts) {
  test(`discoverTopology: preset ${c.name} has the counts of its machine`, () => {
    const preset = findPreset(c.name);
    assert.ok(preset !== undefined, `preset ${c.name} exists`);
    const t = discoverTopology(
      cadvisorNodesFromRecords(preset.records(), { caches: preset.caches }),
    );
    assert.deepEqual(
      [t.numCpus, t.numCores, t.numSockets, t.numNumaNodes, t.numUncoreCaches, t.cpusPerCore()],
      [c.cpus, c.cores, c.sockets, c.numa, c.uncore, c.perCore],
    );
  });
}

test("presetNames: every preset reads and has a description", () => {
  for (const name of presetNames()) {
    const read = readTopology(name, "topology");
    assert.ok(read.ok, `${name} reads`);
    assert.ok((findPreset(name)?.description.length ?? 0) > 20, `${name} is described`);
  }
});

test("discoverTopology: the core id is the lowest thread and the uncore the first uncore cache", () => {
  const nodes: CadvisorNode[] = [
    {
      node_id: 0,
      memory: 0,
      hugepages: [],
      caches: [],
      distances: [10],
      cores: [
        {
          core_id: 0,
          thread_ids: [9, 1],
          caches: [],
          uncore_caches: [
            { id: 7, size: 1, type: "Unified", level: 3 },
            { id: 8, size: 1, type: "Unified", level: 3 },
          ],
          socket_id: 1,
        },
        { core_id: 1, thread_ids: [2], caches: [], uncore_caches: [], socket_id: 3 },
      ],
    },
  ];
  const t = discoverTopology(nodes);
  assert.deepEqual(t.records(), [
    { cpu: 1, core: 1, socket: 1, numa: 0, uncore: 7 },
    { cpu: 2, core: 2, socket: 3, numa: 0, uncore: 3 },
    { cpu: 9, core: 1, socket: 1, numa: 0, uncore: 7 },
  ]);
});

const discoverErrors = [
  { name: "a core without threads", threads: [], want: "no cpus provided" },
  {
    name: "a thread listed twice in a core",
    threads: [3, 3],
    want: "cpus provided are not unique",
  },
] as const;

for (const c of discoverErrors) {
  test(`discoverTopology: ${c.name} is refused with upstream's message`, () => {
    const nodes: CadvisorNode[] = [
      {
        node_id: 0,
        memory: 0,
        hugepages: [],
        caches: [],
        distances: [],
        cores: [{ core_id: 0, thread_ids: c.threads, caches: [], uncore_caches: [], socket_id: 0 }],
      },
    ];
    assert.throws(() => discoverTopology(nodes), { message: c.want });
  });
}

test("discoverTopology: a machine without CPUs is refused with upstream's message", () => {
  assert.throws(() => discoverTopology([]), { message: "could not detect number of cpus" });
});

test("cadvisorNodesFromRecords: an L3 spanning exactly the NUMA node is a node cache, so the kubelet uses the socket id", () => {
  const records = Array.from({ length: 8 }, (_, cpu) => ({
    cpu,
    core: cpu % 4,
    socket: cpu < 4 ? 5 : 6,
    numa: cpu < 4 ? 0 : 1,
    uncore: cpu < 4 ? 40 : 41,
  }));
  const nodes = cadvisorNodesFromRecords(records);
  assert.deepEqual(
    nodes.map((n) => [n.caches.map((c) => c.id), n.cores.map((c) => c.uncore_caches.length)]),
    [
      [[40], [0, 0, 0, 0]],
      [[41], [0, 0, 0, 0]],
    ],
  );
  assert.deepEqual(discoverTopology(nodes).uncoreCaches(), [5, 6]);
});

test("cadvisorNodesFromRecords: a split L3 stays an uncore cache of each core", () => {
  const records = Array.from({ length: 8 }, (_, cpu) => ({
    cpu,
    core: cpu,
    socket: 0,
    numa: 0,
    uncore: cpu < 4 ? 0 : 1,
  }));
  const nodes = cadvisorNodesFromRecords(records, { memoryBytes: 1024 });
  assert.equal(nodes[0]?.memory, 1024);
  assert.deepEqual(nodes[0]?.caches, []);
  assert.deepEqual(
    nodes[0]?.cores.map((c) => c.uncore_caches.map((u) => u.id)),
    [[0], [0], [0], [0], [1], [1], [1], [1]],
  );
  assert.deepEqual(
    discoverTopology(nodes)
      .records()
      .map((r) => r.uncore),
    [0, 0, 0, 0, 1, 1, 1, 1],
  );
});

test("readTopology: the flat form, a preset, {preset}, and cAdvisor's MachineInfo agree", () => {
  const preset = findPreset("uncore-single-socket-smt");
  assert.ok(preset !== undefined, "preset exists");
  const flat = readTopology({ cpus: preset.records() }, "t");
  const named = readTopology("uncore-single-socket-smt", "t");
  const wrapped = readTopology({ preset: "uncore-single-socket-smt" }, "t");
  assert.ok(flat.ok && named.ok && wrapped.ok, "all forms read");
  const machineInfo = readTopology(
    { num_cores: 16, topology: JSON.parse(JSON.stringify(flat.nodes)) },
    "t",
  );
  assert.ok(machineInfo.ok, "MachineInfo reads");
  const recordsOf = (nodes: readonly CadvisorNode[]) => discoverTopology(nodes).records();
  assert.deepEqual(recordsOf(flat.nodes), recordsOf(named.nodes));
  assert.deepEqual(recordsOf(flat.nodes), recordsOf(wrapped.nodes));
  assert.deepEqual(recordsOf(flat.nodes), recordsOf(machineInfo.nodes));
  assert.deepEqual([flat.form, named.form, machineInfo.form], ["flat", "preset", "cadvisor"]);
});

const readProblems = [
  {
    name: "an unknown preset",
    value: "epyc",
    want: /^t: unknown topology preset "epyc"; use one of amd-epyc-9654-2s, /,
  },
  {
    name: "a flat CPU listed twice",
    value: {
      cpus: [
        { cpu: 0, core: 0, socket: 0, numa: 0, uncore: 0 },
        { cpu: 0, core: 1, socket: 0, numa: 0, uncore: 0 },
      ],
    },
    want: /^t\.cpus\[1\]\.cpu: CPU 0 is listed twice$/,
  },
  {
    name: "a flat field missing",
    value: { cpus: [{ cpu: 0, core: 0, socket: 0, numa: 0 }] },
    want: /^t\.cpus\[0\]\.uncore: must be a whole number ≥ 0$/,
  },
  { name: "an empty flat list", value: { cpus: [] }, want: /^t\.cpus: must be a non-empty list/ },
  {
    name: "a MachineInfo without cores",
    value: { topology: [{ node_id: 0 }] },
    want: /^t\.topology\[0\]\.cores: must be a non-empty list/,
  },
  { name: "something else", value: { sockets: 2 }, want: /^t: must be a preset name/ },
] as const;

for (const c of readProblems) {
  test(`readTopology: ${c.name} is a problem with its path`, () => {
    const read = readTopology(c.value, "t");
    assert.ok(!read.ok, "refused");
    assert.match(read.problems[0] ?? "", c.want);
  });
}

test("CpuTopology.fromRecords: counts come from the CPU list", () => {
  const t = CpuTopology.fromRecords([
    { cpu: 0, core: 0, socket: 0, numa: 0, uncore: 0 },
    { cpu: 1, core: 0, socket: 0, numa: 0, uncore: 0 },
    { cpu: 2, core: 2, socket: 0, numa: 1, uncore: 1 },
  ]);
  assert.deepEqual(
    [t.numCpus, t.numCores, t.numSockets, t.numNumaNodes, t.numUncoreCaches],
    [3, 2, 1, 2, 2],
  );
  assert.equal(t.cpusPerCore(), 1);
  assert.deepEqual(t.socketsInNumaNodes(0, 1), [0]);
  assert.equal(t.areNumaNodesInSameSocket([0, 1]), true);
  assert.equal(t.areNumaNodesInSameSocket([0, 5]), false);
  assert.throws(
    () =>
      CpuTopology.fromRecords([
        { cpu: 0, core: 0, socket: 0, numa: 0, uncore: 0 },
        { cpu: 0, core: 0, socket: 0, numa: 0, uncore: 0 },
      ]),
    { message: "Cannot use CPU 0: it is listed twice" },
  );
});

test("CpuTopology.domainsIn: whether every domain a list touches lies inside it", () => {
  const t = CpuTopology.fromRecords([
    { cpu: 0, core: 0, socket: 0, numa: 0, uncore: 0 },
    { cpu: 1, core: 1, socket: 0, numa: 0, uncore: 0 },
    { cpu: 2, core: 2, socket: 0, numa: 1, uncore: 0 },
    { cpu: 3, core: 3, socket: 0, numa: 1, uncore: 1 },
  ]);
  assert.deepEqual(
    [
      t.domainsIn(t.cpuListOfSocket(0), "core"),
      t.domainsIn(t.cpuListOfNuma(0), "uncore"),
      t.domainsIn(t.cpuList, "numa"),
    ],
    [
      { ids: [0, 1, 2, 3], contained: true },
      { ids: [0], contained: false },
      { ids: [0, 1], contained: true },
    ],
    "an L3 spanning two NUMA nodes is not contained in either",
  );
  assert.equal(t.domainsIn(t.cpuList, "numa"), t.domainsIn(t.cpuList, "numa"), "remembered");
  assert.deepEqual([...t.dense("uncore").of], [0, 0, 0, 1]);
});
