/**
 * The pods of a group, as upstream's leader and worker StatefulSets and its pod webhook build
 * them: names, hostname and subdomain, the `leaderworkerset.sigs.k8s.io/*` labels and
 * annotations, the `LWS_*` environment variables in every container, and the pod's
 * `spec.workloadRef` naming the group's Workload and PodGroup. Pure.
 */
import {
  type Container,
  type DefaultedLeaderWorkerSet,
  type EnvVar,
  exclusiveTopologyAnnotation,
  groupIndexLabel,
  groupKeyLabel,
  groupSizeEnv,
  leaderAddressEnv,
  leaderNameAnnotation,
  type OwnerReference,
  type Pod,
  setNameLabel,
  sizeAnnotation,
  subdomainPolicyAnnotation,
  subGroupExclusiveTopologyAnnotation,
  subGroupIndexLabel,
  subGroupKeyLabel,
  subGroupPolicyTypeAnnotation,
  subGroupSizeAnnotation,
  templateRevisionHashLabel,
  workerIndexEnv,
  workerIndexLabel,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { podFromTemplate } from "../framework/index.ts";
import { groupKey, sha1Hex } from "./hash.ts";
import { leaderPodName, podGroupName, podName, workloadName } from "./identity.ts";

/** What every pod of one group is built from. */
export interface GroupPodInput {
  readonly lws: DeepReadonly<DefaultedLeaderWorkerSet>;
  readonly group: number;
  /** The template revision key the pod is labelled with. */
  readonly revision: string;
  readonly controllerRef: OwnerReference;
}

/**
 * `getSubGroupIndex`: when `size - 1` divides by the subgroup size the leader is the extra pod
 * of subgroup 0, otherwise subgroups are plain slices of the worker indices.
 */
export function subGroupIndex(size: number, subGroupSize: number, worker: number): number {
  if ((size - 1) % subGroupSize === 0) return Math.floor((worker - 1) / subGroupSize);
  return Math.floor(worker / subGroupSize);
}

/**
 * `addEnvVarsIfNotExists`: `vars` at the front, in their order, then the container's own
 * variables except those of the same names.
 */
function prependEnv(container: Container, vars: readonly EnvVar[]): void {
  const names = new Set(vars.map((v) => v.name));
  container.env = [...vars, ...(container.env ?? []).filter((v) => !names.has(v.name))];
}

/** The pod of worker index `worker` (0: the leader) of `input.group`. */
export function newGroupPod(input: GroupPodInput, worker: number): Pod {
  const { lws, group, revision } = input;
  const lwsName = lws.metadata.name ?? "";
  const namespace = lws.metadata.namespace ?? "";
  const spec = lws.spec;
  const template = spec.leaderWorkerTemplate;
  const size = template.size;
  const isLeader = worker === 0;
  const leaderName = leaderPodName(lwsName, group);
  const name = podName(lwsName, group, worker);
  const source = isLeader
    ? (template.leaderTemplate ?? template.workerTemplate)
    : template.workerTemplate;
  const pod = podFromTemplate(source, namespace, lwsName, input.controllerRef);
  delete pod.metadata.generateName;
  pod.metadata.name = name;

  const key = groupKey(namespace, leaderName);
  const labels: Record<string, string> = {
    ...pod.metadata.labels,
    [setNameLabel]: lwsName,
    [groupIndexLabel]: String(group),
    [workerIndexLabel]: String(worker),
    [groupKeyLabel]: key,
    [templateRevisionHashLabel]: revision,
  };
  const annotations: Record<string, string> = {
    ...pod.metadata.annotations,
    [sizeAnnotation]: String(size),
  };
  if (!isLeader) annotations[leaderNameAnnotation] = leaderName;
  const exclusive = lws.metadata.annotations?.[exclusiveTopologyAnnotation];
  if (exclusive !== undefined && exclusive !== "") {
    annotations[exclusiveTopologyAnnotation] = exclusive;
  }
  const subGroup = template.subGroupPolicy;
  if (subGroup?.subGroupSize !== undefined && subGroup.subGroupSize > 0) {
    annotations[subGroupSizeAnnotation] = String(subGroup.subGroupSize);
    if (isLeader) {
      annotations[subGroupPolicyTypeAnnotation] = subGroup.subGroupPolicyType ?? "LeaderWorker";
    }
    const subExclusive = lws.metadata.annotations?.[subGroupExclusiveTopologyAnnotation];
    if (subExclusive !== undefined && subExclusive !== "") {
      annotations[subGroupExclusiveTopologyAnnotation] = subExclusive;
    }
    const index = isLeader ? 0 : subGroupIndex(size, subGroup.subGroupSize, worker);
    labels[subGroupIndexLabel] = String(index);
    labels[subGroupKeyLabel] = sha1Hex(`${leaderName}/${index}`);
  }
  const uniquePerReplica = spec.networkConfig.subdomainPolicy === "UniquePerReplica";
  if (isLeader && uniquePerReplica) annotations[subdomainPolicyAnnotation] = "UniquePerReplica";
  pod.metadata.labels = labels;
  pod.metadata.annotations = annotations;

  // The StatefulSets' hostname and subdomain: the shared headless service `<lws>`, or the
  // group's own service `<leader>` with UniquePerReplica.
  pod.spec.hostname = name;
  pod.spec.subdomain = uniquePerReplica ? leaderName : lwsName;
  const env: EnvVar[] = [
    { name: leaderAddressEnv, value: `${leaderName}.${pod.spec.subdomain}.${namespace}` },
    { name: groupSizeEnv, value: String(size) },
    { name: workerIndexEnv, value: String(worker) },
  ];
  for (const container of pod.spec.containers ?? []) prependEnv(container, env);
  for (const container of pod.spec.initContainers ?? []) prependEnv(container, env);
  // A template that names its own scheduling group keeps it (the native-integration draft's
  // escape hatch); otherwise the pod joins its group's PodGroup.
  if (pod.spec.workloadRef === undefined) {
    pod.spec.workloadRef = {
      name: workloadName(lwsName),
      podGroupName: podGroupName(lwsName, group),
    };
  }
  return pod;
}

/** Every pod of a group, leader first. */
export function newGroupPods(input: GroupPodInput): Pod[] {
  const size = input.lws.spec.leaderWorkerTemplate.size;
  return Array.from({ length: size }, (_, worker) => newGroupPod(input, worker));
}
