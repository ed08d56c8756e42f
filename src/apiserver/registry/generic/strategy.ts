import type { DeleteOptions, KindDefinition, KubeObject } from "../../../api/index.ts";
import type { Clock } from "../../../util/index.ts";

/** Context the hooks may use. */
export interface StrategyContext {
  readonly clock: Clock;
}

/**
 * Per-resource behaviour on top of the generic store, named as upstream's registry strategies.
 * Every hook is optional; the generic behaviour (status handling, generation, defaults and
 * validation from the KindDefinition) applies to every resource.
 */
export interface Strategy {
  /** Clears or computes fields on a new object, after defaulting and before validation. */
  prepareForCreate?(obj: KubeObject, context: StrategyContext): void;
  /** Adjusts an updated object (the main resource) given the stored one. */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, context: StrategyContext): void;
  /** Adjusts an object written through `/status` given the stored one (its status strategy's). */
  prepareForStatusUpdate?(obj: KubeObject, old: KubeObject): void;
  /**
   * Adjusts an object on its first DELETE, before finalizers are checked: may add finalizers or
   * conditions (CRDs add their cleanup finalizer). Not called once the object is terminating.
   */
  prepareForDelete?(obj: KubeObject, context: StrategyContext): void;
  /**
   * The grace period a delete gets, or `undefined` when deletion is immediate. Called only for
   * resources that support graceful deletion (pods).
   */
  gracePeriodSeconds?(obj: KubeObject, options: DeleteOptions): number | undefined;
  /** Whether deleting a finalizer-free object with a set deletionTimestamp needs grace 0 too. */
  readonly gracefulDeletion?: boolean;
  /** Whether DELETE returns the deleted object (pods, namespaces, CRs) instead of a Status. */
  readonly returnDeletedObject?: boolean;
  /** Whether PUT may create a missing object. */
  readonly allowCreateOnUpdate?: boolean;
  /**
   * Whether a create keeps the status it is given. Most resources drop it (their status belongs
   * to a controller); a kubelet registers its Node with status, as upstream's node strategy allows.
   */
  readonly keepsStatusOnCreate?: boolean;
  /** A custom resource: no strategic merge patch, served from a CRD. */
  readonly customResource?: boolean;
  /** Extra subresources this resource serves beyond status and scale. */
  readonly subresources?: readonly string[];
}

/** A resource as the registry serves it: the kind's definition plus its strategy. */
export interface ResourceEntry {
  readonly definition: KindDefinition;
  readonly strategy: Strategy;
}

/** The storage key segment of a resource: `pods`, `deployments.apps`. */
export function segmentOf(definition: { group: string; resource: string }): string {
  return definition.group === ""
    ? definition.resource
    : `${definition.resource}.${definition.group}`;
}

/** The storage key of an object. */
export function keyOf(
  root: string,
  definition: { group: string; resource: string; namespaced: boolean },
  namespace: string,
  name: string,
): string {
  const segment = segmentOf(definition);
  return definition.namespaced
    ? `${root}${segment}/${namespace}/${name}`
    : `${root}${segment}/${name}`;
}

/** The storage prefix of a collection: one namespace, or all of them when `namespace` is empty. */
export function prefixOf(
  root: string,
  definition: { group: string; resource: string; namespaced: boolean },
  namespace: string,
): string {
  const segment = segmentOf(definition);
  return definition.namespaced && namespace !== ""
    ? `${root}${segment}/${namespace}/`
    : `${root}${segment}/`;
}
