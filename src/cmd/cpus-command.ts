/**
 * `gantry cpus take|allocate|compare`: the kubelet's static CPU manager as a planning tool. It
 * runs upstream's algorithms on any topology (a file in one of the topology forms, or a preset
 * name) without a cluster, and holds the file-backed checkpoint stores `gantry up` gives its
 * emulated nodes.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { parseAllDocuments } from "yaml";
import { applyPodDefaults, type Pod } from "../api/index.ts";
import type { HttpClient } from "../client/index.ts";
import {
  allocatePod,
  type CheckpointStore,
  CpuManagerState,
  CpuSet,
  type CpuTopology,
  checkpointFileName,
  decodeCheckpoint,
  describeCpus,
  discoverTopology,
  encodeCheckpoint,
  explainSteps,
  findPreset,
  type Placement,
  placePods,
  presetNames,
  readTopology,
  StaticPolicy,
  type TakeStep,
  takeByTopology,
} from "../kubelet/index.ts";
import { errorMessage } from "../util/index.ts";
import { rawGetter, ShowError, showNode, showTable } from "./cpus-show.ts";
import { clientForKubeconfig } from "./kubeconfig-client.ts";

export const cpusUsage = `Usage: gantry cpus <take|allocate|compare|show> [options]

Plan CPU pinning as the kubelet's static CPU manager policy does it, on any topology, or
show how a running cluster's node pinned its containers.

  take       Print the CPUs upstream's takeByTopology chooses (Linux list format)
  allocate   Admit one pod as the static policy would; print the resulting
             cpu_manager_state checkpoint (the kubelet's JSON, checksum included)
  compare    Admit the same pods under several option sets and compare how they land:
             containers spanning L3 caches, L3 caches shared, NUMA spread
  show NODE  The exclusive CPUs of each container on a node of a running cluster (its
             PodResources API), with the L3 caches and NUMA nodes they sit in

Options:
  --topology T         A topology file (JSON or YAML): cAdvisor's MachineInfo (kubectl get
                       --raw /api/v1/nodes/N/proxy/spec/), {"cpus": [{"cpu","core","socket",
                       "numa","uncore"}, ...]} or {"preset": NAME}; or a preset name
                       (gantry topology presets)
  --options K=V,...    cpuManagerPolicyOptions, e.g. prefer-align-cpus-by-uncorecache=true
                       (every option is accepted, alpha ones included)
  --explain            Say on stderr why each group of CPUs was chosen (take, allocate)
take:
  --count N            How many CPUs (required)
  --available CPUSET   The free CPUs (default: all)
allocate and compare:
  --reserved CPUSET    reservedSystemCPUs
  --reserved-count N   CPUs to reserve, chosen as the kubelet chooses them (default 0)
allocate:
  --pod FILE           The pod, YAML or JSON (required)
  --state FILE         Start from this cpu_manager_state checkpoint
  --numa-affinity IDS  The Topology Manager's NUMA hint, e.g. 0 or 0,1
compare:
  --pods FILE          The pods in admission order: YAML documents, a List, or one pod
  --options-sets S     Option sets separated by ';', each K=V,... or 'none' (repeatable;
                       default: none; full-pcpus-only; prefer-align-cpus-by-uncorecache;
                       prefer-align-cpus-by-uncorecache + full-pcpus-only;
                       distribute-cpus-across-numa)
  --output FORMAT      table (default) or json
show:
  --data-dir DIR       The data dir of the running gantry up (default ./.gantry); its
                       kubeconfig is DIR/kubeconfig
  --kubeconfig FILE    Use this kubeconfig instead
  -o, --output FORMAT  table (default) or json

Exit status: 0 done, 1 refused (upstream's message on stderr), 2 bad command line.
`;

/** Where the command writes: the process's streams, or buffers in tests. */
export interface CpusCommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** A mistake in the command line or its files (exit code 2). */
class CpusUsageError extends Error {
  override readonly name = "CpusUsageError";
}

/** Upstream refused (exit code 1). */
class Refused extends Error {
  override readonly name = "Refused";
}

const defaultOptionSets = [
  "none",
  "full-pcpus-only=true",
  "prefer-align-cpus-by-uncorecache=true",
  "prefer-align-cpus-by-uncorecache=true,full-pcpus-only=true",
  "distribute-cpus-across-numa=true",
] as const;

function parseCpusArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        topology: { type: "string" },
        options: { type: "string", default: "" },
        explain: { type: "boolean", default: false },
        count: { type: "string" },
        available: { type: "string" },
        reserved: { type: "string" },
        "reserved-count": { type: "string" },
        pod: { type: "string" },
        state: { type: "string" },
        "numa-affinity": { type: "string" },
        pods: { type: "string" },
        "options-sets": { type: "string", multiple: true, default: [] },
        output: { type: "string", short: "o", default: "table" },
        "data-dir": { type: "string", default: "./.gantry" },
        kubeconfig: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error: unknown) {
    if (error instanceof TypeError) throw new CpusUsageError(error.message);
    throw error;
  }
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error: unknown) {
    throw new CpusUsageError(`Cannot read ${what} ${path}: ${errorMessage(error)}`);
  }
}

/** Every YAML/JSON document of a file (a List contributes its items). */
function readDocuments(path: string, what: string): unknown[] {
  const docs = parseAllDocuments(readText(path, what));
  const list = Array.isArray(docs) ? docs : [docs];
  const values: unknown[] = [];
  for (const doc of list) {
    if (doc.errors.length > 0) {
      throw new CpusUsageError(`Cannot parse ${what} ${path}: ${doc.errors[0]?.message ?? ""}`);
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const object = value as { kind?: unknown; items?: unknown };
    if (
      typeof object.kind === "string" &&
      object.kind.endsWith("List") &&
      Array.isArray(object.items)
    ) {
      values.push(...object.items);
    } else values.push(value);
  }
  return values;
}

/** The topology the kubelet discovers from a topology file or preset name. */
export function loadTopology(spec: string | undefined): CpuTopology {
  if (spec === undefined || spec === "") {
    throw new CpusUsageError("Missing --topology: give a topology file or a preset name");
  }
  let value: unknown;
  if (existsSync(spec)) {
    const docs = readDocuments(spec, "the topology");
    if (docs.length !== 1) throw new CpusUsageError(`The topology ${spec} must hold one document`);
    value = docs[0];
  } else if (findPreset(spec) !== undefined) {
    value = spec;
  } else {
    throw new CpusUsageError(
      `Cannot find the topology "${spec}": no such file, and no preset of that name (presets: ${presetNames().join(", ")})`,
    );
  }
  const read = readTopology(value, spec);
  if (!read.ok) {
    throw new CpusUsageError(
      `Cannot use the topology ${spec}:\n  - ${read.problems.join("\n  - ")}`,
    );
  }
  return discoverTopology(read.nodes);
}

/** `k=v,k=v` → a map; `none` or "" → {}. */
function parseOptionList(text: string): Record<string, string> {
  const options: Record<string, string> = {};
  const trimmed = text.trim();
  if (trimmed === "" || trimmed === "none") return options;
  for (const part of trimmed.split(",")) {
    const eq = part.indexOf("=");
    const key = (eq === -1 ? part : part.slice(0, eq)).trim();
    if (key === "") throw new CpusUsageError(`Cannot read the option "${part}": write NAME=VALUE`);
    options[key] = eq === -1 ? "true" : part.slice(eq + 1).trim();
  }
  return options;
}

function wholeNumber(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()))
    throw new CpusUsageError(`${flag} takes a whole number, got "${text}"`);
  return Number(text);
}

function cpuList(text: string | undefined, flag: string): CpuSet | undefined {
  if (text === undefined) return undefined;
  try {
    return CpuSet.parse(text.trim());
  } catch (error: unknown) {
    throw new CpusUsageError(`${flag} takes a CPU list such as 0-3,8: ${errorMessage(error)}`);
  }
}

type Values = ReturnType<typeof parseCpusArgs>["values"];

/** The static policy for the command line's options and reservation. */
function policyOf(
  topology: CpuTopology,
  values: Values,
  options: Record<string, string>,
): StaticPolicy {
  const reserved = cpuList(values.reserved, "--reserved") ?? CpuSet.empty;
  const count = wholeNumber(values["reserved-count"], "--reserved-count");
  if (reserved.size > 0 && count !== undefined && count !== reserved.size) {
    throw new CpusUsageError("Use --reserved or --reserved-count, not both");
  }
  try {
    return StaticPolicy.create({
      topology,
      options,
      gates: { alphaOptions: true, betaOptions: true },
      numReservedCpus: reserved.size > 0 ? reserved.size : (count ?? 0),
      reservedCpus: reserved,
    });
  } catch (error: unknown) {
    throw new Refused(errorMessage(error));
  }
}

