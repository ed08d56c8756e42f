/**
 * Named topologies for tests: a preset as the kubelet sees it (through cAdvisor's MachineInfo
 * and `discoverTopology`, so core ids are machine-wide).
 */
import { discoverTopology } from "./discover.ts";
import { cadvisorNodesFromRecords } from "./machine.ts";
import { findPreset } from "./presets.ts";
import type { CpuTopology } from "./topology.ts";

/** The preset's topology (throws `RangeError` for an unknown name). */
export function fixture(name: string): CpuTopology {
  const preset = findPreset(name);
  if (preset === undefined) throw new RangeError(`Cannot find the topology preset "${name}"`);
  return discoverTopology(cadvisorNodesFromRecords(preset.records(), { caches: preset.caches }));
}
