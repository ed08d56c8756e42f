import { finalizerKubernetes, type Namespace } from "../../api/index.ts";
import type { Strategy } from "./generic/strategy.ts";

/**
 * Namespaces as upstream's pkg/registry/core/namespace/strategy.go: a new namespace is Active
 * and carries the `kubernetes` finalizer; a plain update keeps `spec.finalizers` and `status` as
 * stored (they change only through `/finalize` and `/status`); the first DELETE turns it
 * Terminating; it goes once its finalizers are gone.
 */
export const namespaceStrategy: Strategy = {
  returnDeletedObject: true,
  subresources: ["finalize"],
  prepareForCreate(obj) {
    const ns = obj as Namespace;
    ns.status = { phase: "Active" };
    const finalizers = ns.spec?.finalizers ?? [];
    if (!finalizers.includes(finalizerKubernetes)) {
      ns.spec = { ...ns.spec, finalizers: [...finalizers, finalizerKubernetes] };
    }
  },
  prepareForUpdate(obj, old) {
    const ns = obj as Namespace;
    const stored = old as Namespace;
    const finalizers = stored.spec?.finalizers;
    if (finalizers === undefined) {
      if (ns.spec !== undefined) delete ns.spec.finalizers;
    } else {
      ns.spec = { ...ns.spec, finalizers: [...finalizers] };
    }
    if (stored.status === undefined) delete ns.status;
    else ns.status = structuredClone(stored.status);
    // Upstream's REST Delete sets the phase with the deletionTimestamp.
    if (ns.metadata.deletionTimestamp !== undefined) {
      ns.status = { ...ns.status, phase: "Terminating" };
    }
  },
};
