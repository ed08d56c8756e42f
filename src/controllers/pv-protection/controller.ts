/**
 * The pv-protection controller (upstream's pkg/controller/volume/pvprotection, 1.33): a
 * PersistentVolume being deleted keeps its `kubernetes.io/pv-protection` finalizer while it is
 * Bound to a claim; once it is not, the finalizer is removed and the volume goes.
 */
import type { PersistentVolume } from "../../api/index.ts";
import {
  type Client,
  type InformerFactory,
  persistentVolumesResource,
} from "../../client/index.ts";
import type { Clock, Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  type ReconcileResult,
  removeFinalizer,
  splitKey,
} from "../framework/index.ts";

/** The finalizer the StorageObjectInUseProtection admission plugin puts on every new volume. */
export const pvProtectionFinalizer = "kubernetes.io/pv-protection";

export interface PvProtectionControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface PvProtectionControllerOptions {
  /** Concurrent reconciles. @default 1 */
  readonly workers?: number;
}

export function newPvProtectionController(
  deps: PvProtectionControllerDeps,
  options: PvProtectionControllerOptions = {},
): Controller {
  const volumes = deps.informers.forResource<PersistentVolume>(persistentVolumesResource);

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const volume = volumes.lister.get("", splitKey(key).name);
    if (volume?.metadata.deletionTimestamp === undefined) return done;
    const finalizers = volume.metadata.finalizers ?? [];
    if (!finalizers.includes(pvProtectionFinalizer)) return done;
    // `isVolumeUsed`: a Bound volume is in use.
    if (volume.status?.phase === "Bound") return done;
    await removeFinalizer(deps.client, persistentVolumesResource, volume, pvProtectionFinalizer);
    return done;
  };

  return defineController<PersistentVolume>({
    name: "pv-protection",
    primary: volumes,
    reconcile,
    workers: options.workers ?? 1,
    clock: deps.clock,
    logger: deps.logger,
  });
}
