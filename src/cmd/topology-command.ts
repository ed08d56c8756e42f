/**
 * `gantry topology discover|presets|show`: read a machine's CPU topology from sysfs the way
 * cAdvisor does and print it as MachineInfo JSON (ready for a node pool's `topology:` or
 * `gantry cpus --topology`), list the presets, or show a topology as the kubelet sees it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  type CadvisorNode,
  findPreset,
  presetNames,
  readSysfsMachine,
  type SysfsReader,
} from "../kubelet/index.ts";
import { loadTopology } from "./cpus-command.ts";

export const topologyUsage = `Usage: gantry topology <discover|presets|show> [options]

  discover   Read the CPU topology from sysfs as cAdvisor does (online CPUs, cores, sockets,
             NUMA nodes, L1-L3 caches) and print cAdvisor's MachineInfo JSON
  presets    List the named topologies
  show       Print a topology as the kubelet sees it: the flat CPU list and its counts

Options:
  --sysfs-root DIR   discover: the sysfs root to read (default /sys); a copied tree works
  --topology T       show: a topology file or a preset name (as for gantry cpus)
`;

/** Where the command writes. */
export interface TopologyCommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

class TopologyUsageError extends Error {
  override readonly name = "TopologyUsageError";
}

/** Reads a directory tree from disk; what does not exist (or cannot be read) is `undefined`. */
function diskReader(): SysfsReader {
  const missing = (error: unknown): boolean =>
    error instanceof Error &&
    ["ENOENT", "ENOTDIR", "EACCES", "EINVAL", "EIO", "ENODEV", "EISDIR", "EPERM"].includes(
      (error as NodeJS.ErrnoException).code ?? "",
    );
  return {
    readFile: (path) => {
      try {
        return readFileSync(path, "utf8");
      } catch (error: unknown) {
        if (missing(error)) return undefined;
        throw error;
      }
    },
    listDir: (path) => {
      try {
        return readdirSync(path);
      } catch (error: unknown) {
        if (missing(error)) return undefined;
        throw error;
      }
    },
  };
}

/** cAdvisor's MachineInfo fields a topology needs, for the NUMA nodes read. */
function machineInfoJson(
  nodes: readonly CadvisorNode[],
  cpuFrequencyKhz: number | undefined,
): string {
  const sockets = new Set<number>();
  let physical = 0;
  let logical = 0;
  let memory = 0;
  for (const node of nodes) {
    memory += node.memory;
    for (const core of node.cores) {
      sockets.add(core.socket_id);
      physical++;
      logical += core.thread_ids.length;
    }
  }
  return `${JSON.stringify(
    {
      num_cores: logical,
      num_physical_cores: physical,
      num_sockets: sockets.size,
      ...(cpuFrequencyKhz === undefined ? {} : { cpu_frequency_khz: cpuFrequencyKhz }),
      memory_capacity: memory,
      topology: nodes,
    },
    null,
    2,
  )}\n`;
}

function parseTopologyArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        "sysfs-root": { type: "string", default: "/sys" },
        topology: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error: unknown) {
    if (error instanceof TypeError) throw new TopologyUsageError(error.message);
    throw error;
  }
}

/** Runs `gantry topology …`; resolves to the exit code. */
export async function runTopologyCommand(
  argv: readonly string[],
  io: TopologyCommandIo,
): Promise<number> {
  try {
    const { values, positionals } = parseTopologyArgs(argv);
    const [action, ...extra] = positionals;
    if (values.help || action === undefined || action === "help") {
      io.out(topologyUsage);
      return action === undefined && !values.help ? 2 : 0;
    }
    if (extra.length > 0) throw new TopologyUsageError(`Unexpected argument "${extra[0]}"`);
    switch (action) {
      case "discover": {
        const root = values["sysfs-root"];
        let machine: ReturnType<typeof readSysfsMachine>;
        try {
          machine = readSysfsMachine(diskReader(), root);
        } catch (error: unknown) {
          if (!(error instanceof RangeError)) throw error;
          io.err(`${error.message}\n`);
          return 1;
        }
        io.out(machineInfoJson(machine.nodes, machine.cpuFrequencyKhz));
        return 0;
      }
      case "presets":
        for (const name of presetNames()) {
          io.out(`${name}\n  ${findPreset(name)?.description ?? ""}\n`);
        }
        return 0;
      case "show": {
        const topology = loadTopology(values.topology);
        io.out(
          `${JSON.stringify({
            cpus: topology.records(),
          })
            .replace('{"cpus":[', '{"cpus": [\n  ')
            .replaceAll("},{", "},\n  {")
            .replace(/\]\}$/, "\n]}")}\n`,
        );
        io.err(
          `${topology.numCpus} CPUs, ${topology.numCores} cores, ${topology.numSockets} sockets, ${topology.numNumaNodes} NUMA nodes, ${topology.numUncoreCaches} uncore caches\n`,
        );
        return 0;
      }
      default:
        throw new TopologyUsageError(
          `Unknown subcommand "${action}": use discover, presets or show`,
        );
    }
  } catch (error: unknown) {
    if (
      error instanceof TopologyUsageError ||
      (error instanceof Error && error.name === "CpusUsageError")
    ) {
      io.err(`gantry topology: ${error.message}\nRun 'gantry topology --help' for usage.\n`);
      return 2;
    }
    throw error;
  }
}
