/** Wire type of `apps/v1` ControllerRevision: an immutable snapshot of a controller's state. */
import type { ObjectMeta } from "../../meta/types.ts";

export interface ControllerRevision {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  /** The serialized state (a RawExtension: any JSON value). Immutable once created. */
  data?: unknown;
  /** The revision this object represents; controllers order revisions by it. */
  revision: number;
  [field: string]: unknown;
}
