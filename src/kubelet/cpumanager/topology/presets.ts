/**
 * Named topologies: real machines (with the facts they are built from) and the small shapes of
 * upstream's CPU manager tests. CPU numbering follows Linux on these machines: the first
 * hardware thread of every core first (socket by socket), then the second threads in the same
 * order, so CPU n and CPU n + cores are siblings.
 */
import { type CacheSizes, defaultCacheSizes } from "./machine.ts";
import type { CpuRecord } from "./topology.ts";

const kib = 1024;
const mib = 1024 * kib;

/** A named topology. */
export interface Preset {
  readonly name: string;
  /** One line: the machine and the facts it encodes. */
  readonly description: string;
  readonly caches: CacheSizes;
  readonly records: () => CpuRecord[];
}

interface Shape {
  readonly sockets: number;
  readonly coresPerSocket: number;
  readonly threadsPerCore: number;
  readonly numaPerSocket: number;
  /** Cores sharing one L3; `undefined` for one L3 per socket. */
  readonly coresPerL3?: number;
}

/** Linux numbering of a regular machine (see the file comment). */
function regular(shape: Shape): CpuRecord[] {
  const cores = shape.sockets * shape.coresPerSocket;
  const coresPerNuma = shape.coresPerSocket / shape.numaPerSocket;
  const records: CpuRecord[] = [];
  for (let thread = 0; thread < shape.threadsPerCore; thread++) {
    for (let socket = 0; socket < shape.sockets; socket++) {
      for (let core = 0; core < shape.coresPerSocket; core++) {
        const global = socket * shape.coresPerSocket + core;
        records.push({
          cpu: thread * cores + global,
          core,
          socket,
          numa: socket * shape.numaPerSocket + Math.floor(core / coresPerNuma),
          uncore: shape.coresPerL3 === undefined ? socket : Math.floor(global / shape.coresPerL3),
        });
      }
    }
  }
  return records;
}

/** Records from a function of the CPU id (upstream's hand-written fixtures). */
function table(count: number, of: (cpu: number) => Omit<CpuRecord, "cpu">): () => CpuRecord[] {
  return () => Array.from({ length: count }, (_, cpu) => ({ cpu, ...of(cpu) }));
}

