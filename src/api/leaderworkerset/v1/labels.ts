/**
 * The group, version and kind of LeaderWorkerSet, and the labels, annotations and environment
 * variables it puts on its pods, spelled as kubernetes-sigs/lws's `api/leaderworkerset/v1`.
 */

export const leaderWorkerSetGroup = "leaderworkerset.x-k8s.io";
export const leaderWorkerSetVersion = "v1";
export const leaderWorkerSetApiVersion = `${leaderWorkerSetGroup}/${leaderWorkerSetVersion}`;
export const leaderWorkerSetKindName = "LeaderWorkerSet";
export const leaderWorkerSetPlural = "leaderworkersets";

/** `SetNameLabelKey`: the LeaderWorkerSet a pod (or PodGroup) belongs to. */
export const setNameLabel = "leaderworkerset.sigs.k8s.io/name";
/** `GroupIndexLabelKey`: the group (replica) index. */
export const groupIndexLabel = "leaderworkerset.sigs.k8s.io/group-index";
/** `WorkerIndexLabelKey`: the pod's index in its group; the leader is 0. */
export const workerIndexLabel = "leaderworkerset.sigs.k8s.io/worker-index";
/** `GroupUniqueHashLabelKey`: SHA-1 of `<namespace>/<leader pod name>`, the same on every pod of a group. */
export const groupKeyLabel = "leaderworkerset.sigs.k8s.io/group-key";
/** `RevisionKey`: the template revision the pod was built from. */
export const templateRevisionHashLabel = "leaderworkerset.sigs.k8s.io/template-revision-hash";
/** `SubGroupIndexLabelKey`. */
export const subGroupIndexLabel = "leaderworkerset.sigs.k8s.io/subgroup-index";
/** `SubGroupUniqueHashLabelKey`. */
export const subGroupKeyLabel = "leaderworkerset.sigs.k8s.io/subgroup-key";

/** `SizeAnnotationKey`: `leaderWorkerTemplate.size`, on every pod. */
export const sizeAnnotation = "leaderworkerset.sigs.k8s.io/size";
/** `LeaderPodNameAnnotationKey`: the leader's name, on workers. */
export const leaderNameAnnotation = "leaderworkerset.sigs.k8s.io/leader-name";
/** `ReplicasAnnotationKey` (upstream puts it on the leader StatefulSet). */
export const replicasAnnotation = "leaderworkerset.sigs.k8s.io/replicas";
/** `ExclusiveKeyAnnotationKey`: the topology key for 1:1 exclusive placement. */
export const exclusiveTopologyAnnotation = "leaderworkerset.sigs.k8s.io/exclusive-topology";
/** `SubGroupExclusiveKeyAnnotationKey`. */
export const subGroupExclusiveTopologyAnnotation =
  "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology";
/** `SubdomainPolicyAnnotationKey`: set on leaders when the policy is UniquePerReplica. */
export const subdomainPolicyAnnotation = "leaderworkerset.sigs.k8s.io/subdomainPolicy";
/** `SubGroupSizeAnnotationKey`. */
export const subGroupSizeAnnotation = "leaderworkerset.sigs.k8s.io/subgroup-size";
/** `SubGroupPolicyTypeAnnotationKey`: on leaders when a subgroup policy is set. */
export const subGroupPolicyTypeAnnotation = "leaderworkerset.sigs.k8s.io/subgroup-policy-type";

/** `LwsLeaderAddress`: `<lws>-<group>.<subdomain>.<namespace>`. */
export const leaderAddressEnv = "LWS_LEADER_ADDRESS";
/** `LwsGroupSize`. */
export const groupSizeEnv = "LWS_GROUP_SIZE";
/** `LwsWorkerIndex`. */
export const workerIndexEnv = "LWS_WORKER_INDEX";

/** The condition reasons and messages of upstream's `makeCondition`. */
export const allGroupsReadyReason = "AllGroupsReady";
export const groupsProgressingReason = "GroupsProgressing";
export const groupsUpdatingReason = "GroupsUpdating";
