/**
 * The pvc-protection controller (upstream's pkg/controller/volume/pvcprotection, 1.33): a
 * PersistentVolumeClaim being deleted keeps its `kubernetes.io/pvc-protection` finalizer while a
 * scheduled, non-terminated pod in its namespace uses it (a `persistentVolumeClaim` volume
 * naming it, or a generic ephemeral volume whose claim `<pod>-<volume>` it is); once none does,
 * the finalizer is removed and the claim goes.
 */
import { isPodTerminal, type PersistentVolumeClaim, type Pod } from "../../api/index.ts";
import {
  type Client,
  type InformerFactory,
  persistentVolumeClaimsResource,
  podsResource,
} from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  type ReconcileResult,
  removeFinalizer,
  splitKey,
  watch,
} from "../framework/index.ts";

/** The finalizer the StorageObjectInUseProtection admission plugin puts on every new claim. */
export const pvcProtectionFinalizer = "kubernetes.io/pvc-protection";

export interface PvcProtectionControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface PvcProtectionControllerOptions {
  /** Concurrent reconciles. @default 1 */
  readonly workers?: number;
}

/** The claim names a pod's volumes refer to (ephemeral volumes as `<pod>-<volume>`). */
export function claimNamesOf(pod: DeepReadonly<Pod>): string[] {
  const names: string[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    const claimName = volume.persistentVolumeClaim?.claimName;
    if (claimName !== undefined) names.push(claimName);
    else if (volume["ephemeral"] !== undefined && volume["ephemeral"] !== null) {
      names.push(`${pod.metadata.name ?? ""}-${volume.name}`);
    }
  }
  return names;
}

/** Whether `pod` keeps `claimName` in use: scheduled, not terminated, and referring to it. */
export function podUsesClaim(pod: DeepReadonly<Pod>, claimName: string): boolean {
  if ((pod.spec?.nodeName ?? "") === "" || isPodTerminal(pod as Pod)) return false;
  return claimNamesOf(pod).includes(claimName);
}

export function newPvcProtectionController(
  deps: PvcProtectionControllerDeps,
  options: PvcProtectionControllerOptions = {},
): Controller {
  const claims = deps.informers.forResource<PersistentVolumeClaim>(persistentVolumeClaimsResource);
  const pods = deps.informers.forResource<Pod>(podsResource);

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const { namespace, name } = splitKey(key);
    const claim = claims.lister.get(namespace, name);
    if (claim?.metadata.deletionTimestamp === undefined) return done;
    const finalizers = claim.metadata.finalizers ?? [];
    if (!finalizers.includes(pvcProtectionFinalizer)) return done;
    if (pods.lister.list(namespace).some((pod) => podUsesClaim(pod, name))) return done;
    // The cache may lag a pod created a moment ago: ask the API server before letting go.
    const live = await deps.client.list<Pod>(podsResource, namespace);
    if (live.items.some((pod) => podUsesClaim(pod, name))) return done;
    await removeFinalizer(
      deps.client,
      persistentVolumeClaimsResource,
      claim,
      pvcProtectionFinalizer,
    );
    return done;
  };

  return defineController<PersistentVolumeClaim>({
    name: "pvc-protection",
    primary: claims,
    secondary: [
      // A pod going away (or finishing) may free the claims it used.
      watch<Pod>(pods, (event) => {
        const pod = event.object;
        if (event.type === "add") return [];
        if (event.type === "update" && !isPodTerminal(pod as Pod)) return [];
        const namespace = pod.metadata.namespace ?? "";
        return claimNamesOf(pod).map((claimName) => `${namespace}/${claimName}`);
      }),
    ],
    reconcile,
    workers: options.workers ?? 1,
    clock: deps.clock,
    logger: deps.logger,
  });
}
