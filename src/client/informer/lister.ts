import { type KubeObject, type LabelSelectorExpr, matchesLabels } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { type Indexer, namespaceIndex } from "./indexer.ts";

/**
 * Typed reads from an informer's cache, as controllers and the scheduler use them. Reads never
 * go to the server: they see the cache as of the last event the informer processed. Objects are
 * frozen and shared; copy (`structuredClone`) before changing one.
 */
export interface Lister<T extends KubeObject> {
  /** One object; `namespace` undefined or "" for cluster-scoped kinds. */
  get(namespace: string | undefined, name: string): DeepReadonly<T> | undefined;
  /**
   * The objects in `namespace` (every namespace when undefined or "") whose labels match
   * `selector` (everything when undefined), in no particular order.
   */
  list(namespace?: string, selector?: LabelSelectorExpr): DeepReadonly<T>[];
}

/** A Lister over an informer's indexer; namespace lists use the built-in namespace index. */
export function newLister<T extends KubeObject>(indexer: Indexer<T>): Lister<T> {
  return {
    get(namespace, name) {
      return indexer.get(
        namespace === undefined || namespace === "" ? name : `${namespace}/${name}`,
      );
    },
    list(namespace, selector) {
      const candidates =
        namespace === undefined || namespace === ""
          ? indexer.list()
          : indexer.byIndex(namespaceIndex, namespace);
      if (selector === undefined) return candidates;
      return candidates.filter((object) => matchesLabels(selector, object.metadata.labels));
    },
  };
}
