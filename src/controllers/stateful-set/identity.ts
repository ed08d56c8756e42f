/**
 * StatefulSet pod identity (upstream's stateful_set_utils.go): ordinal names `<set>-<i>`, the
 * identity labels, hostname and subdomain, claim volumes, and pods built from a revision.
 * Pure.
 */
import type { OwnerReference, Pod, PodTemplateSpec, StatefulSet, Volume } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { podFromTemplate } from "../framework/index.ts";

/** `apps.StatefulSetPodNameLabel`. */
export const podNameLabel = "statefulset.kubernetes.io/pod-name";
/** `apps.PodIndexLabel` (GA in 1.32). */
export const podIndexLabel = "apps.kubernetes.io/pod-index";
/** `apps.ControllerRevisionHashLabelKey`: the revision a pod was created from. */
export const revisionLabel = "controller-revision-hash";

const statefulPodName = /^(.*)-([0-9]+)$/;
const maxInt32 = 2 ** 31 - 1;

/**
 * `getParentNameAndOrdinal`: the set name and ordinal a pod name encodes, `{ parent: "",
 * ordinal: -1 }` when it encodes none (or the ordinal does not fit an int32).
 */
export function parentAndOrdinal(podName: string): { parent: string; ordinal: number } {
  const match = statefulPodName.exec(podName);
  if (match === null) return { parent: "", ordinal: -1 };
  const ordinal = Number(match[2]);
  if (!Number.isSafeInteger(ordinal) || ordinal > maxInt32) {
    return { parent: match[1] ?? "", ordinal: -1 };
  }
  return { parent: match[1] ?? "", ordinal };
}

/** `getOrdinal`: -1 for a name without one. */
export function ordinalOf(pod: DeepReadonly<Pod>): number {
  return parentAndOrdinal(pod.metadata.name ?? "").ordinal;
}

/** `getPodName`. */
export function podNameFor(setName: string, ordinal: number): string {
  return `${setName}-${ordinal}`;
}

/** `getStartOrdinal` (StatefulSetStartOrdinal is GA). */
export function startOrdinal(set: DeepReadonly<StatefulSet>): number {
  return set.spec.ordinals?.start ?? 0;
}

/** `isMemberOf`: the pod's name encodes this set's name. */
export function isMemberOf(set: DeepReadonly<StatefulSet>, pod: DeepReadonly<Pod>): boolean {
  return parentAndOrdinal(pod.metadata.name ?? "").parent === (set.metadata.name ?? "");
}

/** `identityMatches`: name, namespace and the pod-name label agree with the ordinal. */
export function identityMatches(set: DeepReadonly<StatefulSet>, pod: DeepReadonly<Pod>): boolean {
  const name = pod.metadata.name ?? "";
  const { parent, ordinal } = parentAndOrdinal(name);
  return (
    ordinal >= 0 &&
    parent === (set.metadata.name ?? "") &&
    name === podNameFor(parent, ordinal) &&
    (pod.metadata.namespace ?? "") === (set.metadata.namespace ?? "") &&
    pod.metadata.labels?.[podNameLabel] === name
  );
}

/** `getPersistentVolumeClaimName`: `<claim>-<set>-<ordinal>`. */
export function claimNameFor(claim: string, setName: string, ordinal: number): string {
  return `${claim}-${setName}-${ordinal}`;
}

/** `storageMatches`: every claim template is mounted from the claim of this ordinal. */
export function storageMatches(set: DeepReadonly<StatefulSet>, pod: DeepReadonly<Pod>): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec.volumes ?? []).map((v) => [v.name, v]));
  for (const claim of set.spec.volumeClaimTemplates ?? []) {
    const name = claim.metadata?.name ?? "";
    const volume = volumes.get(name);
    if (
      volume?.persistentVolumeClaim?.claimName !==
      claimNameFor(name, set.metadata.name ?? "", ordinal)
    ) {
      return false;
    }
  }
  return true;
}

/**
 * `updateIdentity` (+ `updateStorage`): sets the name, namespace and identity labels from the
 * ordinal, and mounts the claims of the set's claim templates (replacing volumes of the same
 * name). Edits `pod` in place.
 */
export function updateIdentity(set: DeepReadonly<StatefulSet>, pod: Pod): void {
  const setName = set.metadata.name ?? "";
  const ordinal = ordinalOf(pod);
  pod.metadata.name = podNameFor(setName, ordinal);
  pod.metadata.namespace = set.metadata.namespace ?? "";
  pod.metadata.labels = {
    ...pod.metadata.labels,
    [podNameLabel]: pod.metadata.name,
    [podIndexLabel]: String(ordinal),
  };
  const templates = set.spec.volumeClaimTemplates ?? [];
  if (templates.length === 0) return;
  const claimed = new Set(templates.map((t) => t.metadata?.name ?? ""));
  const volumes: Volume[] = templates.map((t) => ({
    name: t.metadata?.name ?? "",
    persistentVolumeClaim: {
      claimName: claimNameFor(t.metadata?.name ?? "", setName, ordinal),
    },
  }));
  for (const volume of pod.spec.volumes ?? []) {
    if (!claimed.has(volume.name)) volumes.push(volume);
  }
  pod.spec.volumes = volumes;
}

/**
 * `newVersionedStatefulSetPod` for one template: the pod of `ordinal` built from `template`
 * (a revision of the set's template), labelled with `revision`, with hostname `<set>-<i>` and
 * subdomain `spec.serviceName`.
 */
export function newStatefulSetPod(
  set: DeepReadonly<StatefulSet>,
  template: DeepReadonly<PodTemplateSpec>,
  ordinal: number,
  revision: string,
  controllerRef: OwnerReference,
): Pod {
  const setName = set.metadata.name ?? "";
  const pod = podFromTemplate(template, set.metadata.namespace ?? "", setName, controllerRef);
  pod.metadata.name = podNameFor(setName, ordinal);
  updateIdentity(set, pod);
  pod.spec.hostname = pod.metadata.name;
  const service = set.spec.serviceName ?? "";
  if (service !== "") pod.spec.subdomain = service;
  pod.metadata.labels = { ...pod.metadata.labels, [revisionLabel]: revision };
  return pod;
}

/** `getPodRevision`: the `controller-revision-hash` label ("" without one). */
export function podRevision(pod: DeepReadonly<Pod>): string {
  return pod.metadata.labels?.[revisionLabel] ?? "";
}
