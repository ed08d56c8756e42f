/**
 * The persistentvolume-binder controller (upstream's pkg/controller/volume/persistentvolume,
 * 1.33), for gantry's emulated volumes. Claims and volumes share one queue: `claim:<ns>/<name>`
 * keys run upstream's `syncClaim`, `volume:<name>` keys its `syncVolume`.
 *
 * - A Pending claim binds to the volume `findMatchingVolume` picks: the volume gets the claimRef
 *   (and `pv.kubernetes.io/bound-by-controller`), phase Bound; the claim gets `volumeName`,
 *   `pv.kubernetes.io/bind-completed` (and bound-by-controller), phase Bound with the volume's
 *   capacity and access modes.
 * - A claim whose class names the emulated provisioner (`gantry.dev/emulated`) and that no
 *   volume satisfies gets a volume `pvc-<claim uid>` created for it: at once for Immediate
 *   classes, once the scheduler sets `volume.kubernetes.io/selected-node` for
 *   WaitForFirstConsumer ones. The claim then binds to it as to any pre-bound volume.
 * - A volume without a claimRef is Available. A volume whose claim is gone is Released; its
 *   reclaim policy then applies: Retain keeps it Released, Delete deletes a volume the emulated
 *   provisioner made and fails any other (no plugin can delete it), Recycle fails.
 * - A claim created with no class at all gets the default StorageClass once one is marked
 *   (upstream's retroactive default class assignment), when no class-less volume fits it.
 * - A claim whose volume is gone is Lost.
 */
import {
  betaStorageClassAnnotation,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type PersistentVolumePhase,
  pickDefaultStorageClass,
  type StorageClass,
} from "../../api/index.ts";
import {
  type Client,
  type EventRecorder,
  type InformerFactory,
  isAlreadyExists,
  isNotFound,
  persistentVolumeClaimsResource,
  persistentVolumesResource,
  referenceTo,
  storageClassesResource,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, deepCopy, type Logger, rfc3339 } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  type ReconcileResult,
  watch,
} from "../framework/index.ts";
import {
  annBetaStorageProvisioner,
  annBindCompleted,
  annBoundByController,
  annDynamicallyProvisioned,
  annSelectedNode,
  annStorageProvisioner,
  claimClass,
  claimRefTo,
  emulatedProvisioner,
  findMatchingVolume,
  isVolumeBoundToClaim,
  provisionedVolume,
} from "./matching.ts";

export interface PersistentVolumeBinderDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
}

export interface PersistentVolumeBinderOptions {
  /** Concurrent reconciles. @default 1 (upstream runs one claim and one volume worker) */
  readonly workers?: number;
}

type Claim = DeepReadonly<PersistentVolumeClaim>;
type Volume = DeepReadonly<PersistentVolume>;

const claimKey = (namespace: string | undefined, name: string | undefined) =>
  `claim:${namespace ?? ""}/${name ?? ""}`;
const volumeKey = (name: string | undefined) => `volume:${name ?? ""}`;

