/**
 * `npm run bench:cpumanager`: how long the static CPU manager policy takes to allocate exclusive
 * CPUs on a big split-L3 machine. The machine is the `amd-epyc-9654-2s` preset: 2 sockets,
 * 192 cores, 384 threads, 24 L3 groups of 8 cores (16 CPUs), one NUMA node per socket.
 *
 * For each option set and each request size from 1 to 64 CPUs, one container after another is
 * allocated until the node is full, then every container is released: the figures are the
 * latency of one `Allocate` (takeByTopology, the state update and the kubelet's metrics, as the
 * kubelet runs them) and of one `RemoveContainer`, in microseconds. Odd sizes are skipped for
 * option sets with full-pcpus-only (they fail the SMT alignment check at once). The state's
 * memory is measured with the node full of 1-CPU containers.
 *
 * On a shared machine a single timing is often stretched by preemption (another process's
 * time slice lands in it), so each allocation and release is run `--repeat` times on copies of
 * the same state and the fastest run counts; RAW P99 is the p99 of the first runs alone.
 *
 * Options: --rounds N (measured rounds after one warm-up round, default 3), --repeat K
 * (runs of each operation, default 5).
 */
import { parseArgs } from "node:util";
import type { Pod } from "../src/api/index.ts";
import { CpuManagerMetrics } from "../src/kubelet/cpumanager/metrics.ts";
import {
  CpuManagerState,
  type CpuTopology,
  decodeCheckpoint,
  discoverTopology,
  encodeCheckpoint,
  readTopology,
  StaticPolicy,
} from "../src/kubelet/index.ts";
import { fmt, percentile } from "./stats.ts";

const optionSets: readonly { name: string; options: Record<string, string> }[] = [
  { name: "none", options: {} },
  { name: "full-pcpus-only", options: { "full-pcpus-only": "true" } },
  {
    name: "prefer-align-cpus-by-uncorecache",
    options: { "prefer-align-cpus-by-uncorecache": "true" },
  },
  {
    name: "uncorecache + full-pcpus-only",
    options: { "prefer-align-cpus-by-uncorecache": "true", "full-pcpus-only": "true" },
  },
  { name: "distribute-cpus-across-numa", options: { "distribute-cpus-across-numa": "true" } },
  { name: "distribute-cpus-across-cores", options: { "distribute-cpus-across-cores": "true" } },
  { name: "align-by-socket", options: { "align-by-socket": "true" } },
];

const sizeBuckets: readonly [number, number][] = [
  [1, 8],
  [9, 16],
  [17, 32],
  [33, 64],
];

function machine(): CpuTopology {
  const read = readTopology("amd-epyc-9654-2s", "amd-epyc-9654-2s");
  if (!read.ok) throw new TypeError(read.problems.join("; "));
  const topology = discoverTopology(read.nodes);
  const facts = [
    topology.numSockets,
    topology.numCores,
    topology.numCpus,
    topology.numUncoreCaches,
  ];
  if (facts.join(",") !== "2,192,384,24") {
    throw new TypeError(`Unexpected machine: sockets, cores, CPUs, L3 = ${facts.join(", ")}`);
  }
  return topology;
}

function guaranteedPod(uid: string, cpus: number): Pod {
  const resources = { cpu: String(cpus), memory: "1Gi" };
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: uid, namespace: "bench", uid },
    spec: {
      containers: [
        { name: "app", image: "bench", resources: { requests: resources, limits: resources } },
      ],
    },
  };
}

function newPolicy(topology: CpuTopology, options: Record<string, string>): StaticPolicy {
  return StaticPolicy.create({
    topology,
    options,
    gates: { alphaOptions: true, betaOptions: true },
    numReservedCpus: 2,
    metrics: new CpuManagerMetrics(),
  });
}

interface Samples {
  /** Request size → allocation latencies (µs), the fastest of the repeats. */
  readonly allocate: Map<number, number[]>;
  /** The first run of each allocation alone. */
  readonly raw: number[];
  readonly release: number[];
}

function copyOf(state: CpuManagerState): CpuManagerState {
  return new CpuManagerState(state.defaultCpuSet(), state.assignments());
}

/**
 * Runs `operation` `repeat` times, each on a fresh copy of `state`; returns the copy the last
 * run changed, the fastest and the first time (µs) and the operation's result.
 */
function timed<T>(
  state: CpuManagerState,
  repeat: number,
  operation: (state: CpuManagerState) => T,
): { state: CpuManagerState; fastest: number; first: number; result: T } {
  let fastest = Number.POSITIVE_INFINITY;
  let first = 0;
  let last: { state: CpuManagerState; result: T } | undefined;
  for (let i = 0; i < repeat; i++) {
    const copy = copyOf(state);
    const started = process.hrtime.bigint();
    const result = operation(copy);
    const micros = Number(process.hrtime.bigint() - started) / 1000;
    if (i === 0) first = micros;
    fastest = Math.min(fastest, micros);
    last = { state: copy, result };
  }
  if (last === undefined) throw new RangeError("--repeat must be at least 1");
  return { ...last, fastest, first };
}

