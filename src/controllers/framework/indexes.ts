/** Informer indexes controllers share. */
import type { KubeObject } from "../../api/index.ts";
import type { IndexFunc, SharedInformer } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { controllerRefOf } from "./owner-refs.ts";

/** Objects by the uid of their controller (upstream's `controllerUIDIndex`). */
export const controllerUidIndex = "controllerUID";

export const controllerUidIndexFunc: IndexFunc<KubeObject> = (object) => {
  const ref = controllerRefOf(object as DeepReadonly<KubeObject>);
  return ref === undefined ? [] : [ref.uid];
};

/** Adds the index to a shared informer unless another controller already did. */
export function ensureIndex<T extends KubeObject>(
  informer: SharedInformer<T>,
  name: string,
  fn: IndexFunc<T>,
): void {
  try {
    informer.indexer.indexKeys(name, "");
    return;
  } catch (error: unknown) {
    if (!(error instanceof RangeError)) throw error;
  }
  informer.addIndexers({ [name]: fn });
}

/** Splits a work-queue key into namespace ("" when cluster-scoped) and name. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf("/");
  return slash < 0
    ? { namespace: "", name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
