/**
 * Wire types of `core/v1` PodSpec and everything it contains (containers, volumes, affinity,
 * tolerations, …), mirroring the JSON field names exactly. Quantities are strings: defaulting
 * rewrites numeric quantities into their canonical string form, as upstream's decoder does.
 */
import type { LabelSelector, ObjectMeta } from "../../meta/types.ts";

/** A resource quantity in canonical form: `500m`, `1Gi`, `2`. */
export type Quantity = string;
/** `cpu`, `memory`, `ephemeral-storage`, `pods`, extended resources … */
export type ResourceList = Record<string, Quantity>;
/** `intstr.IntOrString`: a port number or a named port, a count or a percentage. */
export type IntOrString = number | string;

export interface LocalObjectReference {
  name?: string;
}

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath: string;
}

export interface ResourceFieldSelector {
  containerName?: string;
  resource: string;
  divisor?: Quantity;
}

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface ConfigMapKeySelector extends LocalObjectReference {
  key: string;
  optional?: boolean;
}

export type SecretKeySelector = ConfigMapKeySelector;

export interface EnvVarSource {
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  configMapKeyRef?: ConfigMapKeySelector;
  secretKeyRef?: SecretKeySelector;
  fileKeyRef?: { volumeName: string; path: string; key: string; optional?: boolean };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: LocalObjectReference & { optional?: boolean };
  secretRef?: LocalObjectReference & { optional?: boolean };
}

export type Protocol = "TCP" | "UDP" | "SCTP";

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort: number;
  protocol?: Protocol;
  hostIP?: string;
}

export interface ResourceClaim {
  name: string;
  request?: string;
}

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  claims?: ResourceClaim[];
}

export interface ContainerResizePolicy {
  resourceName: string;
  restartPolicy: "NotRequired" | "RestartContainer";
}

export interface VolumeMount {
  name: string;
  readOnly?: boolean;
  recursiveReadOnly?: "Disabled" | "IfPossible" | "Enabled";
  mountPath: string;
  subPath?: string;
  mountPropagation?: "None" | "HostToContainer" | "Bidirectional";
  subPathExpr?: string;
}

export interface VolumeDevice {
  name: string;
  devicePath: string;
}

export interface HttpHeader {
  name: string;
  value: string;
}

/** The action of a probe or lifecycle hook: exactly one handler. Structure only. */
export interface ProbeHandler {
  exec?: { command?: string[] };
  httpGet?: {
    path?: string;
    port: IntOrString;
    host?: string;
    scheme?: "HTTP" | "HTTPS";
    httpHeaders?: HttpHeader[];
  };
  tcpSocket?: { port: IntOrString; host?: string };
  grpc?: { port: number; service?: string };
}

