/**
 * How a Deployment sees its ReplicaSets (upstream's deployment/util): which one is new, which
 * are old, revisions and the annotations the controller keeps on them.
 */
import {
  type Deployment,
  type PodTemplateSpec,
  type ReplicaSet,
  semanticEqual,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { podTemplateHashLabel } from "./hash.ts";

export const revisionAnnotation = "deployment.kubernetes.io/revision";
export const revisionHistoryAnnotation = "deployment.kubernetes.io/revision-history";
export const desiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas";
export const maxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";
/** The apps/v1beta1 rollback request annotation; never copied onto ReplicaSets. */
export const deprecatedRollbackToAnnotation = "deprecated.deployment.rollback.to";
export const lastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration";
/** Upstream's `maxRevHistoryLengthInChars`. */
export const maxRevisionHistoryLength = 2000;

/** Annotations a Deployment never copies onto its ReplicaSets (`annotationsToSkip`). */
export const annotationsToSkip: ReadonlySet<string> = new Set([
  lastAppliedConfigAnnotation,
  revisionAnnotation,
  revisionHistoryAnnotation,
  desiredReplicasAnnotation,
  maxReplicasAnnotation,
  deprecatedRollbackToAnnotation,
]);

type RS = DeepReadonly<ReplicaSet>;
type D = DeepReadonly<Deployment>;

/** `spec.replicas` (defaulted by the API server, so absent only in hand-made objects). */
export function replicasOf(obj: { readonly spec: { readonly replicas?: number } }): number {
  return obj.spec.replicas ?? 1;
}

/** The revision annotation as a number: 0 when absent, `undefined` when unparsable. */
export function revisionOf(obj: {
  readonly metadata: { readonly annotations?: Readonly<Record<string, string>> };
}): number | undefined {
  const text = obj.metadata.annotations?.[revisionAnnotation];
  if (text === undefined) return 0;
  return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** `MaxRevision`: the highest parsable revision, 0 for none. */
export function maxRevision(replicaSets: readonly RS[]): number {
  let max = 0;
  for (const rs of replicaSets) {
    const v = revisionOf(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

function withoutHash(template: DeepReadonly<PodTemplateSpec> | undefined): unknown {
  const copy = structuredClone((template ?? {}) as PodTemplateSpec);
  const labels = copy.metadata?.labels;
  if (labels !== undefined) delete labels[podTemplateHashLabel];
  return copy;
}

/** `EqualIgnoreHash`: semantic equality of two templates, ignoring the pod-template-hash label. */
export function equalIgnoreHash(
  a: DeepReadonly<PodTemplateSpec> | undefined,
  b: DeepReadonly<PodTemplateSpec> | undefined,
): boolean {
  return semanticEqual(withoutHash(a), withoutHash(b));
}

function creationMs(obj: { readonly metadata: { readonly creationTimestamp?: string | null } }) {
  const text = obj.metadata.creationTimestamp;
  return text === undefined || text === null ? 0 : Date.parse(text);
}

function byName(a: RS, b: RS): number {
  const x = a.metadata.name ?? "";
  const y = b.metadata.name ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `ReplicaSetsByCreationTimestamp`: oldest first, ties by name. */
export function byCreation(a: RS, b: RS): number {
  return creationMs(a) - creationMs(b) || byName(a, b);
}

/** `ReplicaSetsBySizeOlder`: largest first, ties oldest first. */
export function bySizeOlder(a: RS, b: RS): number {
  return replicasOf(b) - replicasOf(a) || byCreation(a, b);
}

/** `ReplicaSetsBySizeNewer`: largest first, ties newest first. */
export function bySizeNewer(a: RS, b: RS): number {
  return replicasOf(b) - replicasOf(a) || byCreation(b, a);
}

/** `ReplicaSetsByRevision`: lowest revision first, ties by creation. */
export function byRevision(a: RS, b: RS): number {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  if (ra === undefined || rb === undefined || ra === rb) return byCreation(a, b);
  return ra - rb;
}

/** `FindNewReplicaSet`: the oldest ReplicaSet whose template equals the Deployment's. */
export function findNewReplicaSet(deployment: D, replicaSets: readonly RS[]): RS | undefined {
  return [...replicaSets]
    .sort(byCreation)
    .find((rs) => equalIgnoreHash(rs.spec.template, deployment.spec.template));
}

/** `FindOldReplicaSets`: every other ReplicaSet, and those of them that still want pods. */
export function findOldReplicaSets(
  deployment: D,
  replicaSets: readonly RS[],
): { withReplicas: RS[]; all: RS[] } {
  const newRs = findNewReplicaSet(deployment, replicaSets);
  const all = replicaSets.filter(
    (rs) => newRs === undefined || rs.metadata.uid !== newRs.metadata.uid,
  );
  return { withReplicas: all.filter((rs) => replicasOf(rs) !== 0), all };
}

/** `FilterActiveReplicaSets`: those that want at least one pod. */
export function activeReplicaSets(replicaSets: readonly (RS | undefined)[]): RS[] {
  return replicaSets.filter((rs): rs is RS => rs !== undefined && replicasOf(rs) > 0);
}

/** Sum of `spec.replicas`. */
export function specReplicaCount(replicaSets: readonly (RS | undefined)[]): number {
  return replicaSets.reduce((sum, rs) => sum + (rs === undefined ? 0 : replicasOf(rs)), 0);
}

/** Sum of one status field. */
export function statusCount(
  replicaSets: readonly (RS | undefined)[],
  field: "replicas" | "readyReplicas" | "availableReplicas",
): number {
  return replicaSets.reduce((sum, rs) => sum + (rs?.status?.[field] ?? 0), 0);
}

function setAnnotation(rs: ReplicaSet, key: string, value: string): boolean {
  rs.metadata.annotations ??= {};
  if (rs.metadata.annotations[key] === value) return false;
  rs.metadata.annotations[key] = value;
  return true;
}

/** `SetReplicasAnnotations`: desired-replicas and max-replicas; true if anything changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = setAnnotation(rs, desiredReplicasAnnotation, String(desired));
  const b = setAnnotation(rs, maxReplicasAnnotation, String(max));
  return a || b;
}

/** `ReplicasAnnotationsNeedUpdate`. */
export function replicasAnnotationsNeedUpdate(rs: RS, desired: number, max: number): boolean {
  const annotations = rs.metadata.annotations ?? {};
  return (
    annotations[desiredReplicasAnnotation] !== String(desired) ||
    annotations[maxReplicasAnnotation] !== String(max)
  );
}

/** An integer annotation (desired-replicas, max-replicas), `undefined` when absent or invalid. */
export function intAnnotation(rs: RS, key: string): number | undefined {
  const text = rs.metadata.annotations?.[key];
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return undefined;
  return Number(text);
}

/**
 * `SetNewReplicaSetAnnotations`: copies the Deployment's annotations (except
 * `annotationsToSkip`), raises the revision to `newRevision` when it is lower (keeping the
 * previous one in revision-history, within `maxRevisionHistoryLength` characters), and for a
 * ReplicaSet about to be created sets desired-replicas and max-replicas. Mutates `rs`; returns
 * whether anything changed.
 */
export function setNewReplicaSetAnnotations(
  deployment: D,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
  maxSurge: number,
): boolean {
  let changed = false;
  rs.metadata.annotations ??= {};
  const annotations = rs.metadata.annotations;
  for (const [key, value] of Object.entries(deployment.metadata.annotations ?? {})) {
    if (annotationsToSkip.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  const oldText = annotations[revisionAnnotation];
  let oldRevision = 0;
  if (oldText !== undefined && oldText !== "") {
    if (!/^[+-]?\d+$/.test(oldText)) return false;
    oldRevision = Number(oldText);
  }
  if (oldRevision < newRevision) {
    annotations[revisionAnnotation] = String(newRevision);
    changed = true;
    if (oldText !== undefined) {
      const history = annotations[revisionHistoryAnnotation] ?? "";
      if (history === "") {
        annotations[revisionHistoryAnnotation] = oldText;
      } else {
        const old = history.split(",");
        let total = history.length + oldText.length + 1;
        let start = 0;
        while (total > maxRevisionHistoryLength && start < old.length) {
          total -= (old[start]?.length ?? 0) + 1;
          start++;
        }
        if (total <= maxRevisionHistoryLength) {
          annotations[revisionHistoryAnnotation] = [...old.slice(start), oldText].join(",");
        }
      }
    }
  }
  if (!exists) {
    const desired = replicasOf(deployment);
    if (setReplicasAnnotations(rs, desired, desired + maxSurge)) changed = true;
  }
  return changed;
}
