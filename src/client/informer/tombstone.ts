import type { KubeObject } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/**
 * What `onDelete` receives when the informer learned of a deletion only by relisting (the watch
 * missed it, e.g. while the API server was down): the key and the last state the cache had, which
 * may be stale. client-go's `DeletedFinalStateUnknown`.
 */
export class DeletedFinalStateUnknown<T extends KubeObject> {
  /** `namespace/name` or `name`. */
  readonly key: string;
  /** The last known state. */
  readonly obj: DeepReadonly<T>;

  constructor(key: string, obj: DeepReadonly<T>) {
    this.key = key;
    this.obj = obj;
  }
}

/** The object a delete notification carries, unwrapping a tombstone. */
export function deletedObject<T extends KubeObject>(
  deleted: DeepReadonly<T> | DeletedFinalStateUnknown<T>,
): DeepReadonly<T> {
  return deleted instanceof DeletedFinalStateUnknown ? deleted.obj : deleted;
}
