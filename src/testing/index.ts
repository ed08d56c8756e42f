export { startTestApiServer, type TestApiServer } from "./api-server.ts";
export { DaemonSetBuilder, makeDaemonSet } from "./builders/daemon-set-builder.ts";
export { DeploymentBuilder, makeDeployment } from "./builders/deployment-builder.ts";
export { JobBuilder, makeJob } from "./builders/job-builder.ts";
export {
  ClusterQueueBuilder,
  KueueWorkloadBuilder,
  makeClusterQueue,
  makeGroupPod,
  makeKueueWorkload,
  makeLocalQueue,
  makeResourceFlavor,
  type QuotaSpec,
  singleClusterQueueSetup,
} from "./builders/kueue-builders.ts";
export {
  LeaderWorkerSetBuilder,
  makeLeaderWorkerSet,
} from "./builders/leader-worker-set-builder.ts";
export { makeNode, NodeBuilder } from "./builders/node-builder.ts";
export { makePdb, PdbBuilder } from "./builders/pdb-builder.ts";
export { type AffinityTermOptions, makePod, PodBuilder } from "./builders/pod-builder.ts";
export { type PodFixtureState, setPodState } from "./builders/pod-state.ts";
export { makeQueuedPod, type QueuedPodOptions } from "./builders/queued-pod-builder.ts";
export { makeReplicaSet, ReplicaSetBuilder } from "./builders/replica-set-builder.ts";
export {
  minimalPlugins,
  newTestFramework,
  nodeInfoOf,
  type RecordedEvent,
  type TestFramework,
  type TestFrameworkOptions,
  unreachableClient,
} from "./builders/scheduler-fixtures.ts";
export { makeStatefulSet, StatefulSetBuilder } from "./builders/stateful-set-builder.ts";
export { makeWidgetCrd } from "./builders/widget-crd.ts";
export {
  makePodGroup,
  makeWorkload,
  PodGroupBuilder,
  WorkloadBuilder,
} from "./builders/workload-builder.ts";
export {
  type ClusterHarness,
  type ClusterHarnessOptions,
  startClusterHarness,
} from "./cluster-harness.ts";
export { type EtcdCluster, type EtcdMember, type StartEtcdOptions, startEtcd } from "./etcd.ts";
export { eventually } from "./eventually.ts";
export { FakeClock, settle } from "./fake-clock.ts";
export {
  type GantryProcess,
  type GantryResponse,
  type GantryRun,
  type KubectlResult,
  kubectl,
  kubectlDir,
  kubectlOk,
  readKubeconfig,
  requestGantry,
  runGantry,
  type StartOptions,
  startGantry,
} from "./gantry-process.ts";
export { componentLifetime } from "./lifetime.ts";
export { freePort } from "./ports.ts";
