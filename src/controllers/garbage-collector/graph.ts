/**
 * The garbage collector's dependency graph (upstream's GraphBuilder `uidToNode`) and its pure
 * decisions (`attemptToDeleteItem`, `processDeletingDependentsItem`).
 */
import type { OwnerReference } from "../../api/index.ts";
import type { ResourceRef } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

export const foregroundDeletionFinalizer = "foregroundDeletion";
export const orphanFinalizer = "orphan";

/** Where an object lives: enough to get, patch or delete it. */
export interface ObjectIdentity {
  readonly resource: ResourceRef;
  /** "" for cluster-scoped objects. */
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** What the graph remembers of one object. */
export interface GraphNode {
  readonly identity: ObjectIdentity;
  readonly owners: readonly DeepReadonly<OwnerReference>[];
  readonly finalizers: readonly string[];
  /** Has a deletionTimestamp. */
  readonly deleting: boolean;
}

/** Being deleted in the foreground: waits for its blocking dependents. */
export function isDeletingDependents(node: GraphNode): boolean {
  return node.deleting && node.finalizers.includes(foregroundDeletionFinalizer);
}

/** Being deleted with propagationPolicy Orphan: its dependents must be released first. */
export function isOrphaning(node: GraphNode): boolean {
  return node.deleting && node.finalizers.includes(orphanFinalizer);
}

/** Objects by uid, and for each owner uid the uids of its dependents. */
export class DependencyGraph {
  readonly #nodes = new Map<string, GraphNode>();
  readonly #dependents = new Map<string, Set<string>>();

  get size(): number {
    return this.#nodes.size;
  }

  get(uid: string): GraphNode | undefined {
    return this.#nodes.get(uid);
  }

  /** Adds or replaces the node of `node.identity.uid`; returns the node it replaced. */
  upsert(node: GraphNode): GraphNode | undefined {
    const uid = node.identity.uid;
    const previous = this.#nodes.get(uid);
    if (previous !== undefined) this.#unlink(previous);
    this.#nodes.set(uid, node);
    for (const owner of node.owners) {
      let set = this.#dependents.get(owner.uid);
      if (set === undefined) {
        set = new Set();
        this.#dependents.set(owner.uid, set);
      }
      set.add(uid);
    }
    return previous;
  }

  /** Removes the node of `uid`; returns it. Its dependents stay (they now have an absent owner). */
  remove(uid: string): GraphNode | undefined {
    const node = this.#nodes.get(uid);
    if (node === undefined) return undefined;
    this.#unlink(node);
    this.#nodes.delete(uid);
    return node;
  }

  /** The known objects with an owner reference to `uid`. */
  dependentsOf(uid: string): GraphNode[] {
    const out: GraphNode[] = [];
    for (const dependent of this.#dependents.get(uid) ?? []) {
      const node = this.#nodes.get(dependent);
      if (node !== undefined) out.push(node);
    }
    return out;
  }

  #unlink(node: GraphNode): void {
    for (const owner of node.owners) {
      const set = this.#dependents.get(owner.uid);
      set?.delete(node.identity.uid);
      if (set?.size === 0) this.#dependents.delete(owner.uid);
    }
  }
}

/**
 * `blockingDependents`: dependents whose reference to `owner` has `blockOwnerDeletion: true`;
 * a foreground deletion waits for these to be gone.
 */
export function blockingDependents(
  owner: GraphNode,
  dependents: readonly GraphNode[],
): GraphNode[] {
  const uid = owner.identity.uid;
  return dependents.filter((d) =>
    d.owners.some((ref) => ref.uid === uid && ref.blockOwnerDeletion === true),
  );
}

/**
 * What an owner reference points at (`classifyReferences`): `solid` exists and is not being
 * deleted in the foreground, `dangling` is gone (or was recreated with another uid),
 * `waiting` is being deleted in the foreground.
 */
export type OwnerState = "solid" | "dangling" | "waiting";

export type DependentAction =
  /** Nothing to do: no owners, or only solid ones. */
  | { readonly kind: "none" }
  /** Keep the object, drop the references to these owner uids. */
  | { readonly kind: "removeOwnerReferences"; readonly uids: readonly string[] }
  /**
   * An owner waits for its dependents and this object has dependents of its own: delete it in
   * the foreground too, first clearing blockOwnerDeletion when `unblock` (cycle protection).
   */
  | { readonly kind: "deleteForeground"; readonly unblock: boolean }
  /** No solid owner is left: delete it with the policy its own finalizers ask for. */
  | { readonly kind: "delete"; readonly policy: "Orphan" | "Foreground" | "Background" };

/**
 * `attemptToDeleteItem`'s decision for a dependent that is not itself being deleted (the
 * caller skips those, and handles deletingDependents owners with `blockingDependents`).
 */
export function computeDependentAction(
  node: GraphNode,
  states: ReadonlyMap<string, OwnerState>,
  dependents: readonly GraphNode[],
): DependentAction {
  if (node.owners.length === 0) return { kind: "none" };
  const solid: string[] = [];
  const dangling: string[] = [];
  const waiting: string[] = [];
  for (const owner of node.owners) {
    const state = states.get(owner.uid) ?? "solid";
    if (state === "solid") solid.push(owner.uid);
    else if (state === "dangling") dangling.push(owner.uid);
    else waiting.push(owner.uid);
  }
  if (solid.length > 0) {
    if (dangling.length === 0 && waiting.length === 0) return { kind: "none" };
    return { kind: "removeOwnerReferences", uids: [...dangling, ...waiting] };
  }
  if (waiting.length > 0 && dependents.length > 0) {
    return { kind: "deleteForeground", unblock: dependents.some(isDeletingDependents) };
  }
  if (node.finalizers.includes(orphanFinalizer)) return { kind: "delete", policy: "Orphan" };
  if (node.finalizers.includes(foregroundDeletionFinalizer)) {
    return { kind: "delete", policy: "Foreground" };
  }
  return { kind: "delete", policy: "Background" };
}
