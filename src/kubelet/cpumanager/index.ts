// The CPU manager inside kubelet/: the topology model and its readers, cpuset, takeByTopology,
// the static policy, the checkpoint and the per-node admit handler. Re-exported by kubelet/index.ts.

export { type CpuManagerAdmitOptions, newCpuManagerAdmitHandlers } from "./admit-handlers.ts";
export {
  type AllocatePodResult,
  allocatePod,
  containersOf,
  unexpectedAdmissionError,
} from "./allocate-pod.ts";
export {
  type CheckpointStore,
  CpuManager,
  CpuManagerError,
  reservedCpuCount,
  staticPolicyFor,
} from "./cpu-manager.ts";
export { CpuSet } from "./cpuset.ts";
export {
  type ContainerPlacement,
  describeCpus,
  explainSteps,
  type Placement,
  type PlacementSummary,
  type PodPlacement,
  placePods,
} from "./planning.ts";
export {
  alignByUncoreCacheAlias,
  defaultStaticPolicyOptions,
  formatOptions,
  newStaticPolicyOptions,
  PolicyOptionsError,
  type StaticPolicyOptions,
  staticPolicyOptionNames,
  validateStaticPolicyOptions,
} from "./policy-options.ts";
export {
  type AllocateResult,
  guaranteedCpus,
  podGuaranteedCpus,
  StaticPolicy,
  StaticPolicyError,
  smtAlignmentErrorReason,
} from "./policy-static.ts";
export {
  CheckpointError,
  checkpointFileName,
  decodeCheckpoint,
  encodeCheckpoint,
} from "./state/checkpoint.ts";
export { CpuManagerState } from "./state/state.ts";
export type { TakeStep } from "./take/accumulator.ts";
export type { TakeResult } from "./take/packed.ts";
export { takeByTopology } from "./take-by-topology.ts";
export { discoverTopology } from "./topology/discover.ts";
export { cadvisorNodesFromRecords } from "./topology/machine.ts";
export { findPreset, type Preset, presetNames } from "./topology/presets.ts";
export { type ReadTopology, readTopology } from "./topology/read.ts";
export { readSysfsMachine, type SysfsMachine, type SysfsReader } from "./topology/sysfs.ts";
export { type CpuInfo, type CpuRecord, CpuTopology } from "./topology/topology.ts";
