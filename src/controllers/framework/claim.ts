/**
 * The acting half of client-go's `ControllerRefManager`: adopt matching orphans, release owned
 * objects that no longer match, and return what the controller owns.
 */
import { ApiError, type KubeObject } from "../../api/index.ts";
import { type Client, isNotFound, type ResourceRef } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  adoptPatch,
  decideClaim,
  newControllerRef,
  type OwnerIdentity,
  releasePatch,
} from "./owner-refs.ts";

export interface ClaimRequest<T extends KubeObject> {
  /** The controller object (from the cache). */
  readonly controller: DeepReadonly<KubeObject>;
  readonly identity: OwnerIdentity;
  /** The resource of the candidates (pods, replicasets). */
  readonly resource: ResourceRef;
  readonly candidates: readonly DeepReadonly<T>[];
  /** Whether a candidate matches the controller's selector. */
  readonly matches: (candidate: DeepReadonly<T>) => boolean;
  /**
   * Checks with a fresh read that the controller may still adopt (it was not deleted or
   * recreated meanwhile); throws otherwise. Called at most once, and only before an adoption.
   */
  readonly canAdopt: () => Promise<void>;
}

/**
 * `ClaimObjects`: every candidate the controller owns after adopting and releasing. Errors of
 * individual adoptions or releases are collected; if any occurred the claim throws the first
 * after trying them all, so the caller retries (a vanished object is not an error).
 */
export async function claimObjects<T extends KubeObject>(
  client: Client,
  request: ClaimRequest<T>,
): Promise<DeepReadonly<T>[]> {
  const claimed: DeepReadonly<T>[] = [];
  const errors: unknown[] = [];
  let adoptable: Promise<void> | undefined;
  const ownerUid = request.controller.metadata.uid ?? "";
  for (const candidate of request.candidates) {
    const decision = decideClaim(request.controller, candidate, request.matches(candidate));
    const namespace = candidate.metadata.namespace;
    const name = candidate.metadata.name ?? "";
    try {
      switch (decision) {
        case "owned":
          claimed.push(candidate);
          break;
        case "ignore":
          break;
        case "adopt": {
          adoptable ??= request.canAdopt();
          await adoptable;
          const ref = newControllerRef(request.controller, request.identity);
          const adopted = await client.patch<T>(
            request.resource,
            namespace,
            name,
            "strategic",
            adoptPatch(candidate, ref),
          );
          claimed.push(adopted as DeepReadonly<T>);
          break;
        }
        case "release":
          await client.patch(
            request.resource,
            namespace,
            name,
            "strategic",
            releasePatch(candidate, ownerUid),
          );
          break;
      }
    } catch (error: unknown) {
      if (isNotFound(error)) continue;
      if (decision === "release" && isInvalid(error)) continue;
      errors.push(error);
    }
  }
  if (errors.length > 0) throw errors[0];
  return claimed;
}

function isInvalid(error: unknown): boolean {
  return error instanceof ApiError && error.reason === "Invalid";
}

/**
 * `RecheckDeletionTimestamp`: reads `controller` fresh from the server and throws unless it is
 * still the same object (uid) and not being deleted.
 */
export async function recheckNotDeleting(
  client: Client,
  resource: ResourceRef,
  controller: DeepReadonly<KubeObject>,
): Promise<void> {
  const namespace = controller.metadata.namespace;
  const name = controller.metadata.name ?? "";
  const fresh = await client.get(resource, namespace, name);
  const where = namespace === undefined || namespace === "" ? name : `${namespace}/${name}`;
  if (fresh.metadata.uid !== controller.metadata.uid) {
    throw new Error(
      `original ${where} is gone: got uid ${fresh.metadata.uid ?? ""}, wanted ${controller.metadata.uid ?? ""}`,
    );
  }
  if (fresh.metadata.deletionTimestamp !== undefined) {
    throw new Error(`${where} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
  }
}