/** A deterministic UID for a pod file without one (so checkpoints are reproducible). */
function podUid(namespace: string, name: string): string {
  const hex = createHash("sha256").update(`${namespace}/${name}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function toPod(value: unknown, path: string): Pod {
  const pod = value as Pod;
  if (typeof value !== "object" || value === null || pod.kind !== "Pod" || pod.spec === undefined) {
    throw new CpusUsageError(`${path} must hold Pods (kind: Pod with a spec)`);
  }
  const copy = structuredClone(pod);
  copy.metadata ??= {};
  copy.metadata.namespace ??= "default";
  copy.metadata.name ??= "pod";
  copy.metadata.uid ??= podUid(copy.metadata.namespace, copy.metadata.name);
  applyPodDefaults(copy);
  return copy;
}

function take(values: Values, io: CpusCommandIo): number {
  const topology = loadTopology(values.topology);
  const count = wholeNumber(values.count, "--count");
  if (count === undefined) throw new CpusUsageError("Missing --count: how many CPUs to take");
  const options = parseOptionList(values.options);
  const policy = policyOf(topology, values, options);
  const available = cpuList(values.available, "--available") ?? topology.cpus();
  const trace: TakeStep[] = [];
  const result = takeByTopology(topology, policy.options, available, count, trace);
  if (!result.ok) throw new Refused(result.message);
  io.out(`${result.cpus.toString()}\n`);
  if (values.explain) {
    for (const line of explainSteps(topology, trace)) io.err(`${line}\n`);
    io.err(`result: ${result.cpus.toString()} [${describeCpus(topology, result.cpus)}]\n`);
  }
  return 0;
}

function allocate(values: Values, io: CpusCommandIo): number {
  const topology = loadTopology(values.topology);
  if (values.pod === undefined) throw new CpusUsageError("Missing --pod: the pod to admit");
  const pods = readDocuments(values.pod, "the pod");
  if (pods.length !== 1) throw new CpusUsageError(`${values.pod} must hold exactly one pod`);
  const pod = toPod(pods[0], values.pod);
  const policy = policyOf(topology, values, parseOptionList(values.options));
  let state = new CpuManagerState();
  if (values.state !== undefined) {
    try {
      state = decodeCheckpoint(readText(values.state, "the checkpoint"), "static", values.state);
    } catch (error: unknown) {
      if (error instanceof CpusUsageError) throw error;
      throw new Refused(errorMessage(error));
    }
  }
  try {
    policy.start(state);
  } catch (error: unknown) {
    throw new Refused(errorMessage(error));
  }
  const affinity = cpuList(values["numa-affinity"], "--numa-affinity");
  const traces = new Map<string, TakeStep[]>();
  const result = allocatePod(policy, state, pod, {
    ...(affinity === undefined ? {} : { numaAffinity: affinity.toArray() }),
    trace: (container) => {
      const steps: TakeStep[] = [];
      traces.set(container, steps);
      return steps;
    },
  });
  if (values.explain) {
    const assigned = state.assignments().get(pod.metadata.uid ?? "");
    for (const [container, steps] of traces) {
      const cpus = assigned?.get(container);
      if (cpus === undefined) continue;
      io.err(`container ${container}: ${cpus.toString()} [${describeCpus(topology, cpus)}]\n`);
      for (const line of explainSteps(topology, steps)) io.err(`  ${line}\n`);
    }
  }
  if (!result.ok) {
    io.err(`${result.message}\n(reason ${result.reason})\n`);
    return 1;
  }
  io.out(`${encodeCheckpoint("static", state)}\n`);
  return 0;
}

function compareTable(rows: readonly { name: string; placement: Placement }[]): string {
  const header = [
    "OPTIONS",
    "ADMITTED",
    "REJECTED",
    "EXCLUSIVE",
    "SPANNING-L3",
    "SHARED-L3",
    "MAX-NUMA",
    "SPANNING-NUMA",
    "SHARED-POOL",
  ];
  const lines = rows.map(({ name, placement: { summary: s } }) => [
    name,
    ...[
      s.admitted,
      s.rejected,
      s.exclusiveContainers,
      s.spanningL3,
      s.sharedL3,
      s.maxNumaNodes,
      s.spanningNuma,
      s.sharedPool,
    ].map(String),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  const format = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd((widths[i] ?? 0) + 2))).join("");
  return `${[format(header), ...lines.map(format)].join("\n")}\n`;
}

function compare(values: Values, io: CpusCommandIo): number {
  const topology = loadTopology(values.topology);
  if (values.pods === undefined) throw new CpusUsageError("Missing --pods: the pods to admit");
  const path = values.pods;
  const pods = readDocuments(path, "the pods").map((p) => toPod(p, path));
  const given = values["options-sets"].flatMap((s) => s.split(";")).map((s) => s.trim());
  const sets = given.length > 0 ? given : [...defaultOptionSets];
  const rows = sets.map((set) => {
    const options = parseOptionList(set);
    const name = Object.keys(options).length === 0 ? "none" : set;
    return { name, placement: placePods(policyOf(topology, values, options), pods) };
  });
  if (values.output === "json") {
    io.out(
      `${JSON.stringify(
        rows.map(({ name, placement }) => ({
          options: name,
          summary: placement.summary,
          pods: placement.pods,
          containers: placement.containers,
        })),
        null,
        2,
      )}\n`,
    );
  } else if (values.output === "table") {
    io.out(compareTable(rows));
  } else {
    throw new CpusUsageError(`--output takes table or json, got "${values.output}"`);
  }
  return 0;
}

async function show(values: Values, node: string | undefined, io: CpusCommandIo): Promise<number> {
  if (node === undefined || node === "") throw new CpusUsageError("Missing the node name");
  if (values.output !== "table" && values.output !== "json") {
    throw new CpusUsageError(`--output takes table or json, got "${values.output}"`);
  }
  const kubeconfig = values.kubeconfig ?? join(values["data-dir"], "kubeconfig");
  let client: HttpClient;
  try {
    client = clientForKubeconfig(kubeconfig, "cpus-show");
  } catch (error: unknown) {
    throw new Refused(`gantry cpus show: ${errorMessage(error)}`);
  }
  try {
    const shown = await showNode(rawGetter(client), node);
    io.out(values.output === "json" ? `${JSON.stringify(shown, null, 2)}\n` : showTable(shown));
    return 0;
  } catch (error: unknown) {
    if (error instanceof ShowError) throw new Refused(`gantry cpus show: ${error.message}`);
    throw error;
  } finally {
    client.close();
  }
}

/** Runs `gantry cpus …`; resolves to the exit code. */
export async function runCpusCommand(argv: readonly string[], io: CpusCommandIo): Promise<number> {
  try {
    const { values, positionals } = parseCpusArgs(argv);
    const [action, ...extra] = positionals;
    if (values.help || action === undefined || action === "help") {
      io.out(cpusUsage);
      return action === undefined && !values.help ? 2 : 0;
    }
    if (action === "show") {
      if (extra.length > 1) throw new CpusUsageError(`Unexpected argument "${extra[1]}"`);
      return await show(values, extra[0], io);
    }
    if (extra.length > 0) throw new CpusUsageError(`Unexpected argument "${extra[0]}"`);
    switch (action) {
      case "take":
        return take(values, io);
      case "allocate":
        return allocate(values, io);
      case "compare":
        return compare(values, io);
      default:
        throw new CpusUsageError(
          `Unknown subcommand "${action}": use take, allocate, compare or show`,
        );
    }
  } catch (error: unknown) {
    if (error instanceof CpusUsageError) {
      io.err(`gantry cpus: ${error.message}\nRun 'gantry cpus --help' for usage.\n`);
      return 2;
    }
    if (error instanceof Refused) {
      io.err(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/**
 * The emulated nodes' checkpoints: `<dataDir>/nodes/<node>/cpu_manager_state`, written
 * atomically (a temporary file renamed over the old one).
 */
export function nodeCheckpointStores(dataDir: string): (nodeName: string) => CheckpointStore {
  return (nodeName) => {
    const path = join(dataDir, "nodes", nodeName, checkpointFileName);
    return {
      path,
      read: () => (existsSync(path) ? readFileSync(path, "utf8") : undefined),
      write: (text) => {
        mkdirSync(dirname(path), { recursive: true });
        const temporary = `${path}.tmp`;
        writeFileSync(temporary, text, { mode: 0o644 });
        renameSync(temporary, path);
      },
    };
  };
}