/** Fills the node with `size`-CPU containers, then empties it; returns the allocations made. */
function fillAndDrain(
  policy: StaticPolicy,
  size: number,
  repeat: number,
  samples: Samples | undefined,
): number {
  let state = new CpuManagerState();
  policy.start(state);
  const pods: Pod[] = [];
  for (let i = 0; ; i++) {
    const pod = guaranteedPod(`p${size}-${i}`, size);
    const container = pod.spec.containers[0];
    if (container === undefined) throw new TypeError("A pod without a container");
    const run = timed(state, repeat, (copy) => policy.allocate(copy, pod, container));
    if (!run.result.ok) break;
    state = run.state;
    pods.push(pod);
    if (samples === undefined) continue;
    let list = samples.allocate.get(size);
    if (list === undefined) {
      list = [];
      samples.allocate.set(size, list);
    }
    list.push(run.fastest);
    samples.raw.push(run.first);
  }
  for (const pod of pods) {
    const run = timed(state, repeat, (copy) =>
      policy.removeContainer(copy, pod.metadata.uid ?? "", "app"),
    );
    state = run.state;
    samples?.release.push(run.fastest);
  }
  return pods.length;
}

function sizesFor(options: Record<string, string>): number[] {
  const sizes = Array.from({ length: 64 }, (_, i) => i + 1);
  return options["full-pcpus-only"] === "true" ? sizes.filter((n) => n % 2 === 0) : sizes;
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Heap bytes held by one state full of 1-CPU containers (36-character pod UIDs), measured over
 * `copies` states to rise above the heap's noise, and the checkpoint's size.
 */
function stateMemory(topology: CpuTopology): {
  heapBytes: number;
  containers: number;
  checkpointBytes: number;
} {
  const policy = newPolicy(topology, {});
  const full = new CpuManagerState();
  policy.start(full);
  let containers = 0;
  for (let i = 0; ; i++) {
    const pod = guaranteedPod(`m${String(i).padStart(7, "0")}-0000-0000-0000-000000000000`, 1);
    const container = pod.spec.containers[0];
    if (container === undefined || !policy.allocate(full, pod, container).ok) break;
    containers++;
  }
  const copies = 50;
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept: CpuManagerState[] = [];
  for (let i = 0; i < copies; i++) {
    // A state as a restart builds it: every set and key freshly parsed from the checkpoint.
    kept.push(decodeCheckpoint(encodeCheckpoint("static", full), "static", "bench"));
  }
  gc();
  gc();
  const heapBytes = (process.memoryUsage().heapUsed - before) / kept.length;
  const checkpointBytes = Buffer.byteLength(encodeCheckpoint("static", full));
  return { heapBytes, containers, checkpointBytes };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      rounds: { type: "string", default: "3" },
      repeat: { type: "string", default: "5" },
    },
  });
  const rounds = Number(values.rounds);
  const repeat = Number(values.repeat);
  const topology = machine();
  console.log(
    `CPU manager allocation on amd-epyc-9654-2s: ${topology.numSockets} sockets, ${topology.numCores} cores, ${topology.numCpus} CPUs, ${topology.numUncoreCaches} L3 groups; 2 CPUs reserved; ${rounds} measured rounds after 1 warm-up; fastest of ${repeat} runs per operation`,
  );
  if ((globalThis as { gc?: unknown }).gc === undefined) {
    console.log("(run with node --expose-gc for the state's memory)");
  }
  const header = [
    "OPTIONS",
    "ALLOCS",
    "P50 µs",
    "P99 µs",
    ...sizeBuckets.map(([a, b]) => `P99 ${a}-${b}`),
    "MAX µs",
    "RAW P99 µs",
    "RELEASE P50/P99 µs",
  ];
  const rows: string[][] = [];
  let worstP99 = 0;
  for (const set of optionSets) {
    const policy = newPolicy(topology, set.options);
    const sizes = sizesFor(set.options);
    for (const size of sizes) fillAndDrain(policy, size, 1, undefined);
    const samples: Samples = { allocate: new Map(), raw: [], release: [] };
    for (let round = 0; round < rounds; round++) {
      for (const size of sizes) fillAndDrain(policy, size, repeat, samples);
    }
    const all = [...samples.allocate.values()].flat();
    const bucket = ([a, b]: [number, number]) =>
      [...samples.allocate].filter(([n]) => n >= a && n <= b).flatMap(([, s]) => s);
    const p99 = percentile(all, 99);
    worstP99 = Math.max(worstP99, p99);
    rows.push([
      set.name,
      fmt(all.length),
      fmt(percentile(all, 50), 1),
      fmt(p99, 1),
      ...sizeBuckets.map((b) => fmt(percentile(bucket(b), 99), 1)),
      fmt(Math.max(...all), 0),
      fmt(percentile(samples.raw, 99), 1),
      `${fmt(percentile(samples.release, 50), 1)} / ${fmt(percentile(samples.release, 99), 1)}`,
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  const memory = stateMemory(topology);
  console.log(
    `state with ${memory.containers} 1-CPU containers: ${fmt(memory.heapBytes / 1024, 0)} KiB of heap, checkpoint ${fmt(memory.checkpointBytes / 1024, 1)} KiB`,
  );
  console.log(
    `worst p99 ${fmt(worstP99, 1)} µs: ${worstP99 < 200 ? "within" : "over"} the 200 µs target`,
  );
}

main();
