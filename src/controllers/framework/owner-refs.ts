/**
 * Owner references as controllers use them (apimachinery's `metav1.GetControllerOf`,
 * `NewControllerRef`, and the decision half of client-go's `ControllerRefManager`).
 */
import type { KubeObject, ObjectMeta, OwnerReference } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** What a controller needs to know about itself to own objects. */
export interface OwnerIdentity {
  readonly apiVersion: string;
  readonly kind: string;
}

type Metadata = { readonly metadata: DeepReadonly<ObjectMeta> };

/** The owner reference with `controller: true`, if any (`GetControllerOf`). */
export function controllerRefOf(obj: Metadata): DeepReadonly<OwnerReference> | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

/** Whether `owner` is the controller of `obj` (`IsControlledBy`, by uid). */
export function isControlledBy(obj: Metadata, owner: Metadata): boolean {
  const ref = controllerRefOf(obj);
  return ref !== undefined && ref.uid === owner.metadata.uid;
}

/**
 * `NewControllerRef`: a reference to `owner` that marks it as the controller and blocks the
 * owner's foreground deletion until the dependent is gone.
 */
export function newControllerRef(owner: Metadata, identity: OwnerIdentity): OwnerReference {
  return {
    apiVersion: identity.apiVersion,
    kind: identity.kind,
    name: owner.metadata.name ?? "",
    uid: owner.metadata.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * What a controller does with one candidate object (`BaseControllerRefManager.ClaimObject`):
 * - `owned`: it is ours and matches: keep it (even while we are being deleted);
 * - `adopt`: an orphan that matches, in our namespace, neither side being deleted: take it;
 * - `release`: ours but no longer matching, and we are not being deleted: let it go;
 * - `ignore`: someone else's, or an orphan we must not take.
 */
export type ClaimDecision = "owned" | "adopt" | "release" | "ignore";

export function decideClaim(controller: Metadata, obj: Metadata, matches: boolean): ClaimDecision {
  const ref = controllerRefOf(obj);
  const controllerDeleting = controller.metadata.deletionTimestamp !== undefined;
  if (ref !== undefined) {
    if (ref.uid !== controller.metadata.uid) return "ignore";
    if (matches) return "owned";
    return controllerDeleting ? "ignore" : "release";
  }
  if (controllerDeleting || !matches) return "ignore";
  if (obj.metadata.deletionTimestamp !== undefined) return "ignore";
  const ns = controller.metadata.namespace ?? "";
  if (ns !== "" && ns !== (obj.metadata.namespace ?? "")) return "ignore";
  return "adopt";
}

/**
 * The strategic merge patch that adopts `obj` (upstream's `ownerRefControllerPatch`): adds the
 * controller reference; the `uid` makes the patch fail if the object was replaced meanwhile.
 */
export function adoptPatch(obj: Metadata, ref: OwnerReference): KubeObject {
  return { metadata: { ownerReferences: [ref], uid: obj.metadata.uid ?? "" } };
}

/**
 * The strategic merge patch that releases `obj` from the owner with `ownerUid`
 * (`GenerateDeleteOwnerRefStrategicMergeBytes`).
 */
export function releasePatch(obj: Metadata, ownerUid: string): Record<string, unknown> {
  return {
    metadata: {
      ownerReferences: [{ $patch: "delete", uid: ownerUid }],
      uid: obj.metadata.uid ?? "",
    },
  };
}
