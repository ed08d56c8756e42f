import assert from "node:assert/strict";
import { test } from "node:test";
import { CpuSet } from "./cpuset.ts";
import { defaultStaticPolicyOptions, type StaticPolicyOptions } from "./policy-options.ts";
import { takeByTopologyNumaDistributed } from "./take/distributed.ts";
import { takeByTopologyNumaPacked } from "./take/packed.ts";
import { takeByTopology } from "./take-by-topology.ts";
import { fixture } from "./topology/fixtures.ts";

interface Case {
  readonly name: string;
  readonly topology: string;
  readonly available: string;
  readonly count: number;
  /** The chosen CPUs, or `error: <message>`. */
  readonly want: string;
}

const all = (name: string): string => fixture(name).cpus().toString();

function outcome(result: { ok: true; cpus: CpuSet } | { ok: false; message: string }): string {
  return result.ok ? result.cpus.toString() : `error: ${result.message}`;
}

// Upstream's commonTakeByTopologyTestCases: the same answers from the packed allocator and
// from the distributed one with groups of 1 CPU.
const common: readonly Case[] = [
  {
    name: "more CPUs than available is refused",
    topology: "single-socket-ht",
    available: "0,2,4,6",
    count: 5,
    want: "error: not enough cpus available to satisfy request: requested=5, available=4",
  },
  {
    name: "zero CPUs is the empty set",
    topology: "single-socket-ht",
    available: "0-7",
    count: 0,
    want: "",
  },
  {
    name: "one CPU is the lowest of the first core",
    topology: "single-socket-ht",
    available: "0-7",
    count: 1,
    want: "0",
  },
  {
    name: "one CPU fills a partly used core first",
    topology: "single-socket-ht",
    available: "1,3,5-7",
    count: 1,
    want: "6",
  },
  {
    name: "two CPUs are hyperthread siblings",
    topology: "single-socket-ht",
    available: "0-7",
    count: 2,
    want: "0,4",
  },
  {
    name: "all CPUs of a socket",
    topology: "single-socket-ht",
    available: "0-7",
    count: 8,
    want: "0-7",
  },
  {
    name: "two CPUs take the only whole core",
    topology: "single-socket-ht",
    available: "0-3,6",
    count: 2,
    want: "2,6",
  },
  {
    name: "a whole socket of a dual-socket machine",
    topology: "dual-socket-ht",
    available: "0-11",
    count: 6,
    want: "0,2,4,6,8,10",
  },
  {
    name: "a whole socket of two NUMA nodes",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 40,
    want: "0-19,40-59",
  },
  {
    name: "a whole NUMA node",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 20,
    want: "0-9,40-49",
  },
  {
    name: "the next whole NUMA node when one is used",
    topology: "dual-socket-multi-numa-ht",
    available: "10-39,50-79",
    count: 20,
    want: "10-19,50-59",
  },
  {
    name: "a socket and a NUMA node",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 60,
    want: "0-29,40-69",
  },
  {
    name: "a socket and a NUMA node around a used core",
    topology: "dual-socket-multi-numa-ht",
    available: "1-39,41-79",
    count: 60,
    want: "10-39,50-79",
  },
];