export interface Probe extends ProbeHandler {
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface LifecycleHandler extends Omit<ProbeHandler, "grpc"> {
  sleep?: { seconds: number };
}

export interface Lifecycle {
  postStart?: LifecycleHandler;
  preStop?: LifecycleHandler;
  stopSignal?: string;
}

export interface Capabilities {
  add?: string[];
  drop?: string[];
}

export interface SeLinuxOptions {
  user?: string;
  role?: string;
  type?: string;
  level?: string;
}

export interface SeccompProfile {
  type: "Unconfined" | "RuntimeDefault" | "Localhost";
  localhostProfile?: string;
}

export interface AppArmorProfile {
  type: "Unconfined" | "RuntimeDefault" | "Localhost";
  localhostProfile?: string;
}

export interface WindowsSecurityContextOptions {
  gmsaCredentialSpecName?: string;
  gmsaCredentialSpec?: string;
  runAsUserName?: string;
  hostProcess?: boolean;
}

export interface SecurityContext {
  capabilities?: Capabilities;
  privileged?: boolean;
  seLinuxOptions?: SeLinuxOptions;
  windowsOptions?: WindowsSecurityContextOptions;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  procMount?: "Default" | "Unmasked";
  seccompProfile?: SeccompProfile;
  appArmorProfile?: AppArmorProfile;
}

export interface PodSecurityContext {
  seLinuxOptions?: SeLinuxOptions;
  windowsOptions?: WindowsSecurityContextOptions;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  supplementalGroups?: number[];
  supplementalGroupsPolicy?: "Merge" | "Strict";
  fsGroup?: number;
  sysctls?: { name: string; value: string }[];
  fsGroupChangePolicy?: "OnRootMismatch" | "Always";
  seccompProfile?: SeccompProfile;
  appArmorProfile?: AppArmorProfile;
  seLinuxChangePolicy?: string;
}

export type PullPolicy = "Always" | "Never" | "IfNotPresent";
export type ContainerRestartPolicy = "Always" | "Never" | "OnFailure";

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  envFrom?: EnvFromSource[];
  env?: EnvVar[];
  resources?: ResourceRequirements;
  resizePolicy?: ContainerResizePolicy[];
  /** Only `Always` on an init container, which makes it a sidecar. */
  restartPolicy?: ContainerRestartPolicy;
  restartPolicyRules?: unknown[];
  volumeMounts?: VolumeMount[];
  volumeDevices?: VolumeDevice[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Lifecycle;
  terminationMessagePath?: string;
  terminationMessagePolicy?: "File" | "FallbackToLogsOnError";
  imagePullPolicy?: PullPolicy;
  securityContext?: SecurityContext;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
}

/** An ephemeral (debug) container: a Container plus the container it targets. */
export interface EphemeralContainer extends Container {
  targetContainerName?: string;
}

export interface KeyToPathSource {
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export interface ConfigMapVolumeSource extends KeyToPathSource, LocalObjectReference {}

export interface SecretVolumeSource extends KeyToPathSource {
  secretName?: string;
}

export interface DownwardApiVolumeFile {
  path: string;
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  mode?: number;
}

export interface DownwardApiVolumeSource {
  items?: DownwardApiVolumeFile[];
  defaultMode?: number;
}

export interface VolumeProjection {
  secret?: LocalObjectReference & { items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardApiVolumeFile[] };
  configMap?: LocalObjectReference & { items?: KeyToPath[]; optional?: boolean };
  serviceAccountToken?: { audience?: string; expirationSeconds?: number; path: string };
  clusterTrustBundle?: Record<string, unknown>;
  podCertificate?: Record<string, unknown>;
}

export interface ProjectedVolumeSource {
  sources?: VolumeProjection[];
  defaultMode?: number;
}

export type HostPathType =
  | ""
  | "DirectoryOrCreate"
  | "Directory"
  | "FileOrCreate"
  | "File"
  | "Socket"
  | "CharDevice"
  | "BlockDevice";

/**
 * A pod volume: a name and exactly one source. Common sources are typed; any other source
 * (`nfs`, `csi`, `ephemeral`, …) is kept as sent.
 */
export interface Volume {
  name: string;
  emptyDir?: { medium?: "" | "Memory" | "HugePages"; sizeLimit?: Quantity };
  configMap?: ConfigMapVolumeSource;
  secret?: SecretVolumeSource;
  hostPath?: { path: string; type?: HostPathType };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  projected?: ProjectedVolumeSource;
  downwardAPI?: DownwardApiVolumeSource;
  [otherSource: string]: unknown;
}

export type NodeSelectorOperator = "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt";

export interface NodeSelectorRequirement {
  key: string;
  operator: NodeSelectorOperator;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
  namespaceSelector?: LabelSelector;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export type PodAntiAffinity = PodAffinity;

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAntiAffinity;
}

export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute";

export interface Toleration {
  key?: string;
  operator?: "Exists" | "Equal" | "Lt" | "Gt";
  value?: string;
  effect?: TaintEffect | "";
  tolerationSeconds?: number;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway";
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeAffinityPolicy?: "Honor" | "Ignore";
  nodeTaintsPolicy?: "Honor" | "Ignore";
  matchLabelKeys?: string[];
}

export interface PodSchedulingGate {
  name: string;
}

/**
 * gantry's gang-scheduling link from a pod to its group: the Workload `name` and either a
 * standalone PodGroup (`podGroupName`) or one of the Workload's embedded groups (`podGroup`,
 * optionally one replica of it via `podGroupReplicaKey`). Immutable.
 */
export interface WorkloadReference {
  name: string;
  podGroupName?: string;
  podGroup?: string;
  podGroupReplicaKey?: string;
}

export interface PodReadinessGate {
  conditionType: string;
}

export interface HostAlias {
  ip: string;
  hostnames?: string[];
}

export interface PodDnsConfig {
  nameservers?: string[];
  searches?: string[];
  options?: { name?: string; value?: string }[];
}

export type RestartPolicy = "Always" | "OnFailure" | "Never";
export type DnsPolicy = "ClusterFirstWithHostNet" | "ClusterFirst" | "Default" | "None";

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers: Container[];
  ephemeralContainers?: EphemeralContainer[];
  restartPolicy?: RestartPolicy;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: DnsPolicy;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  /** Deprecated alias of `serviceAccountName`. */
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  shareProcessNamespace?: boolean;
  securityContext?: PodSecurityContext;
  imagePullSecrets?: LocalObjectReference[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  hostAliases?: HostAlias[];
  priorityClassName?: string;
  priority?: number;
  dnsConfig?: PodDnsConfig;
  readinessGates?: PodReadinessGate[];
  runtimeClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: "PreemptLowerPriority" | "Never";
  overhead?: ResourceList;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  setHostnameAsFQDN?: boolean;
  os?: { name: "linux" | "windows" };
  hostUsers?: boolean;
  schedulingGates?: PodSchedulingGate[];
  resourceClaims?: {
    name: string;
    resourceClaimName?: string;
    resourceClaimTemplateName?: string;
  }[];
  resources?: ResourceRequirements;
  hostnameOverride?: string;
  workloadRef?: WorkloadReference;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}
