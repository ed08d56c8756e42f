/**
 * Pod signatures (upstream's `PodSignature`, KEP-5598): what Sign plugins say about a pod, as
 * fragments in plugin order. Two signatures are the same when their fragments have the same keys
 * in the same order and structurally equal values. Values are compared, not serialized: signing
 * happens once per pod and attempt, and a comparison stops at the first difference.
 */
import type { SignFragment, SignResult } from "./extension-points.ts";
import { type Status, success, unschedulable } from "./status.ts";

/** A pod's signature: the fragments of every Sign plugin, each key once. */
export type PodSignature = readonly SignFragment[];

/** Upstream's fragment keys for pod fields (dot notation of the Go field path). */
export const signerKeys = Object.freeze({
  schedulerName: "Spec.SchedulerName",
  nodeName: "Spec.NodeName",
  nodeSelector: "Spec.NodeSelector",
  nodeAffinity: "Spec.Affinity.NodeAffinity",
  tolerations: "Spec.Tolerations",
  hostPorts: "HostPorts",
  resources: "Resources",
  namespace: "Metadata.Namespace",
  labels: "Metadata.Labels",
});

/** A successful signing with these fragments. */
export function signedWith(...fragments: SignFragment[]): SignResult {
  return { status: success, fragments };
}

/** The plugin cannot sign the pod (upstream answers Unschedulable with the reason). */
export function notSignable(reason: string): SignResult {
  const status: Status = unschedulable(reason);
  return { status };
}

/**
 * Structural equality of JSON-like values: same array elements in order, same object keys (in any
 * order) with equal values. A key set to undefined differs from a missing key, which can only
 * make two equal pods look different, never the reverse.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(rb, key) || !sameValue(ra[key], rb[key])) return false;
  }
  return true;
}

/** Whether two pods have the same signature. */
export function sameSignature(a: PodSignature, b: PodSignature): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as SignFragment;
    const y = b[i] as SignFragment;
    if (x.key !== y.key || !sameValue(x.value, y.value)) return false;
  }
  return true;
}
