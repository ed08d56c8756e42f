// The public surface of kubelet/: emulated nodes and kubelets (a NodeFleet), the cluster config
// that declares them, the pod admission seam for the CPU manager, and the kubelet's read-only
// HTTP endpoints.

export {
  type AdmitHandlerFactory,
  admitted,
  type NodeContext,
  type PodAdmitAttributes,
  type PodAdmitHandler,
  type PodAdmitResult,
  runAdmitHandlers,
} from "./admission/admit-handler.ts";
export { newPredicateAdmitHandler } from "./admission/predicate.ts";
export {
  computeAllocatable,
  type Reservations,
  validateReservation,
} from "./config/allocatable.ts";
export {
  type ClusterConfig,
  type CpuManagerPolicy,
  clusterConfigApiVersion,
  clusterConfigKind,
  cpuManagerPolicies,
  defaultCapacity,
  defaultClusterConfig,
  defaultKubeletSettings,
  defaultNodeCount,
  defaultNodePool,
  type KubeletSettings,
  type NetworkingConfig,
  type NodePool,
  poolNodeNames,
  type TopologyManagerPolicy,
  type TopologyManagerScope,
} from "./config/cluster-config.ts";
export {
  type ControllerManagerSettings,
  defaultControllerManagerSettings,
} from "./config/controller-manager-settings.ts";
export {
  ClusterConfigError,
  type ParseClusterConfigOptions,
  type PoolValidator,
  parseClusterConfig,
} from "./config/parse.ts";
export {
  allocatePod,
  type CheckpointStore,
  type CpuManagerAdmitOptions,
  CpuManagerError,
  CpuManagerState,
  CpuSet,
  CpuTopology,
  cadvisorNodesFromRecords,
  checkpointFileName,
  decodeCheckpoint,
  describeCpus,
  discoverTopology,
  encodeCheckpoint,
  explainSteps,
  findPreset,
  formatOptions,
  newCpuManagerAdmitHandlers,
  newStaticPolicyOptions,
  type Placement,
  PolicyOptionsError,
  placePods,
  presetNames,
  readSysfsMachine,
  readTopology,
  reservedCpuCount,
  StaticPolicy,
  StaticPolicyError,
  type SysfsReader,
  staticPolicyOptionNames,
  type TakeStep,
  takeByTopology,
  unexpectedAdmissionError,
} from "./cpumanager/index.ts";
export {
  NodeFleet,
  type NodeFleetDeps,
  type NodeFleetOptions,
} from "./fleet/node-fleet.ts";
export {
  type CadvisorCache,
  type CadvisorCore,
  type CadvisorNode,
  flatMachineTopology,
  type MachineInfo,
  type MachineTopology,
} from "./machine/machine-info.ts";
export { cadvisorTopologyInterpreter, type TopologyInterpreter } from "./machine/topology.ts";
export { type EmulatedNode, kubeletVersion } from "./node/emulated-node.ts";
export {
  failAnnotation,
  kubeletAnnotation,
  nodeLeaseNamespace,
  noKubelet,
  poolAnnotation,
} from "./node/node-object.ts";
export {
  exitCodeAnnotation,
  runForAnnotation,
  startDelayAnnotation,
  stopDelayAnnotation,
} from "./runtime/plan.ts";
export { configz, machineInfo, podsDocument } from "./server/documents.ts";
export { type KubeletEndpoints, newKubeletServer } from "./server/kubelet-server.ts";