const packed: readonly (Case & { readonly uncore?: boolean })[] = [
  ...common,
  {
    name: "one CPU from the socket with fewer free CPUs",
    topology: "dual-socket-ht",
    available: "1-5,7-11",
    count: 1,
    want: "2",
  },
  {
    name: "4 whole cores fill the first NUMA node then spill",
    topology: "dual-socket-ht",
    available: "0-11",
    count: 8,
    want: "0-2,4,6-8,10",
  },
  {
    name: "32 whole cores fill 3 NUMA nodes then spill",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 64,
    want: "0-31,40-71",
  },
  {
    name: "uncore: two whole L3s and a partial one",
    topology: "uncore-single-socket-no-smt",
    available: "1-15",
    count: 10,
    want: "1-2,4-11",
    uncore: true,
  },
  {
    name: "uncore: an odd request gives back the last sibling",
    topology: "dual-socket-ht",
    available: "1-5,7-11",
    count: 1,
    want: "1",
    uncore: true,
  },
  {
    name: "uncore: the first free L3 of the first socket",
    topology: "uncore-dual-socket-no-smt",
    available: "0-15",
    count: 4,
    want: "0-3",
    uncore: true,
  },
  {
    name: "uncore: the rest of the first socket",
    topology: "uncore-dual-socket-no-smt",
    available: "2-15",
    count: 6,
    want: "2-7",
    uncore: true,
  },
  {
    name: "uncore: the first L3 of the second socket",
    topology: "uncore-dual-socket-no-smt",
    available: "8-15",
    count: 4,
    want: "8-11",
    uncore: true,
  },
  {
    name: "uncore: the first L3 that fits in the NUMA node with fewer free CPUs",
    topology: "uncore-single-socket-multi-numa",
    available: "3-8,12",
    count: 2,
    want: "4-5",
    uncore: true,
  },
  {
    name: "uncore: partial L3 skipped when its cores do not add up",
    topology: "uncore-single-socket-smt",
    available: "2-7,10-15",
    count: 6,
    want: "4-6,12-14",
    uncore: true,
  },
  {
    name: "uncore: a whole L3 plus a core from the other",
    topology: "uncore-single-socket-smt",
    available: "1-7,9-15",
    count: 10,
    want: "1,4-7,9,12-15",
    uncore: true,
  },
  {
    name: "uncore: 3 reserved CPUs drop the last sibling",
    topology: "uncore-single-socket-smt",
    available: "0-15",
    count: 3,
    want: "0-1,8",
    uncore: true,
  },
  {
    name: "uncore: KEP-4800 16 CPUs land in exactly one L3 group",
    topology: "split-l3-2s-16c-smt2",
    available: "0-63",
    count: 16,
    want: "0-7,32-39",
    uncore: true,
  },
  {
    name: "uncore: a request larger than a group takes a whole group first",
    topology: "split-l3-2s-16c-smt2",
    available: "0-63",
    count: 24,
    want: "0-11,32-43",
    uncore: true,
  },
  {
    name: "uncore: a whole free L3 rather than cores across two",
    topology: "split-l3-2s-16c-smt2",
    available: "2-31,34-63",
    count: 16,
    want: "8-15,40-47",
    uncore: true,
  },
  {
    name: "without uncore the same request spans two L3 groups",
    topology: "split-l3-2s-16c-smt2",
    available: "2-31,34-63",
    count: 16,
    want: "2-9,34-41",
  },
  {
    name: "uncore: L3 groups with 6 whole cores are skipped for 14 CPUs",
    topology: "large-uncore",
    available: "2-7,10-127,130-135,138-255",
    count: 14,
    want: "16-22,144-150",
    uncore: true,
  },
  {
    name: "uncore: the next 14 CPUs come from the next whole L3",
    topology: "large-uncore",
    available: "2-7,10-15,23-127,130-135,138-143,151-255",
    count: 14,
    want: "24-30,152-158",
    uncore: true,
  },
];

const spread: readonly Case[] = [
  {
    name: "3 CPUs on one socket, one per core",
    topology: "single-socket-ht",
    available: "0-7",
    count: 3,
    want: "0-2",
  },
  {
    name: "2 CPUs of socket 0",
    topology: "dual-socket-ht",
    available: "0-11",
    count: 2,
    want: "0,2",
  },
  {
    name: "3 CPUs of socket 0",
    topology: "dual-socket-ht",
    available: "0-11",
    count: 3,
    want: "0,2,4",
  },
  {
    name: "a whole socket",
    topology: "dual-socket-ht",
    available: "0-11",
    count: 6,
    want: "0,2,4,6,8,10",
  },
  {
    name: "8 CPUs spill to the second socket",
    topology: "dual-socket-ht",
    available: "0-11",
    count: 8,
    want: "0-4,6,8,10",
  },
  {
    name: "2 CPUs without SMT",
    topology: "dual-socket-no-ht",
    available: "0-7",
    count: 2,
    want: "0-1",
  },
  {
    name: "8 CPUs ignore cores inside a socket",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 8,
    want: "0-7",
  },
];

