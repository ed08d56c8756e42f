import type { FieldErrorList } from "./meta/field-errors.ts";
import type { KubeObject } from "./meta/types.ts";
import type { SchemaRoot } from "./schema/schema.ts";

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

export interface GroupVersionKind extends GroupVersion {
  readonly kind: string;
}

export interface GroupVersionResource extends GroupVersion {
  readonly resource: string;
}

export type Verb =
  | "get"
  | "list"
  | "watch"
  | "create"
  | "update"
  | "patch"
  | "delete"
  | "deletecollection";

/** The verbs of an ordinary read-write resource. */
export const allVerbs: readonly Verb[] = [
  "create",
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "update",
  "watch",
];

/** Where the scale subresource finds replicas and the selector (a CRD's `subresources.scale`). */
export interface ScaleSubresource {
  /** JSON path such as `.spec.replicas`. */
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  /** JSON path to a string selector (`.status.selector`); unset means an empty selector. */
  readonly labelSelectorPath?: string;
}

/**
 * Everything the API server needs to know about one served kind, apart from how it is stored.
 * Built-in kinds are hand-written in `api/<group>/<version>/`; custom resources are made from
 * their CRD at run time.
 */
export interface KindDefinition<T extends KubeObject = KubeObject> {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly listKind: string;
  /** The plural resource name in URLs: `pods`. */
  readonly resource: string;
  /** The singular name: `pod`. */
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly verbs: readonly Verb[];
  /** The kind's schema (with `x-kubernetes-group-version-kind`) and the definitions it refers to. */
  readonly schema: SchemaRoot;
  /** Whether a spec change bumps `metadata.generation` (false for ConfigMap, Secret, …). */
  readonly tracksGeneration: boolean;
  readonly subresources: {
    /** `/status` exists, and the main resource ignores status changes. */
    readonly status: boolean;
    readonly scale?: ScaleSubresource;
  };
  /** Fills defaults in place on a freshly decoded object (create, update and patch results). */
  applyDefaults(obj: T): void;
  /** Validates a new object. Errors carry field paths. */
  validate(obj: T): FieldErrorList;
  /** Validates an update; `old` is the stored object. Includes immutability rules. */
  validateUpdate(obj: T, old: T): FieldErrorList;
  /**
   * Validates a write through `/status` where the kind's status strategy validates differently
   * from an update (upstream's `ValidatePodStatusUpdate`). @default `validateUpdate`
   */
  validateStatusUpdate?(obj: T, old: T): FieldErrorList;
  /**
   * Field-selector fields beyond `metadata.name` and `metadata.namespace`, which every kind has.
   * Kinds that set this report unknown fields as `field label not supported: <f>`.
   */
  readonly selectableFields?: (obj: T) => Readonly<Record<string, string>>;
}

/** `apps/v1` or `v1`. */
export function apiVersionOf(gv: GroupVersion): string {
  return gv.group === "" ? gv.version : `${gv.group}/${gv.version}`;
}

/** Splits `apps/v1` into its group and version; `v1` is the core group. */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const slash = apiVersion.indexOf("/");
  return slash < 0
    ? { group: "", version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
