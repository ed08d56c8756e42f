import type { ApiError, KubeObject } from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";

/** Who is making a request. */
export interface UserInfo {
  readonly username: string;
  readonly groups: readonly string[];
}

export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** What an admission plugin sees about a request. */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** The object being written (the plugin's own copy: `mutate` may change it in place). */
  readonly object: KubeObject | undefined;
  /** The stored object for UPDATE and DELETE. */
  readonly oldObject: KubeObject | undefined;
  readonly dryRun: boolean;
  readonly userInfo: UserInfo;
}

/**
 * An admission plugin's verdict. Denials carry the ApiError the client receives. Either may carry
 * audit annotations (keys already prefixed with the plugin's domain, as upstream records them:
 * `pod-security.kubernetes.io/enforce-policy`), for the request's audit event.
 */
export type AdmissionDecision =
  | {
      readonly allowed: true;
      readonly warnings?: readonly string[];
      readonly auditAnnotations?: Readonly<Record<string, string>>;
    }
  | {
      readonly allowed: false;
      readonly error: ApiError;
      readonly auditAnnotations?: Readonly<Record<string, string>>;
    };

export const admit: AdmissionDecision = { allowed: true };

/** Read access to current objects for plugins that look things up (namespaces, classes). */
export interface ObjectReader {
  /** The object at `resource` (`namespaces`, `priorityclasses.scheduling.k8s.io`), if any. */
  get(segment: string, namespace: string, name: string): JsonObject | undefined;
  /** Every object of `segment` in `namespace` (all when empty). */
  list(segment: string, namespace: string): readonly JsonObject[];
  /**
   * `get` after the cache has caught up with storage: the live lookup upstream's plugins make
   * when their informer has not seen an object yet (one written a moment ago, maybe through
   * another API server).
   */
  getFresh(segment: string, namespace: string, name: string): Promise<JsonObject | undefined>;
}

/**
 * One step of the admission chain. Mutating plugins run first, in order, then validating ones.
 * Both may be async; neither may keep references to the object after returning.
 */
export interface AdmissionPlugin {
  readonly name: string;
  /** Which operations the plugin cares about; others skip it. */
  handles(attributes: AdmissionAttributes): boolean;
  mutate?(attributes: AdmissionAttributes): AdmissionDecision | Promise<AdmissionDecision>;
  validate?(attributes: AdmissionAttributes): AdmissionDecision | Promise<AdmissionDecision>;
}

/** Runs plugins in order: every mutate, then every validate. Returns the first denial. */
export class AdmissionChain {
  readonly #plugins: readonly AdmissionPlugin[];

  constructor(plugins: readonly AdmissionPlugin[]) {
    this.#plugins = plugins;
  }

  /**
   * Runs every plugin's `mutate`. Warnings go to `warnings`; audit annotations, when the caller
   * collects them, to `auditAnnotations` (also those of a denial, before it is thrown).
   */
  async mutate(
    attributes: AdmissionAttributes,
    warnings: string[],
    auditAnnotations?: Record<string, string>,
  ): Promise<void> {
    for (const plugin of this.#plugins) {
      if (plugin.mutate === undefined || !plugin.handles(attributes)) continue;
      record(await plugin.mutate(attributes), warnings, auditAnnotations);
    }
  }

  /** Runs every plugin's `validate`, collecting as `mutate` does. */
  async validate(
    attributes: AdmissionAttributes,
    warnings: string[],
    auditAnnotations?: Record<string, string>,
  ): Promise<void> {
    for (const plugin of this.#plugins) {
      if (plugin.validate === undefined || !plugin.handles(attributes)) continue;
      record(await plugin.validate(attributes), warnings, auditAnnotations);
    }
  }
}

function record(
  decision: AdmissionDecision,
  warnings: string[],
  auditAnnotations: Record<string, string> | undefined,
): void {
  if (auditAnnotations !== undefined && decision.auditAnnotations !== undefined) {
    Object.assign(auditAnnotations, decision.auditAnnotations);
  }
  if (!decision.allowed) throw decision.error;
  if (decision.warnings !== undefined) warnings.push(...decision.warnings);
}