const distributed: readonly (Case & { readonly group: number })[] = [
  ...common.map((c) => ({ ...c, group: 1 })),
  {
    name: "4 whole cores, 2 on each NUMA node",
    topology: "dual-socket-ht",
    available: "0-11",
    count: 8,
    group: 1,
    want: "0-3,6-9",
  },
  {
    name: "32 whole cores, 8 on each NUMA node",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 64,
    group: 1,
    want: "0-7,10-17,20-27,30-37,40-47,50-57,60-67,70-77",
  },
  {
    name: "24 whole cores over the first 3 NUMA nodes",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 48,
    group: 1,
    want: "0-7,10-17,20-27,40-47,50-57,60-67",
  },
  {
    name: "24 whole cores, all but 2 of the first NUMA node",
    topology: "dual-socket-multi-numa-ht",
    available: "1-29,32-39,41-69,72-79",
    count: 48,
    group: 1,
    want: "1-8,10-17,20-27,41-48,50-57,60-67",
  },
  {
    name: "24 whole cores over the last 3 NUMA nodes",
    topology: "dual-socket-multi-numa-ht",
    available: "2-29,31-39,42-69,71-79",
    count: 48,
    group: 1,
    want: "10-17,20-27,31-38,50-57,60-67,71-78",
  },
  {
    name: "8 whole cores, 2 on each NUMA node",
    topology: "dual-socket-multi-numa-ht",
    available: "0-2,10-12,20-22,30-32,40-41,50-51,60-61,70-71",
    count: 16,
    group: 1,
    want: "0-1,10-11,20-21,30-31,40-41,50-51,60-61,70-71",
  },
  {
    name: "one CPU from the NUMA node with more free CPUs",
    topology: "dual-socket-ht",
    available: "1-5,7-11",
    count: 1,
    group: 1,
    want: "1",
  },
  {
    name: "one CPU in groups of 2 falls back to packed",
    topology: "dual-socket-ht",
    available: "1-5,7-11",
    count: 1,
    group: 2,
    want: "2",
  },
  {
    name: "13 whole cores over 2 NUMA nodes",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 26,
    group: 1,
    want: "0-6,10-16,40-45,50-55",
  },
  {
    name: "13 whole cores over 2 NUMA nodes in groups of 2",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 26,
    group: 2,
    want: "0-6,10-15,40-46,50-55",
  },
  {
    name: "31 cores, the remainder on NUMA 0 and 1",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 62,
    group: 1,
    want: "0-7,10-17,20-27,30-37,40-47,50-57,60-66,70-76",
  },
  {
    name: "31 cores in groups of 2, the remainder on NUMA 0, 1, 2",
    topology: "dual-socket-multi-numa-ht",
    available: "0-79",
    count: 62,
    group: 2,
    want: "0-7,10-17,20-27,30-36,40-47,50-57,60-67,70-76",
  },
  {
    name: "31 cores, the remainder where it keeps the balance",
    topology: "dual-socket-multi-numa-ht",
    available: "0-8,10-18,20-39,40-48,50-58,60-79",
    count: 62,
    group: 1,
    want: "0-7,10-17,20-27,30-37,40-46,50-56,60-67,70-77",
  },
  {
    name: "31 cores in groups of 2, the remainder where it keeps the balance",
    topology: "dual-socket-multi-numa-ht",
    available: "0-8,10-18,20-39,40-48,50-58,60-79",
    count: 62,
    group: 2,
    want: "0-7,10-16,20-27,30-37,40-47,50-56,60-67,70-77",
  },
  {
    name: "the remainder goes to NUMA nodes that can hold it",
    topology: "dual-socket-multi-numa-ht",
    available: "0-3,10-13,20-23,30-36,40-43,50-53,60-63,70-76",
    count: 34,
    group: 1,
    want: "0-3,10-13,20-23,30-34,40-43,50-53,60-63,70-74",
  },
];

function topologyOf(name: string) {
  if (name !== "large-uncore") return fixture(name);
  return largeUncore;
}

// upstream's topoLargeSingleSocketSingleNumaPerSocketSMTUncore: 128 cores, SMT2, 16 L3s of 8 cores.
const largeUncore = (() => {
  const { CpuTopology } = topologyModule;
  return CpuTopology.fromRecords(
    Array.from({ length: 256 }, (_, cpu) => ({
      cpu,
      core: cpu % 128,
      socket: 0,
      numa: 0,
      uncore: Math.floor((cpu % 128) / 8),
    })),
  );
})();

import * as topologyModule from "./topology/topology.ts";

