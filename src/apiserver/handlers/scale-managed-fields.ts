/**
 * Field ownership across the scale subresource, as upstream's `ScaleHandler`
 * (k8s.io/apimachinery/pkg/util/managedfields/scalehandler.go): a server-side apply to `/scale`
 * runs against the Scale with the parent's owners of the replicas field, and the result goes
 * back to the parent's `managedFields`.
 */
import type { ManagedFieldsEntry } from "../../api/index.ts";
import {
  decodeManagedFields,
  encodeManagedFields,
  FieldSet,
  field,
  type ManagerEntry,
  type ManagerIdentity,
  type Managers,
  managerIdentifier,
  type Path,
} from "../fieldmanager/index.ts";

/** The Scale's `apiVersion`, which its managedFields entries carry. */
export const scaleApiVersion = "autoscaling/v1";

/** `.spec.replicas` in the Scale. */
const replicasInScale: Path = [field("spec"), field("replicas")];

/** A replicas path of the parent (`.spec.replicas`, a CRD's `.spec.size`) as a field path. */
export function replicasPathOf(specReplicasPath: string): Path {
  return specReplicasPath
    .split(".")
    .filter((part) => part !== "")
    .map((part) => field(part));
}

/**
 * Who an entry is, regardless of the version it was written at: the parent's entries and the
 * Scale's differ only in apiVersion.
 */
function ownerKey(entry: ManagerIdentity): string {
  return JSON.stringify([entry.manager, entry.operation, entry.subresource]);
}

/**
 * `ToSubresource`: the parent's entries that own the replicas field, each reduced to
 * `.spec.replicas` of the Scale at `autoscaling/v1`. Throws `Error` for entries that do not
 * decode.
 */
export function toScaleManagedFields(
  parentEntries: unknown,
  replicasPath: Path,
): ManagedFieldsEntry[] {
  const scale: Managers = new Map();
  for (const entry of decodeManagedFields(parentEntries).values()) {
    if (!entry.set.has(replicasPath)) continue;
    const identity: ManagerIdentity = { ...identityOf(entry), apiVersion: scaleApiVersion };
    scale.set(managerIdentifier(identity), {
      ...identity,
      set: FieldSet.of(replicasInScale),
      time: entry.time,
    });
  }
  return encodeManagedFields(scale);
}

/**
 * `ToParent`: the parent's entries after a write through the Scale. Owners of the replicas
 * field who no longer own it in `scaleEntries` lose it (and vanish when nothing is left); Scale
 * owners the parent did not have get an entry with the replicas path at `parentApiVersion`,
 * timed as the parent's entry of that identity was (none for a new one, as upstream).
 */
export function toParentManagedFields(
  parentEntries: unknown,
  scaleEntries: unknown,
  replicasPath: Path,
  parentApiVersion: string,
): ManagedFieldsEntry[] {
  const parent = decodeManagedFields(parentEntries);
  const scale = new Map<string, ManagerEntry>();
  for (const entry of decodeManagedFields(scaleEntries).values()) scale.set(ownerKey(entry), entry);
  const replicas = FieldSet.of(replicasPath);
  const result: Managers = new Map();
  for (const [key, entry] of parent) {
    if (!entry.set.has(replicasPath)) {
      result.set(key, entry);
      continue;
    }
    const owner = ownerKey(entry);
    if (scale.has(owner)) {
      result.set(key, entry);
      scale.delete(owner);
      continue;
    }
    const rest = entry.set.difference(replicas);
    if (!rest.isEmpty()) result.set(key, { ...entry, set: rest });
  }
  for (const entry of scale.values()) {
    if (!entry.set.has(replicasInScale)) continue;
    const identity: ManagerIdentity = { ...identityOf(entry), apiVersion: parentApiVersion };
    const previous = [...parent.values()].find((p) => ownerKey(p) === ownerKey(entry));
    result.set(managerIdentifier(identity), {
      ...identity,
      set: replicas,
      time: previous?.time,
    });
  }
  return encodeManagedFields(result);
}

function identityOf(entry: ManagerIdentity): ManagerIdentity {
  return {
    manager: entry.manager,
    operation: entry.operation,
    apiVersion: entry.apiVersion,
    subresource: entry.subresource,
  };
}
