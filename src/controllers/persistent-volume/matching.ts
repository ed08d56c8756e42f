/**
 * What the persistentvolume-binder decides without the API: which volume a claim binds to
 * (upstream's `FindMatchingVolume` and `checkVolumeSatisfyClaim`, pkg/controller/volume/
 * persistentvolume and component-helpers/storage/volume), and the volume gantry's emulated
 * provisioner creates for a claim.
 */
import {
  betaStorageClassAnnotation,
  compareQuantities,
  type LabelSelector,
  type ObjectReference,
  type PersistentVolume,
  type PersistentVolumeClaim,
  parseQuantity,
  type StorageClass,
  selectorFromLabelSelector,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** The provisioner name of gantry's emulated dynamic provisioning. */
export const emulatedProvisioner = "gantry.dev/emulated";
/** Where an emulated volume claims to live; nothing is created there. */
export const emulatedVolumeRoot = "/var/lib/gantry/volumes";

export const annBindCompleted = "pv.kubernetes.io/bind-completed";
export const annBoundByController = "pv.kubernetes.io/bound-by-controller";
export const annDynamicallyProvisioned = "pv.kubernetes.io/provisioned-by";
export const annStorageProvisioner = "volume.kubernetes.io/storage-provisioner";
export const annBetaStorageProvisioner = "volume.beta.kubernetes.io/storage-provisioner";
export const annSelectedNode = "volume.kubernetes.io/selected-node";

type Claim = DeepReadonly<PersistentVolumeClaim>;
type Volume = DeepReadonly<PersistentVolume>;

/** `GetPersistentVolumeClaimClass`: the beta annotation, else `spec.storageClassName`, else "". */
export function claimClass(claim: Claim): string {
  return (
    claim.metadata.annotations?.[betaStorageClassAnnotation] ?? claim.spec?.storageClassName ?? ""
  );
}

/** `GetPersistentVolumeClass`. */
export function volumeClass(volume: Volume): string {
  return (
    volume.metadata.annotations?.[betaStorageClassAnnotation] ?? volume.spec?.storageClassName ?? ""
  );
}

/** `IsVolumeBoundToClaim`: the claimRef names this claim (and its uid, when the ref has one). */
export function isVolumeBoundToClaim(volume: Volume, claim: Claim): boolean {
  const ref = volume.spec?.claimRef;
  if (ref === undefined || ref === null) return false;
  if (ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) return false;
  return (ref.uid ?? "") === "" || ref.uid === claim.metadata.uid;
}

function storage(
  list: Readonly<Record<string, string>> | undefined,
): ReturnType<typeof parseQuantity> {
  try {
    return parseQuantity(list?.["storage"] ?? "0");
  } catch {
    return parseQuantity("0");
  }
}

/** `CheckAccessModes`: every mode the claim asks for is one the volume offers. */
function hasAccessModes(volume: Volume, claim: Claim): boolean {
  const offered = volume.spec?.accessModes ?? [];
  return (claim.spec?.accessModes ?? []).every((mode) => offered.includes(mode));
}

function sameVolumeMode(volume: Volume, claim: Claim): boolean {
  return (volume.spec?.volumeMode ?? "Filesystem") === (claim.spec?.volumeMode ?? "Filesystem");
}

function selects(claim: Claim, volume: Volume): boolean {
  const selector = claim.spec?.selector;
  if (selector === undefined || selector === null) return true;
  try {
    return selectorFromLabelSelector(selector as LabelSelector).test(volume.metadata.labels ?? {});
  } catch {
    return false;
  }
}

/**
 * `FindMatchingVolume`: a volume pre-bound to this claim (its claimRef names the claim) wins
 * if it satisfies mode and size; otherwise the smallest Available, unclaimed, not deleting
 * volume of the claim's class, volume mode and access modes that the selector picks and that is
 * at least as large as the request. With `delayBinding` (a WaitForFirstConsumer class and no
 * selected node yet) only pre-bound volumes count.
 */
export function findMatchingVolume(
  claim: Claim,
  volumes: readonly Volume[],
  delayBinding = false,
): Volume | undefined {
  const requested = storage(claim.spec?.resources?.requests);
  const className = claimClass(claim);
  let best: Volume | undefined;
  for (const volume of volumes) {
    const size = storage(volume.spec?.capacity);
    const bigEnough = compareQuantities(size, requested) >= 0;
    if (isVolumeBoundToClaim(volume, claim)) {
      if (bigEnough && sameVolumeMode(volume, claim)) return volume;
      continue;
    }
    if (delayBinding) continue;
    if (volume.spec?.claimRef !== undefined && volume.spec.claimRef !== null) continue;
    if (volume.metadata.deletionTimestamp !== undefined) continue;
    if (volume.status?.phase !== "Available") continue;
    if (volumeClass(volume) !== className) continue;
    if (!sameVolumeMode(volume, claim) || !hasAccessModes(volume, claim)) continue;
    if (!selects(claim, volume) || !bigEnough) continue;
    if (best === undefined || compareQuantities(size, storage(best.spec?.capacity)) < 0) {
      best = volume;
    }
  }
  return best;
}

/** The claimRef a bound volume carries. */
export function claimRefTo(claim: Claim): ObjectReference {
  return {
    kind: "PersistentVolumeClaim",
    namespace: claim.metadata.namespace ?? "",
    name: claim.metadata.name ?? "",
    uid: claim.metadata.uid ?? "",
    apiVersion: "v1",
    resourceVersion: claim.metadata.resourceVersion ?? "",
  };
}

/**
 * The volume the emulated provisioner creates for `claim` in `storageClass`: `pvc-<claim uid>`,
 * pre-bound to the claim, the class's reclaim policy and mount options, the claim's size, modes
 * and volume mode, a hostPath under `/var/lib/gantry/volumes` and — when the scheduler picked a
 * node — node affinity to that node, as kind's local-path provisioner does.
 */
export function provisionedVolume(
  claim: Claim,
  storageClass: DeepReadonly<StorageClass>,
): PersistentVolume {
  const name = `pvc-${claim.metadata.uid ?? ""}`;
  const node = claim.metadata.annotations?.[annSelectedNode];
  const volume: PersistentVolume = {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: {
      name,
      annotations: { [annDynamicallyProvisioned]: storageClass.provisioner },
    },
    spec: {
      capacity: { storage: claim.spec?.resources?.requests?.["storage"] ?? "0" },
      accessModes: [...(claim.spec?.accessModes ?? [])],
      claimRef: claimRefTo(claim),
      persistentVolumeReclaimPolicy: storageClass.reclaimPolicy ?? "Delete",
      storageClassName: storageClass.metadata.name ?? "",
      volumeMode: claim.spec?.volumeMode ?? "Filesystem",
      hostPath: { path: `${emulatedVolumeRoot}/${name}`, type: "DirectoryOrCreate" },
    },
  };
  const mountOptions = storageClass.mountOptions ?? [];
  if (mountOptions.length > 0 && volume.spec !== undefined)
    volume.spec.mountOptions = [...mountOptions];
  if (node !== undefined && node !== "" && volume.spec !== undefined) {
    volume.spec.nodeAffinity = {
      required: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [node] }] },
        ],
      },
    };
  }
  return volume;
}