for (const c of packed) {
  test(`takeByTopologyNumaPacked: ${c.name}`, () => {
    const got = takeByTopologyNumaPacked(
      topologyOf(c.topology),
      CpuSet.parse(c.available),
      c.count,
      "packed",
      c.uncore === true,
    );
    assert.equal(outcome(got), c.want);
  });
}

for (const c of spread) {
  test(`takeByTopologyNumaPacked: spread ${c.name}`, () => {
    const got = takeByTopologyNumaPacked(
      topologyOf(c.topology),
      CpuSet.parse(c.available),
      c.count,
      "spread",
      false,
    );
    assert.equal(outcome(got), c.want);
  });
}

for (const c of distributed) {
  test(`takeByTopologyNumaDistributed: ${c.name}${c.group > 1 ? "" : ""}`, () => {
    const got = takeByTopologyNumaDistributed(
      topologyOf(c.topology),
      CpuSet.parse(c.available),
      c.count,
      c.group,
      "packed",
    );
    assert.equal(outcome(got), c.want);
  });
}

const options = (o: Partial<StaticPolicyOptions>): StaticPolicyOptions => ({
  ...defaultStaticPolicyOptions,
  ...o,
});

const dispatch = [
  {
    name: "no options packs a whole core then the emptier socket",
    options: options({}),
    count: 3,
    want: "0,2,6",
  },
  {
    name: "full-pcpus-only still packs",
    options: options({ fullPhysicalCpusOnly: true }),
    count: 4,
    want: "0,2,6,8",
  },
  {
    name: "distribute-cpus-across-cores spreads",
    options: options({ distributeCpusAcrossCores: true }),
    count: 3,
    want: "0,2,4",
  },
  {
    name: "distribute-cpus-across-numa splits 8 CPUs over both NUMA nodes",
    options: options({ distributeCpusAcrossNuma: true }),
    count: 8,
    want: "0-3,6-9",
  },
  {
    name: "distribute-cpus-across-numa keeps 4 CPUs on one NUMA node",
    options: options({ distributeCpusAcrossNuma: true, fullPhysicalCpusOnly: true }),
    count: 4,
    want: "0,2,6,8",
  },
  {
    name: "distribute-cpus-across-numa with full-pcpus-only packs an odd request",
    options: options({ distributeCpusAcrossNuma: true, fullPhysicalCpusOnly: true }),
    count: 3,
    want: "0,2,6",
  },
  {
    name: "prefer-align-cpus-by-uncorecache takes the lowest cores of the L3",
    options: options({ preferAlignByUncoreCache: true }),
    count: 3,
    want: "0-1,6",
  },
] as const;

for (const c of dispatch) {
  test(`takeByTopology: ${c.name}`, () => {
    assert.equal(
      outcome(
        takeByTopology(
          fixture("dual-socket-ht"),
          c.options,
          CpuSet.parse(all("dual-socket-ht")),
          c.count,
        ),
      ),
      c.want,
    );
  });
}

test("takeByTopology: a trace names each decision", () => {
  const trace: Parameters<typeof takeByTopology>[4] = [];
  const result = takeByTopology(
    fixture("split-l3-2s-16c-smt2"),
    options({ preferAlignByUncoreCache: true }),
    CpuSet.range(0, 63),
    24,
    trace,
  );
  assert.equal(outcome(result), "0-11,32-43");
  assert.deepEqual(
    trace?.map((s) => `${s.kind} ${s.id} ${s.cpus.toString()}`),
    ["uncore-cache 0 0-7,32-39", "partial-uncore-cache 1 8-11,40-43"],
  );
});

test("takeByTopologyNumaDistributed: a stored combination is overwritten as Go's shared slices are", () => {
  // Six single-CPU NUMA nodes: the best 4-combination {0,1,2,3} shares its backing array with
  // the combinations visited after it, so upstream ends up allocating {0,1,2,5}.
  const topology = topologyModule.CpuTopology.fromRecords(
    Array.from({ length: 6 }, (_, cpu) => ({ cpu, core: cpu, socket: 0, numa: cpu, uncore: 0 })),
  );
  assert.equal(
    outcome(takeByTopologyNumaDistributed(topology, CpuSet.range(0, 5), 4, 1, "packed")),
    "0-2,5",
  );
});