const presetList: readonly Preset[] = [
  {
    name: "amd-epyc-9654-2s",
    description:
      "2 x AMD EPYC 9654 (Zen 4 Genoa), NPS1: 96 cores/192 threads per socket, 12 CCDs of 8 cores each sharing one 32 MiB L3 (24 L3 groups), 1 MiB L2 and 32+32 KiB L1 per core, one NUMA node per socket; 384 CPUs",
    caches: { l1d: 32 * kib, l1i: 32 * kib, l2: 1 * mib, l3: 32 * mib },
    records: () =>
      regular({
        sockets: 2,
        coresPerSocket: 96,
        threadsPerCore: 2,
        numaPerSocket: 1,
        coresPerL3: 8,
      }),
  },
  {
    name: "amd-epyc-7763-1s",
    description:
      "1 x AMD EPYC 7763 (Zen 3 Milan), NPS1: 64 cores/128 threads, 8 CCDs with one 8-core CCX sharing a 32 MiB L3 each, 512 KiB L2 and 32+32 KiB L1 per core, one NUMA node; 128 CPUs",
    caches: { l1d: 32 * kib, l1i: 32 * kib, l2: 512 * kib, l3: 32 * mib },
    records: () =>
      regular({
        sockets: 1,
        coresPerSocket: 64,
        threadsPerCore: 2,
        numaPerSocket: 1,
        coresPerL3: 8,
      }),
  },
  {
    name: "intel-xeon-8380-2s",
    description:
      "2 x Intel Xeon Platinum 8380 (Ice Lake-SP), SNC off: 40 cores/80 threads per socket, one 60 MiB L3 shared by the socket, 1.25 MiB L2 and 48+32 KiB L1 per core, one NUMA node per socket; 160 CPUs (the L3 spans the NUMA node, so the kubelet aligns by socket)",
    caches: { l1d: 48 * kib, l1i: 32 * kib, l2: 1280 * kib, l3: 60 * mib },
    records: () => regular({ sockets: 2, coresPerSocket: 40, threadsPerCore: 2, numaPerSocket: 1 }),
  },
  {
    name: "aws-graviton3",
    description:
      "AWS Graviton3 (Arm Neoverse V1, c7g.16xlarge): 64 cores without SMT, 64+64 KiB L1 and 1 MiB L2 per core, one 32 MiB L3 shared by all cores, one NUMA node; 64 CPUs",
    caches: { l1d: 64 * kib, l1i: 64 * kib, l2: 1 * mib, l3: 32 * mib },
    records: () => regular({ sockets: 1, coresPerSocket: 64, threadsPerCore: 1, numaPerSocket: 1 }),
  },
  {
    name: "split-l3-2s-16c-smt2",
    description:
      "A small split-L3 machine for tests: 2 sockets of 16 cores with SMT2, one NUMA node per socket, 8 cores per L3 (4 L3 groups of 16 CPUs); 64 CPUs",
    caches: defaultCacheSizes,
    records: () =>
      regular({
        sockets: 2,
        coresPerSocket: 16,
        threadsPerCore: 2,
        numaPerSocket: 1,
        coresPerL3: 8,
      }),
  },
  {
    name: "single-socket-ht",
    description:
      "upstream test fixture topoSingleSocketHT: 1 socket, 4 cores with 2 threads (CPU n and n+4 are siblings); 8 CPUs",
    caches: defaultCacheSizes,
    records: table(8, (cpu) => ({ core: cpu % 4, socket: 0, numa: 0, uncore: 0 })),
  },
  {
    name: "dual-socket-ht",
    description:
      "upstream test fixture topoDualSocketHT: 2 sockets (one NUMA node each) of 3 cores with 2 threads; even cores on socket 0, CPU n and n+6 are siblings; one uncore id for all; 12 CPUs",
    caches: defaultCacheSizes,
    records: table(12, (cpu) => ({ core: cpu % 6, socket: cpu % 2, numa: cpu % 2, uncore: 0 })),
  },
  {
    name: "dual-socket-no-ht",
    description:
      "upstream test fixture topoDualSocketNoHT: 2 sockets (one NUMA node each) of 4 cores without SMT; 8 CPUs",
    caches: defaultCacheSizes,
    records: table(8, (cpu) => ({
      core: cpu,
      socket: cpu < 4 ? 0 : 1,
      numa: cpu < 4 ? 0 : 1,
      uncore: 0,
    })),
  },
  {
    name: "dual-socket-multi-numa-ht",
    description:
      "upstream test fixture topoDualSocketMultiNumaPerSocketHT: 2 sockets, 2 NUMA nodes of 10 cores each per socket, SMT2 (CPU n and n+40 are siblings); 80 CPUs",
    caches: defaultCacheSizes,
    records: table(80, (cpu) => {
      const core = cpu % 40;
      return { core, socket: core < 20 ? 0 : 1, numa: Math.floor(core / 10), uncore: 0 };
    }),
  },
  {
    name: "uncore-single-socket-no-smt",
    description:
      "upstream test fixture topoUncoreSingleSocketNoSMT: 1 socket, 16 cores without SMT, 4 uncore caches of 4 cores; 16 CPUs",
    caches: defaultCacheSizes,
    records: table(16, (cpu) => ({ core: cpu, socket: 0, numa: 0, uncore: Math.floor(cpu / 4) })),
  },
  {
    name: "uncore-single-socket-smt",
    description:
      "upstream test fixture topoUncoreSingleSocketSMT: 1 socket, 8 cores with 2 threads (CPU n and n+8 are siblings), 2 uncore caches of 4 cores; 16 CPUs",
    caches: defaultCacheSizes,
    records: table(16, (cpu) => ({
      core: cpu % 8,
      socket: 0,
      numa: 0,
      uncore: Math.floor((cpu % 8) / 4),
    })),
  },
  {
    name: "uncore-dual-socket-no-smt",
    description:
      "upstream test fixture topoUncoreDualSocketNoSMT: 2 sockets (one NUMA node each) of 8 cores without SMT, 2 uncore caches of 4 cores per socket; 16 CPUs",
    caches: defaultCacheSizes,
    records: table(16, (cpu) => ({
      core: cpu,
      socket: cpu < 8 ? 0 : 1,
      numa: cpu < 8 ? 0 : 1,
      uncore: Math.floor(cpu / 4),
    })),
  },
  {
    name: "uncore-single-socket-multi-numa",
    description:
      "upstream test fixture topoUncoreSingleSocketMultiNuma: 1 socket, 2 NUMA nodes of 8 cores without SMT, 4 uncore caches of 4 cores; 16 CPUs",
    caches: defaultCacheSizes,
    records: table(16, (cpu) => ({
      core: cpu,
      socket: 0,
      numa: cpu < 8 ? 0 : 1,
      uncore: Math.floor(cpu / 4),
    })),
  },
];

/** Every preset name, in the order documented. */
export function presetNames(): string[] {
  return presetList.map((p) => p.name);
}

/** The preset called `name`, or `undefined`. */
export function findPreset(name: string): Preset | undefined {
  return presetList.find((p) => p.name === name);
}