export function newPersistentVolumeBinder(
  deps: PersistentVolumeBinderDeps,
  options: PersistentVolumeBinderOptions = {},
): Controller {
  const claims = deps.informers.forResource<PersistentVolumeClaim>(persistentVolumeClaimsResource);
  const volumes = deps.informers.forResource<PersistentVolume>(persistentVolumesResource);
  const classes = deps.informers.forResource<StorageClass>(storageClassesResource);

  const unboundClaimKeys = (): string[] =>
    claims.lister
      .list()
      .filter((c) => (c.spec?.volumeName ?? "") === "")
      .map((c) => claimKey(c.metadata.namespace, c.metadata.name));

  const claimEvent = (claim: Claim, type: "Normal" | "Warning", reason: string, message: string) =>
    deps.events.event(referenceTo(claim, persistentVolumeClaimsResource), type, reason, message);
  const volumeEvent = (
    volume: Volume,
    type: "Normal" | "Warning",
    reason: string,
    message: string,
  ) => deps.events.event(referenceTo(volume, persistentVolumesResource), type, reason, message);

  /** `updateVolumePhase`: writes the phase (and message) only when it changes. */
  const setVolumePhase = async (
    volume: Volume,
    phase: PersistentVolumePhase,
    message = "",
  ): Promise<Volume> => {
    if (volume.status?.phase === phase && (volume.status?.message ?? "") === message) return volume;
    const next = deepCopy(volume) as PersistentVolume;
    const status = { ...(next.status ?? {}) };
    if (status.phase !== phase) status.lastPhaseTransitionTime = rfc3339(deps.clock.now());
    status.phase = phase;
    if (message === "") delete status.message;
    else status.message = message;
    next.status = status;
    return deps.client.updateStatus<PersistentVolume>(persistentVolumesResource, next);
  };

  const setClaimPhase = async (claim: Claim, phase: "Pending" | "Lost"): Promise<void> => {
    if (claim.status?.phase === phase) return;
    const next = deepCopy(claim) as PersistentVolumeClaim;
    next.status = { ...(next.status ?? {}), phase };
    await deps.client.updateStatus<PersistentVolumeClaim>(persistentVolumeClaimsResource, next);
  };

  /** `bind`: volume claimRef, volume phase, claim volumeName, claim status — each only if needed. */
  const bind = async (claim: Claim, found: Volume): Promise<void> => {
    let volume = found;
    const ref = volume.spec?.claimRef;
    if (ref === undefined || ref === null || ref.uid !== claim.metadata.uid) {
      const next = deepCopy(volume) as PersistentVolume;
      next.spec = { ...(next.spec ?? {}), claimRef: claimRefTo(claim) };
      if (ref === undefined || ref === null) {
        next.metadata.annotations = {
          ...(next.metadata.annotations ?? {}),
          [annBoundByController]: "yes",
        };
      }
      volume = await deps.client.update<PersistentVolume>(persistentVolumesResource, next);
    }
    volume = await setVolumePhase(volume, "Bound");
    let bound: Claim = claim;
    const annotations = claim.metadata.annotations ?? {};
    if (
      claim.spec?.volumeName !== volume.metadata.name ||
      annotations[annBindCompleted] !== "yes"
    ) {
      const next = deepCopy(claim) as PersistentVolumeClaim;
      next.metadata.annotations = { ...annotations, [annBindCompleted]: "yes" };
      if ((claim.spec?.volumeName ?? "") === "") {
        next.metadata.annotations[annBoundByController] = "yes";
      }
      next.spec = { ...(next.spec ?? {}), volumeName: volume.metadata.name ?? "" };
      bound = await deps.client.update<PersistentVolumeClaim>(persistentVolumeClaimsResource, next);
    }
    const capacity = { ...(volume.spec?.capacity ?? {}) };
    const accessModes = [...(volume.spec?.accessModes ?? [])];
    const status = bound.status;
    if (
      status?.phase !== "Bound" ||
      JSON.stringify(status.capacity ?? {}) !== JSON.stringify(capacity) ||
      JSON.stringify(status.accessModes ?? []) !== JSON.stringify(accessModes)
    ) {
      const next = deepCopy(bound) as PersistentVolumeClaim;
      next.status = { ...(next.status ?? {}), phase: "Bound", capacity, accessModes };
      await deps.client.updateStatus<PersistentVolumeClaim>(persistentVolumeClaimsResource, next);
    }
  };

  /** The emulated provisioner: annotate the claim as upstream does, then create its volume. */
  const provision = async (
    found: Claim,
    storageClass: DeepReadonly<StorageClass>,
  ): Promise<void> => {
    let claim = found;
    if (claim.metadata.annotations?.[annStorageProvisioner] !== storageClass.provisioner) {
      const next = deepCopy(claim) as PersistentVolumeClaim;
      next.metadata.annotations = {
        ...(next.metadata.annotations ?? {}),
        [annStorageProvisioner]: storageClass.provisioner,
        [annBetaStorageProvisioner]: storageClass.provisioner,
      };
      claim = await deps.client.update<PersistentVolumeClaim>(persistentVolumeClaimsResource, next);
    }
    const volume = provisionedVolume(claim, storageClass);
    try {
      await deps.client.create<PersistentVolume>(persistentVolumesResource, volume);
    } catch (error: unknown) {
      if (isAlreadyExists(error)) return;
      claimEvent(
        claim,
        "Warning",
        "ProvisioningFailed",
        `Failed to provision volume with StorageClass "${storageClass.metadata.name}": ${String(error)}`,
      );
      throw error;
    }
    claimEvent(
      claim,
      "Normal",
      "ProvisioningSucceeded",
      `Successfully provisioned volume ${volume.metadata.name} using ${storageClass.provisioner}`,
    );
  };

  const syncUnboundClaim = async (claim: Claim): Promise<void> => {
    const className = claimClass(claim);
    const storageClass = className === "" ? undefined : classes.lister.get("", className);
    const selectedNode = claim.metadata.annotations?.[annSelectedNode] ?? "";
    const delay = storageClass?.volumeBindingMode === "WaitForFirstConsumer" && selectedNode === "";
    const volume = findMatchingVolume(claim, volumes.lister.list(), delay);
    if (volume !== undefined) {
      await bind(claim, volume);
      return;
    }
    // RetroactiveDefaultStorageClass (GA in 1.28): a claim created with no class at all, before
    // any class was marked default, gets the default class once there is one.
    const hasClass =
      claim.metadata.annotations?.[betaStorageClassAnnotation] !== undefined ||
      (claim.spec?.storageClassName ?? null) !== null;
    const fallback = hasClass ? undefined : pickDefaultStorageClass(classes.lister.list());
    if (fallback !== undefined) {
      const next = deepCopy(claim) as PersistentVolumeClaim;
      next.spec = { ...(next.spec ?? {}), storageClassName: fallback.metadata.name ?? "" };
      // The update's event brings the claim back with its class.
      await deps.client.update<PersistentVolumeClaim>(persistentVolumeClaimsResource, next);
      return;
    }
    await setClaimPhase(claim, "Pending");
    if (className === "") {
      claimEvent(
        claim,
        "Normal",
        "FailedBinding",
        "no persistent volumes available for this claim and no storage class is set",
      );
    } else if (storageClass === undefined) {
      claimEvent(
        claim,
        "Warning",
        "ProvisioningFailed",
        `storageclass.storage.k8s.io "${className}" not found`,
      );
    } else if (delay) {
      claimEvent(
        claim,
        "Normal",
        "WaitForFirstConsumer",
        "waiting for first consumer to be created before binding",
      );
    } else if (storageClass.provisioner === emulatedProvisioner) {
      if (claim.metadata.deletionTimestamp === undefined) await provision(claim, storageClass);
    } else {
      claimEvent(
        claim,
        "Normal",
        "ExternalProvisioning",
        `Waiting for a volume to be created either by the external provisioner '${storageClass.provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
      );
    }
  };

  const syncClaim = async (namespace: string, name: string): Promise<void> => {
    const claim = claims.lister.get(namespace, name);
    if (claim === undefined) return;
    const volumeName = claim.spec?.volumeName ?? "";
    if (volumeName === "") {
      await syncUnboundClaim(claim);
      return;
    }
    const volume = volumes.lister.get("", volumeName);
    if (volume === undefined) {
      if (claim.status?.phase === "Lost") return;
      if (claim.status?.phase === "Bound") {
        claimEvent(
          claim,
          "Warning",
          "ClaimLost",
          "Bound claim has lost its PersistentVolume. Data on the volume is lost!",
        );
        await setClaimPhase(claim, "Lost");
      } else await setClaimPhase(claim, "Pending");
      return;
    }
    const ref = volume.spec?.claimRef;
    if (ref === undefined || ref === null || isVolumeBoundToClaim(volume, claim)) {
      await bind(claim, volume);
    } else if (claim.status?.phase === "Bound") {
      claimEvent(
        claim,
        "Warning",
        "ClaimMisbound",
        "Two claims are bound to the same volume, this one is bound incorrectly",
      );
      await setClaimPhase(claim, "Lost");
    }
  };

  /** `reclaimVolume` for a Released volume. */
  const reclaim = async (volume: Volume): Promise<void> => {
    const name = volume.metadata.name ?? "";
    switch (volume.spec?.persistentVolumeReclaimPolicy ?? "Retain") {
      case "Retain":
        return;
      case "Delete":
        if (volume.metadata.annotations?.[annDynamicallyProvisioned] === emulatedProvisioner) {
          try {
            await deps.client.delete(persistentVolumesResource, undefined, name);
          } catch (error: unknown) {
            if (!isNotFound(error)) throw error;
          }
          return;
        }
        {
          const message = `error getting deleter volume plugin for volume "${name}": no deletable volume plugin matched`;
          volumeEvent(volume, "Warning", "VolumeFailedDelete", message);
          await setVolumePhase(volume, "Failed", message);
        }
        return;
      default: {
        const message = `No recycler plugin found for the volume!`;
        volumeEvent(volume, "Warning", "VolumeFailedRecycle", message);
        await setVolumePhase(volume, "Failed", message);
      }
    }
  };

  const syncVolume = async (name: string): Promise<void> => {
    const volume = volumes.lister.get("", name);
    if (volume === undefined || volume.metadata.deletionTimestamp !== undefined) return;
    const ref = volume.spec?.claimRef;
    if (ref === undefined || ref === null || (ref.uid ?? "") === "") {
      // Unused, or pre-bound by a user to a claim that has not bound yet.
      if (volume.status?.phase !== "Failed") await setVolumePhase(volume, "Available");
      return;
    }
    const claim = claims.lister.get(ref.namespace ?? "", ref.name ?? "");
    if (claim === undefined || claim.metadata.uid !== ref.uid) {
      if (volume.status?.phase === "Failed") return;
      const released = await setVolumePhase(volume, "Released");
      await reclaim(released);
      return;
    }
    const claimed = claim.spec?.volumeName ?? "";
    // Not bound yet: the claim's sync finishes the binding.
    if (claimed === "") return;
    if (claimed === name) {
      await setVolumePhase(volume, "Bound");
      return;
    }
    // The claim is bound to another volume: give this one back if the controller bound it.
    if (volume.metadata.annotations?.[annBoundByController] !== undefined) {
      const next = deepCopy(volume) as PersistentVolume;
      if (next.spec !== undefined) delete next.spec.claimRef;
      if (next.metadata.annotations !== undefined)
        delete next.metadata.annotations[annBoundByController];
      const unbound = await deps.client.update<PersistentVolume>(persistentVolumesResource, next);
      await setVolumePhase(unbound, "Available");
    }
  };

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    if (key.startsWith("volume:")) await syncVolume(key.slice("volume:".length));
    else if (key.startsWith("claim:")) {
      const rest = key.slice("claim:".length);
      const slash = rest.indexOf("/");
      await syncClaim(rest.slice(0, slash), rest.slice(slash + 1));
    }
    return done;
  };

  return defineController<PersistentVolumeClaim>({
    name: "persistentvolume-binder",
    primary: claims,
    primaryToKeys: (event) => {
      const keys = [claimKey(event.object.metadata.namespace, event.object.metadata.name)];
      const volumeName = event.object.spec?.volumeName ?? "";
      if (volumeName !== "") keys.push(volumeKey(volumeName));
      // A deleted claim releases any volume that named it.
      if (event.type === "delete") {
        for (const volume of volumes.lister.list()) {
          if (isVolumeBoundToClaim(volume, event.object))
            keys.push(volumeKey(volume.metadata.name));
        }
      }
      return keys;
    },
    secondary: [
      watch<PersistentVolume>(volumes, (event) => {
        const volume = event.object;
        const keys = [volumeKey(volume.metadata.name)];
        const ref = volume.spec?.claimRef;
        if (ref !== undefined && ref !== null) keys.push(claimKey(ref.namespace, ref.name));
        // A volume that may now satisfy a waiting claim: look at every unbound claim.
        else if (volume.status?.phase === "Available") keys.push(...unboundClaimKeys());
        return keys;
      }),
      watch<StorageClass>(classes, (event) => (event.type === "delete" ? [] : unboundClaimKeys())),
    ],
    reconcile,
    workers: options.workers ?? 1,
    clock: deps.clock,
    logger: deps.logger,
  });
}
